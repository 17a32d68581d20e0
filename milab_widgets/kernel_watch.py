"""The watchdog on a notebook's kernel: every wait for a kernel message has a deadline and a
recovery, so a lost message never turns into a run that waits forever.

Why (issue 20, measured with ``benchmarks/soak_reproduce.py``): papermill's client
(nbclient) waited for each cell's ``execute_reply`` with an unbounded poll on the shell
socket, and sometimes never woke up. Recorded at every stall: the kernel had run the cell
and gone idle (its idle status had arrived on iopub; a second client gets an answer at
once), the reply was *in the client's shell socket* (``ZMQ_EVENTS`` has ``POLLIN``), the
socket's descriptor was registered with the client's event loop and in its epoll interest
list -- and epoll never reported it. A zmq socket's descriptor is edge-triggered: it signals
a change once, and any operation on the socket can consume that signal. nbclient performs
such an operation at the worst moment: it echoes every output captured by an ipywidgets
``Output`` widget back to the kernel as a ``comm_msg`` sent on the shell socket, from the
iopub handler, while the reply is awaited on that socket. The kernel's TCP counters show
it (it received that message 4 to 24 ms after sending the reply). Cells that only write to
an Output widget stall the same way with no paper code at all, under ipykernel 7.4 and 6.31
alike; two notebooks in threads of one process (the old `milab reproduce`) make it frequent.

So, here:

* Output widgets are not echoed to the kernel (:class:`LocalOutputWidget`): the executed
  notebook keeps their outputs, and nothing is sent on the shell socket during a cell;
* replies and iopub messages are awaited in slices of :attr:`poll_seconds`, never with an
  unbounded poll, so a wake-up lost for any other reason is caught at the next slice (and
  recorded as a "late reply");
* when the kernel's process has used no CPU for :attr:`probe_after` seconds while a cell
  waits for its reply, a second client asks the kernel for ``kernel_info``. A kernel whose
  main thread is still executing the cell cannot answer (the request queues behind the cell),
  so an answer proves the cell finished and its reply was lost;
* a lost reply is then recovered: when the cell's iopub stream ended (its idle status
  arrived, so every output is in the notebook) the reply is rebuilt from what iopub said
  (status and error from the error output, if any); otherwise :class:`LostReplyError` is
  raised, and the runner restarts the kernel and re-runs the notebook (results come from
  the on-disk cache, so finished work is not redone).

Every intervention is appended as one JSON line to :attr:`event_log`, with the evidence:
what was missing, whether the client's socket held unread data, and py-spy dumps of the
kernel and the client when py-spy is installed.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from queue import Empty

import zmq
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError
from nbclient.output_widget import OutputWidget
from papermill.clientwrap import PapermillNotebookClient
from papermill.engines import NBClientEngine, papermill_engines
from traitlets import Float, Unicode, default

from milab_widgets.kernel_sockets import UnixSocketKernelManager

__all__ = [
    "LostReplyError", "LocalOutputWidget", "WatchedNotebookClient", "KernelIdleClock",
    "kernel_answers", "rebuilt_reply", "cell_index_of", "WatchedEngine",
]

#: The papermill engine name under which :class:`WatchedEngine` is registered.
ENGINE_NAME = "milab-watched"

#: Seconds of kernel CPU idleness, while a cell waits for its reply, before the kernel is
#: asked whether it finished (default 30).
PROBE_VARIABLE = "MILAB_KERNEL_PROBE_SECONDS"


class LostReplyError(RuntimeError):
    """The kernel finished a cell, but neither its reply nor its idle status arrived, so
    the cell's outputs may be incomplete: the notebook must be run again."""


class LocalOutputWidget(OutputWidget):
    """nbclient's stand-in for the front end of an ipywidgets ``Output`` widget, keeping
    the widget's outputs in the executed notebook but not echoing them to the kernel.

    nbclient answers every output captured by an Output widget with a ``comm_msg``
    "update" sent on the shell socket -- from the iopub handler, while the cell's
    ``execute_reply`` is awaited on that same socket. That send can consume the socket's
    edge-triggered wake-up: the reply then sits unread in the socket and an unbounded wait
    never ends (issue 20; ``benchmarks/soak_reproduce.py --cells output-widget`` stalls
    with no paper code at all). No kernel code of this project reads an Output widget's
    ``outputs`` back, so a batch run has no use for the echo.
    """

    def sync_state(self) -> None:
        """The notebook's widget state is updated by the caller; nothing goes to the kernel."""


