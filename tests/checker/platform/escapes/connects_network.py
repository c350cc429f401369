"""Attack: connects to the network (the loopback, where the harness listens, and the
world) and sends what it can; answers as the stub does."""
import socket

for address in (("127.0.0.1", @PORT@), ("1.1.1.1", 53)):
    try:
        with socket.create_connection(address, timeout=1) as connection:
            connection.sendall(b"escaped @MARKER@")
    except OSError:
        pass


highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
