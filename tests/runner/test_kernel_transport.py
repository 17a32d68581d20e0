"""The kernels of `milab reproduce` listen on Unix sockets, so no other process can take their
ports between the moment the client picks them and the moment the kernel binds them
(``milab_widgets.kernel_sockets``; the race's rate: benchmarks/soak_kernel_starts.py).
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import pytest
import zmq
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning.local_provisioner import LocalPortCache

from milab_widgets import kernel_sockets
from milab_widgets.notebook_run import logging_kernel_manager

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not zmq.has("ipc"), reason="zmq has no IPC transport here")]


async def start_and_ask(manager, cwd: Path) -> dict:
    """Start ``manager``'s kernel in ``cwd``, wait for its kernel_info reply, shut it down;
    the connection info and whether the sockets were there while it ran."""
    await manager.start_kernel(cwd=str(cwd))
    try:
        info = json.loads(Path(manager.connection_file).read_text())
        await kernel_sockets.wait_for_kernel_info(manager)
        sockets = sorted(Path(info["ip"]).parent.glob(Path(info["ip"]).name + "-*"))
        return {"info": info, "sockets": sockets,
                "were_sockets": [path.is_socket() for path in sockets]}
    finally:
        await manager.shutdown_kernel(now=True)


def test_kernels_listen_on_unix_sockets_at_absolute_paths_removed_at_shutdown(tmp_path):
    manager = logging_kernel_manager(tmp_path / "kernel.log", tmp_path / "kernel.pid")(
        kernel_name="python3")
    elsewhere = tmp_path / "the paper's folder"
    elsewhere.mkdir()
    seen = asyncio.run(start_and_ask(manager, elsewhere))
    assert seen["info"]["transport"] == "ipc"
    assert Path(seen["info"]["ip"]).is_absolute()
    assert seen["were_sockets"] == [True] * 5
    assert not any(path.exists() for path in seen["sockets"])


def test_two_managers_never_share_a_socket_path(tmp_path):
    manager_class = logging_kernel_manager(tmp_path / "kernel.log", tmp_path / "kernel.pid")
    assert manager_class(kernel_name="python3").ip != manager_class(kernel_name="python3").ip


def test_a_port_taken_before_the_kernel_binds_kills_a_tcp_kernel_but_not_ours(
        tmp_path, monkeypatch):
    taken = socket.create_server(("127.0.0.1", 0))
    monkeypatch.setattr(LocalPortCache, "find_available_port",
                        lambda self, ip: taken.getsockname()[1])
    try:
        with pytest.raises(RuntimeError, match="died"):
            asyncio.run(start_and_ask(AsyncKernelManager(kernel_name="python3"), tmp_path))
        ours = logging_kernel_manager(tmp_path / "kernel.log", tmp_path / "kernel.pid")
        seen = asyncio.run(start_and_ask(ours(kernel_name="python3"), tmp_path))
    finally:
        taken.close()
    assert seen["info"]["transport"] == "ipc"


def test_a_runtime_folder_too_long_for_a_socket_gives_way_to_a_temporary_one(
        tmp_path, monkeypatch):
    long_folder = tmp_path / ("r" * (kernel_sockets.MAX_SOCKET_FOLDER + 1))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(long_folder))
    prefix = Path(kernel_sockets.socket_path_prefix())
    assert prefix.is_absolute() and len(str(prefix)) + 2 < 108
    assert long_folder not in prefix.parents
