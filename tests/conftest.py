"""Settings shared by the whole suite."""

from hypothesis import settings

# Speed is measured by the benchmarks in bench/, never by a test's clock.
settings.register_profile("default", deadline=None, max_examples=200)
settings.load_profile("default")
