"""Attack: leaves a note for the next submission where every user may write (/dev/shm,
/tmp, /var/tmp, /run/lock) and in a System V shared memory segment; answers as the stub
does."""
import ctypes
import os

for folder in ("/dev/shm", "/tmp", "/var/tmp", "/run/lock"):
    try:
        with open(f"{folder}/bidder-note", "w") as note:
            note.write("escaped @MARKER@")
        os.chmod(f"{folder}/bidder-note", 0o666)
    except OSError:
        pass
try:
    ctypes.CDLL(None).shmget(0x6B1D, 4096, 0o1000 | 0o666)  # IPC_CREAT
except (OSError, AttributeError):
    pass


highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
