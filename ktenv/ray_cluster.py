"""Joining a Ray cluster (tournaments with ``--backend ray``, RLlib training), with clear errors.

- ``address=None``: a local cluster of this process (``ray.init``), shut down again by whoever
  started it (`join` says whether this call did).
- ``address="auto"``: the cluster that ``ray start --head`` started on this machine.
- ``address="HOST:PORT"``: the head node's GCS address (``ray start --head --port=PORT`` prints it).
  The port is tried first with a short TCP connect: ``ray.init`` itself waits for minutes on an
  address where nothing listens, and a typo should fail in seconds.

Every node of a cluster needs ktenv installed (tasks and env runners import it by name).
"""

from __future__ import annotations

import socket

INSTALL_HINT = 'pip install -e ".[ray]"'
CONNECT_SECONDS = 5.0


class RayClusterError(RuntimeError):
    """Ray is missing, or no cluster answers at the address given."""


def import_ray():
    try:
        import ray
    except ImportError:
        raise RayClusterError(f"this needs the 'ray' package, which is not installed here: {INSTALL_HINT}") from None
    return ray


def parse_address(address: str) -> tuple[str, int]:
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayClusterError(f"Ray address {address!r}: expected 'auto' or HOST:PORT (e.g. 127.0.0.1:6379)")
    return host, int(port)


def check_address(address: str) -> None:
    """``HOST:PORT`` must be well formed and something must listen there; an error says how to start a cluster."""
    host, port = parse_address(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            pass
    except OSError as exc:
        raise RayClusterError(f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one with "
                              "`ray start --head --port=6379` and pass --ray-address 127.0.0.1:6379 (or auto), "
                              "or leave --ray-address out for a local cluster") from None


def join(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Connect this process to Ray; True if this call started it (the caller then calls ``ray.shutdown()``).

    An already connected process keeps its connection (a test's or a notebook's cluster)."""
    ray = import_ray()
    direct = address not in (None, "auto") and not address.startswith("ray://")
    if direct:
        parse_address(address)
    if ray.is_initialized():
        return False
    if direct:
        check_address(address)
    kwargs = {"num_cpus": num_cpus} if address is None and num_cpus else {}
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, **kwargs)
    except ConnectionError as exc:
        raise RayClusterError(f"cannot join the Ray cluster at {address!r}: {exc}") from None
    return True