class WatchedNotebookClient(PapermillNotebookClient):
    """papermill's notebook client with every wait bounded (see the module docstring)."""


    poll_seconds = Float(2.0, help="longest single wait on a kernel socket").tag(config=True)
    probe_after = Float(help="kernel CPU idle this long -> ask it (default 30 s, or "
                              "$MILAB_KERNEL_PROBE_SECONDS)").tag(config=True)
    probe_timeout = Float(10.0, help="seconds a probed kernel has to answer").tag(config=True)
    final_reply_timeout = Float(120.0, help="deadline of replies outside cells").tag(config=True)
    event_log = Unicode("", help="JSON-lines file of the watchdog's interventions").tag(
        config=True)

    @default("probe_after")
    def _probe_after_default(self) -> float:
        return float(os.environ.get(PROBE_VARIABLE, 30.0))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._cell_done = None
        self.widget_registry = {"@jupyter-widgets/output": {"OutputModel": LocalOutputWidget}}

    # -- waiting for a cell's reply ----------------------------------------------------------
    async def _async_poll_for_reply(self, msg_id, cell, timeout, task_poll_output_msg,
                                    task_poll_kernel_alive):
        self._cell_done = task_poll_output_msg
        deadline = None if timeout is None else time.monotonic() + timeout
        idle = KernelIdleClock(self.kernel_pid())
        while True:
            try:
                msg = await self.kc.shell_channel.get_msg(timeout=self.poll_seconds)
            except Empty:
                if deadline is not None and time.monotonic() > deadline:
                    await self._async_check_alive()
                    await self._async_handle_timeout(timeout, cell)
                msg = await self._recover_if_lost(msg_id, cell, idle)
                if msg is None:
                    continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            self._note_if_late(msg, cell)
            try:
                await asyncio.wait_for(task_poll_output_msg, self.iopub_timeout)
            except (TimeoutError, Empty):
                task_poll_kernel_alive.cancel()
                raise CellTimeoutError.error_from_timeout_and_cell(
                    "Timeout waiting for IOPub output", self.iopub_timeout, cell) from None
            task_poll_kernel_alive.cancel()
            return msg

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        from nbclient.exceptions import CellExecutionComplete

        while True:
            try:
                msg = await self.kc.iopub_channel.get_msg(timeout=self.poll_seconds)
            except Empty:
                continue
            if msg["parent_header"].get("msg_id") == parent_msg_id:
                try:
                    self.process_message(msg, cell, cell_index)
                except CellExecutionComplete:
                    return

    async def async_wait_for_reply(self, msg_id, cell=None):
        """nbclient's wait, bounded by :attr:`final_reply_timeout` outside cells (the
        ``kernel_info`` papermill asks for after the last cell would otherwise wait
        forever for a lost reply)."""
        if cell is not None or self.timeout:
            return await super().async_wait_for_reply(msg_id, cell)
        try:
            return await asyncio.wait_for(super().async_wait_for_reply(msg_id, cell),
                                          self.final_reply_timeout)
        except TimeoutError:
            raise LostReplyError(
                f"no reply to a request outside the cells within {self.final_reply_timeout:.0f} s"
            ) from None

    # nbclient binds the blocking wrapper to its own coroutine: rebind it to the override
    wait_for_reply = run_sync(async_wait_for_reply)

    # -- recovery ------------------------------------------------------------------------------
    async def _recover_if_lost(self, msg_id, cell, idle: KernelIdleClock):
        """None while the kernel may still be working on the cell; else the recovered reply
        (or LostReplyError when the outputs may be incomplete)."""
        if idle.seconds() < self.probe_after:
            return None
        socket_held_data = bool(self.kc.shell_channel.socket.getsockopt(zmq.EVENTS) & zmq.POLLIN)
        # run_in_executor, not to_thread: the probe's blocking client must not inherit this
        # loop through the copied context (jupyter_core keeps the loop in a ContextVar)
        answered = await asyncio.get_running_loop().run_in_executor(
            None, kernel_answers, self.km.connection_file, self.probe_timeout)
        idle.restart()
        if not answered:
            return None  # the main thread is busy: the cell is still running
        try:  # a reply that a new connection to the kernel released?
            msg = await self.kc.shell_channel.get_msg(timeout=self.poll_seconds)
            if msg["parent_header"].get("msg_id") == msg_id:
                self._record("reply released by a second connection", cell, msg_id)
                return msg
        except Empty:
            pass
        outputs_complete = self._cell_done is not None and self._cell_done.done()
        self._record("execute_reply lost", cell, msg_id, outputs_complete=outputs_complete,
                     client_socket_held_unread_data=socket_held_data,
                     dumps=self._dump_stacks(cell))
        if not outputs_complete:
            raise LostReplyError(
                f"the kernel finished cell {cell_index_of(self.nb, cell)} but neither its reply "
                "nor its idle status arrived; its outputs may be incomplete")
        return rebuilt_reply(msg_id, cell)

    def _note_if_late(self, msg, cell) -> None:
        sent = msg["header"].get("date")
        if not isinstance(sent, datetime):
            return
        lag = (datetime.now(UTC) - sent).total_seconds()
        if lag > self.poll_seconds + 1.0:
            self._record("late reply (the client's socket missed a wake-up)", cell,
                         msg["parent_header"].get("msg_id"), seconds_late=round(lag, 2))

    # -- evidence --------------------------------------------------------------------------------
    def kernel_pid(self) -> int | None:
        process = getattr(getattr(self.km, "provisioner", None), "process", None)
        return getattr(process, "pid", None)

    def _record(self, what: str, cell, msg_id, **details) -> None:
        event = {"event": what, "cell": cell_index_of(self.nb, cell), "msg_id": msg_id,
                 "time": datetime.now(UTC).isoformat(timespec="seconds"),
                 "cell_source": cell.source[:120], **details}
        self.log.warning("watchdog: %s", json.dumps(event))
        if self.event_log:
            with open(self.event_log, "a") as stream:
                stream.write(json.dumps(event) + "\n")

    def _dump_stacks(self, cell) -> list[str]:
        """py-spy dumps of the kernel and of this process beside the event log (if py-spy
        is installed); returns the files written."""
        spy = shutil.which("py-spy")
        if not spy or not self.event_log:
            return []
        folder = Path(self.event_log).parent
        stamp = datetime.now(UTC).strftime("%H%M%S")
        written = []
        for name, pid in (("kernel", self.kernel_pid()), ("client", os.getpid())):
            if pid is None:
                continue
            path = folder / f"stall-{stamp}-cell{cell_index_of(self.nb, cell)}-{name}.txt"
            dump = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True,
                                  text=True, timeout=60, check=False)
            path.write_text(dump.stdout + dump.stderr)
            written.append(path.name)
        return written


