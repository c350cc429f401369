"""Escape: a setsid grandchild and a forked child, both left running after the check."""
import os
import subprocess
import sys

subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "@MARKER@"],
                 start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)",
                                  "@MARKER@"])
    os._exit(0)
if os.fork() == 0:
    os.execv(sys.executable, [sys.executable, "-c", "while True: pass", "@MARKER@"])
import correct  # noqa: E402
highCardPoints = correct.highCardPoints
distributionPoints = correct.distributionPoints
openingBid = correct.openingBid
