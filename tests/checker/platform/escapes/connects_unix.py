"""Attack: connects to the harness's listener on an abstract unix socket (no file, no
port: only the network namespace, seccomp or Landlock's scope keep it out) and sends
what it can; answers as the stub does."""
import socket

try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(1)
        connection.connect("\0bidder-harness-@PORT@")
        connection.sendall(b"escaped @MARKER@")
except OSError:
    pass


highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