class KernelIdleClock:
    """Seconds since the kernel process last used CPU (read from /proc through psutil; a
    kernel whose CPU time cannot be read counts as busy, so it is never probed)."""

    def __init__(self, pid: int | None):
        self.pid = pid
        self.restart()

    def restart(self) -> None:
        self.cpu, self.since = self._cpu(), time.monotonic()

    def seconds(self) -> float:
        cpu = self._cpu()
        if cpu is None or cpu != self.cpu:
            self.cpu, self.since = cpu, time.monotonic()
            return 0.0
        return time.monotonic() - self.since

    def _cpu(self) -> float | None:
        import psutil

        try:
            times = psutil.Process(self.pid).cpu_times()
        except (psutil.Error, ValueError, TypeError):
            return None
        return round(times.user + times.system, 2)


def kernel_answers(connection_file: str, timeout: float) -> bool:
    """Whether the kernel's main thread answers a second client's ``kernel_info`` within
    ``timeout`` seconds (it cannot while it executes a cell)."""
    from jupyter_client import BlockingKernelClient

    probe = BlockingKernelClient(connection_file=connection_file)
    probe.load_connection_file()
    probe.start_channels(iopub=False, stdin=False, hb=False, control=False)
    try:
        probe.kernel_info(reply=True, timeout=timeout)
        return True
    except (TimeoutError, Empty):
        return False
    finally:
        probe.stop_channels()


def rebuilt_reply(msg_id: str, cell) -> dict:
    """The execute_reply of a finished cell, rebuilt from its outputs (iopub delivered all
    of them, idle included): an error output makes it an error reply, as the kernel's was."""
    error = next((out for out in cell.get("outputs", []) if out.get("output_type") == "error"),
                 None)
    content = {"status": "ok", "execution_count": cell.get("execution_count")}
    if error is not None:
        content.update(status="error", ename=error["ename"], evalue=error["evalue"],
                       traceback=error.get("traceback", []))
    return {"parent_header": {"msg_id": msg_id}, "content": content, "metadata": {},
            "header": {"msg_type": "execute_reply", "date": datetime.now(UTC)},
            "msg_type": "execute_reply"}


def cell_index_of(notebook, cell) -> int | None:
    return next((i for i, candidate in enumerate(notebook.cells) if candidate is cell), None)


class WatchedEngine(NBClientEngine):
    """papermill's nbclient engine, executing with :class:`WatchedNotebookClient`."""

    @classmethod
    def execute_managed_notebook(cls, nb_man, kernel_name, log_output=False, stdout_file=None,
                                 stderr_file=None, start_timeout=60, execution_timeout=None,
                                 **kwargs):
        from papermill.log import logger

        kwargs = {key: value for key, value in kwargs.items()
                  if key not in ("input_path", "timeout", "startup_timeout")}
        kwargs.setdefault("kernel_manager_class", UnixSocketKernelManager)
        client = WatchedNotebookClient(
            nb_man, timeout=execution_timeout, startup_timeout=start_timeout,
            kernel_name=kernel_name, log=logger, log_output=log_output,
            stdout_file=stdout_file, stderr_file=stderr_file, **kwargs)
        return client.execute()


papermill_engines.register(ENGINE_NAME, WatchedEngine)
