"""Settings shared by the whole suite."""

import signal

from hypothesis import settings

# Speed is measured by the benchmarks in bench/, never by a test's clock.
settings.register_profile("default", deadline=None, max_examples=200)
settings.load_profile("default")

# A shell without job control (a CI script, `nohup ... &`) starts a background command
# with SIGINT ignored, and every command it starts inherits that: the tests of Ctrl-C,
# here and in the processes they start, need it heard, as a terminal hears it.
signal.signal(signal.SIGINT, signal.default_int_handler)
