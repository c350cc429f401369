"""This machine's addresses that phones in a room can open: each network interface's
IPv4 address but the loopback ones, asked of the kernel (no packet is sent)."""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address
IFNAMSIZ = 16
# Interfaces of containers, virtual machines and tunnels: listed last, as a room's phones
# are rarely on them.
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "lxc", "tun", "tap", "wg", "zt")


def interface_address(name: str) -> str | None:
    """The IPv4 address of the interface *name*, or None when it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            asked = struct.pack("256s", name.encode()[:IFNAMSIZ - 1])
            answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, asked)
        except OSError:
            return None
    return socket.inet_ntoa(answer[20:24])


def room_addresses(names: list[str] | None = None) -> tuple[str, ...]:
    """The IPv4 addresses of the interfaces *names* (this machine's, by default) that are
    not loopback ones, the interfaces of containers and tunnels last."""
    names = [name for _, name in socket.if_nameindex()] if names is None else names
    found = [(name.startswith(VIRTUAL), address) for name in names
             if (address := interface_address(name)) is not None
             and not ipaddress.ip_address(address).is_loopback]
    return tuple(dict.fromkeys(address for _, address in sorted(found, key=lambda f: f[0])))
