"""Where the household's phones can reach the table view: this computer's address on
the local network, found without the internet.

The operating system is asked which of its addresses it would send from towards the
private ranges of home networks (a UDP socket "connected" to such an address sends no
packet: it only picks a route), then which addresses its host name has. Only a private,
non-loopback IPv4 address is one a phone at the table can open."""

from __future__ import annotations

import contextlib
import ipaddress
import socket

PROBES = ("192.168.255.255", "10.255.255.255", "172.31.255.255")
"""One address in each private range: the route to it shows the household network."""

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
EVERY = frozenset({"0.0.0.0", "::", "[::]", ""})


def reachable(address: str) -> bool:
    """Whether a phone on the household network could open ``address``."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    return ip.version == 4 and ip.is_private and not (ip.is_loopback or ip.is_unspecified)


def candidates() -> list[str]:
    """This computer's addresses that phones could reach, the likeliest first."""
    found: list[str] = []
    for probe in PROBES:
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))  # no packet is sent: this only picks the interface
            found.append(str(s.getsockname()[0]))
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    return [a for i, a in enumerate(found) if reachable(a) and a not in found[:i]]


def household_address() -> str | None:
    """The address to show and say to the phones, or None if this computer has none."""
    found = candidates()
    return found[0] if found else None


def phone_host(host: str | None) -> tuple[str, str]:
    """For private pages: (the address to listen on, the address to show). ``host`` is the
    one asked for with ``--host`` (None: find it). ValueError with the reason's prompt key
    when phones cannot reach it."""
    if host is None or host in EVERY:
        shown = household_address()
        if shown is None:
            raise ValueError("phones_no_network")
        return (shown if host is None else host), shown
    if host in LOOPBACK or not reachable(host):
        raise ValueError("phones_unreachable")
    return host, host
