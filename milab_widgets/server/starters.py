"""The notebooks the launcher tiles open: the lab, or one paper's panel.

Each is a file in ``milab/`` under the server's root, written the first time its tile is
clicked and reused after that, so that whatever the user saved in it is never overwritten.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

from milab_widgets.exceptions import InputError
from milab_widgets.papers import registered

__all__ = ["FOLDER", "LAB_NOTEBOOK", "starter_notebook", "paper_notebook_source",
           "lab_notebook_source"]

#: Where the tiles' notebooks go, relative to the server's root.
FOLDER = "milab"
LAB_NOTEBOOK = "lab.ipynb"


def starter_notebook(root: Path, kind: str, paper: str | None = None) -> str:
    """The path (relative to ``root``, with "/") of the notebook for ``kind`` "lab" or
    "panel" (with ``paper``), written if it does not exist yet."""
    if kind == "lab":
        name, source = LAB_NOTEBOOK, lab_notebook_source()
    elif kind == "panel":
        name, source = f"{paper}.ipynb", paper_notebook_source(paper)
    else:
        raise InputError(f"kind={kind!r}: use 'lab' or 'panel'.")
    path = Path(root) / FOLDER / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(source, path)
    return f"{FOLDER}/{name}"


def lab_notebook_source() -> nbformat.NotebookNode:
    papers = ", ".join(registered())
    return _notebook(
        f"# The milab lab\n\nOne tab per paper ({papers}); a tab's panel is built the first "
        "time it is opened. The launcher's *Reproduce the papers* tile regenerates the "
        "papers' experiments.",
        "from milab_widgets import lab\n\nlab()")


def paper_notebook_source(paper: str | None) -> nbformat.NotebookNode:
    papers = registered()
    if paper not in papers:
        raise InputError(f"paper={paper!r}: choose one of {', '.join(papers)}.")
    spec = papers[paper]
    module, name = spec.panel_class()
    return _notebook(
        f"# {spec.short}: {spec.title}\n\n{spec.citation()}\n\nThe paper's experiments: "
        f"`milab reproduce {spec.short}` (or the launcher's *Reproduce the papers* tile).",
        f"from {module} import {name}\n\n{name}()")


def _notebook(markdown: str, code: str) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(markdown), nbformat.v4.new_code_cell(code)]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    return notebook
