"""Tiny stand-ins for the papers' notebooks, for the runner's tests: each takes the papers'
parameters (quick, seed, output_dir) and runs a few lines, among them a fault to inject."""

from __future__ import annotations

from pathlib import Path

import nbformat

from milab_widgets.papers import PAPERS

#: Drops this cell's execute_reply (and, with DROP_IDLE, its idle status) inside the kernel,
#: once per folder: the fault of issue 20, where the kernel executed a cell but its reply
#: never left it. The marker file makes a re-run of the notebook behave.
LOSE_REPLY = """
import os
kernel = get_ipython().kernel
original_send = kernel.session.send
lose = {"execute_reply"} | ({"idle"} if DROP_IDLE else set())

def send_losing_messages(stream, msg_or_type, content=None, *args, **kwargs):
    kind = msg_or_type if isinstance(msg_or_type, str) else msg_or_type["header"]["msg_type"]
    if kind == "status" and (content or {}).get("execution_state") == "idle":
        kind = "idle"
    if kind in lose:
        lose.discard(kind)
        if not lose:
            kernel.session.send = original_send
        return {"content": {"status": "ok"}, "header": {}}
    return original_send(stream, msg_or_type, content, *args, **kwargs)

if not os.path.exists("reply-lost-once"):
    open("reply-lost-once", "w").close()
    kernel.session.send = send_losing_messages
print("the cell ran")
"""

#: Kills its own kernel the first time, then, on the re-run, reads the cached record.
KILL_KERNEL_ONCE = """
import os, signal
from milab_widgets.evaluation.cache import ResultCache
cache = ResultCache("cache")
record = cache.get_or_compute({"step": 1}, lambda: {"value": 42})
print("cache hits:", cache.hits)
if not os.path.exists("killed-once"):
    open("killed-once", "w").close()
    os.kill(os.getpid(), signal.SIGKILL)
"""


def notebook(*sources: str) -> nbformat.NotebookNode:
    """A python3 notebook: the parameters cell, then one code cell per source."""
    book = nbformat.v4.new_notebook(metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    parameters = nbformat.v4.new_code_cell("quick, seed, output_dir = True, 0, '.'",
                                           metadata={"tags": ["parameters"]})
    book.cells = [parameters, *(nbformat.v4.new_code_cell(source) for source in sources)]
    return book


def write_notebooks(folder: Path, sources_by_paper: dict[str, list[str]]) -> Path:
    """Write each paper's stand-in notebook into ``folder``; returns it (for MILAB_NOTEBOOKS)."""
    folder.mkdir(parents=True, exist_ok=True)
    for paper, sources in sources_by_paper.items():
        nbformat.write(notebook(*sources), folder / PAPERS[paper])
    return folder


def outputs_text(path: Path) -> str:
    """All stream and text outputs of an executed notebook, joined."""
    book = nbformat.read(path, as_version=4)
    return "".join("".join(output.get("text", "")) + output.get("data", {}).get("text/plain", "")
                   for cell in book.cells if cell.cell_type == "code" for output in cell.outputs)


def cell_stdout(cell: dict) -> str:
    """A code cell's standard output, joined: on a loaded machine the kernel may send one
    print as several stream messages, each its own output."""
    return "".join("".join(output["text"]) for output in cell["outputs"]
                   if output["output_type"] == "stream" and output["name"] == "stdout")
