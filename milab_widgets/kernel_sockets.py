"""Kernels that listen on Unix sockets: no port for another process to take.

jupyter_client's TCP transport has the client pick a kernel's five ports (a socket bound to
port 0, read, closed) and write them to the connection file; the kernel binds them once it
has started, a second or more later on a loaded machine. The picked ports are ephemeral
ports, which any other process's outgoing connection or bind(0) may take in that window,
and the kernel then dies at start (``ZMQError: Address already in use``), which nbclient
reports as ``Kernel died before replying to kernel_info``. `milab reproduce` lost a paper so
beside the test suite; ``benchmarks/soak_kernel_starts.py`` measures the rate (TCP: 1 start
in 100 beside loopback port traffic).

zmq's IPC transport binds Unix sockets at paths the manager chooses, so nothing can take
them. :class:`UnixSocketKernelManager` uses it wherever zmq has it (Linux, macOS), each
kernel at its own absolute path in Jupyter's runtime folder (:func:`socket_path_prefix`),
and keeps TCP elsewhere. `milab reproduce` (``notebook_run``) and papermill's
``milab-watched`` engine start their kernels with it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from uuid import uuid4

import zmq
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.paths import jupyter_runtime_dir
from traitlets import default

__all__ = ["MAX_SOCKET_FOLDER", "UnixSocketKernelManager", "socket_path_prefix",
           "wait_for_kernel_info"]

#: Longest folder for a kernel's sockets: a Unix socket's path has room for 107 bytes, and
#: the name added to the folder (``/milab-<12 hex>-<n>``) takes 21.
MAX_SOCKET_FOLDER = 80


def socket_path_prefix() -> str:
    """An absolute path prefix, unique to one kernel, for its five sockets (``<prefix>-1`` ..
    ``-5``), in Jupyter's runtime folder beside the connection files: unique, so that two
    kernels never choose the same socket, and absolute, so that client and kernel name the
    same file whatever their working folders (jupyter_client's own default, ``kernel-ipc``,
    is relative to each). A runtime folder too long for a socket's path gives way to a
    private temporary folder. jupyter_client removes the sockets at the kernel's shutdown."""
    folder = Path(jupyter_runtime_dir())
    if len(str(folder)) > MAX_SOCKET_FOLDER:
        folder = Path(tempfile.mkdtemp(prefix="milab-"))
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / f"milab-{uuid4().hex[:12]}")


class UnixSocketKernelManager(AsyncKernelManager):
    """jupyter_client's asynchronous kernel manager, on the IPC transport where zmq has it."""

    @default("transport")
    def _transport_default(self):
        return "ipc" if zmq.has("ipc") else "tcp"

    @default("ip")
    def _ip_default(self):
        return socket_path_prefix() if self.transport == "ipc" else super()._ip_default()


async def wait_for_kernel_info(manager: AsyncKernelManager, timeout: float = 120) -> None:
    """Return once ``manager``'s started kernel answers a kernel_info request (its sockets
    bound, its loop running), within ``timeout`` seconds, else raise jupyter_client's
    ``RuntimeError``; the client used for it is closed either way."""
    client = manager.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=timeout)
    finally:
        client.stop_channels()
