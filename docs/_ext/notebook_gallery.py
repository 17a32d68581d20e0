"""Sphinx extension: the notebook gallery -- a thumbnail grid and the executed notebooks.

Each paper's notebook as executed by ``milab reproduce --all --full --output reports`` lives
in ``reports/<paper>/<paper>.ipynb``. On ``builder-inited`` this extension copies each one
to ``docs/gallery/notebooks/`` (ignored by git), with

* every Vega-Lite output replaced by an SVG drawn by vl-convert (a static page cannot draw
  Vega-Lite without loading Vega's JavaScript);
* the machine's paths removed: papermill records the absolute input and output paths of the
  run (``/home/.../notebooks/intH.ipynb``, ``/home/.../<output>/intH``); they are shown as
  the repository's folders (``notebooks/intH.ipynb``, and ``reports/intH``, where the
  executed notebook is kept whatever ``--output`` the run had), and the notebooks' pointers
  to the English restatement of the paper become links to the paper's page of this site.

Nothing is re-executed: code cells, their order and their other outputs are kept.

The ``milab-gallery`` directive draws the grid of the gallery page: per paper, its main
chart (``MAIN_CHARTS``, the PNG the run saved beside the notebook) as a thumbnail linking to
the rendered notebook, a download of the notebook, and a Binder button when
``milab_binder_repository`` (docs/conf.py) names the repository.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from milab_widgets.papers import registered

#: The papers in the site's order, from their records (milab_widgets.papers).
PAPERS = tuple(registered())
#: Each paper's main chart (reports/<paper>/<name>.png) and what it shows.
MAIN_CHARTS = {short: paper.gallery_chart for short, paper in registered().items()}
#: An absolute path of the machine that ran a notebook, up to the notebooks' folder or a
#: paper's output folder.
MACHINE_PATH = re.compile(
    r"(?<![\w.:/-])(?:/[^\s\"'/\\]+)+?/(?=notebooks/|(?:{})\b)".format("|".join(PAPERS)))
#: The notebooks point to the papers' English restatements, which are not in the repository.
PAPER_NOTE = re.compile(r"`shared/papers/(\w+)\.md`")
VEGALITE = re.compile(r"application/vnd\.vegalite\.v\d+\+json")
SCHEMA_VERSION = re.compile(r"/vega-lite/(v\d+\.\d+)")
SVG = "image/svg+xml"


def chart_svg(spec: dict) -> str:
    """The SVG of a Vega-Lite ``spec``, drawn by the Vega-Lite version its $schema names."""
    import vl_convert

    version = SCHEMA_VERSION.search(spec.get("$schema", ""))
    try:
        return vl_convert.vegalite_to_svg(spec, vl_version=version and version[1])
    except ValueError:  # a version this vl-convert does not bundle: its newest one
        return vl_convert.vegalite_to_svg(spec)


def static_charts(notebook: dict) -> dict:
    """``notebook`` with every Vega-Lite output replaced by its SVG (converted in place)."""
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for mime in [mime for mime in data if VEGALITE.fullmatch(mime)]:
                data.setdefault(SVG, chart_svg(data.pop(mime)))
    return notebook


def without_machine_paths(text: str) -> str:
    """``text`` (a notebook's JSON) with absolute paths shown from the repository's folders
    and the papers' restatements linked to their pages of this site."""
    text = MACHINE_PATH.sub(lambda path: "" if text.startswith("notebooks/", path.end())
                            else "reports/", text)
    return PAPER_NOTE.sub(r"[the paper's page](../../papers/\1.md)", text)


def write_gallery(reports: Path, target: Path) -> list[Path]:
    """Copy every paper's executed notebook from ``reports`` into ``target`` with static
    charts and no machine paths, and its main chart as ``<paper>.png``; a copy newer than
    both its source and this extension is kept. Returns the notebooks written or kept."""
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for paper in PAPERS:
        source = reports / paper / f"{paper}.ipynb"
        if not source.is_file():
            continue
        copy = target / source.name
        newest_input = max(source.stat().st_mtime, Path(__file__).stat().st_mtime)
        if not copy.is_file() or copy.stat().st_mtime < newest_input:
            notebook = static_charts(json.loads(source.read_text(encoding="utf-8")))
            copy.write_text(without_machine_paths(json.dumps(notebook, indent=1)),
                            encoding="utf-8")
        chart = reports / paper / f"{MAIN_CHARTS[paper][0]}.png"
        if chart.is_file():
            shutil.copyfile(chart, target / f"{paper}.png")
        written.append(copy)
    return written


def binder_url(repository: str, branch: str, paper: str) -> str:
    """The Binder address that opens ``notebooks/<paper>.ipynb`` of a GitHub ``repository``
    (``owner/name``) in JupyterLab."""
    return (f"https://mybinder.org/v2/gh/{repository}/{branch}"
            f"?urlpath=lab/tree/notebooks/{paper}.ipynb")


def doc_link(text: str, target: str, docname: str) -> addnodes.pending_xref:
    """A link to the page ``target`` (absolute, ``/gallery/...``), resolved by Sphinx."""
    return addnodes.pending_xref("", nodes.inline(text=text), refdomain="std", reftype="doc",
                                 reftarget=target, refexplicit=True, refdoc=docname)


def gallery_card(paper: str, caption: str, binder: str, docname: str) -> nodes.container:
    """One card of the grid: the thumbnail (a link to the rendered notebook), the title,
    the caption, a download of the notebook and, when ``binder`` is set, a Binder button.

    The nodes are built here rather than parsed from text: the gallery page is MyST, whose
    directives parse their text as Markdown."""
    card = nodes.container(classes=["milab-gallery-card"])
    thumbnail = nodes.reference(refuri=f"notebooks/{paper}.html")
    thumbnail += nodes.image(uri=f"notebooks/{paper}.png", alt=caption)
    card += nodes.paragraph("", "", thumbnail)
    card += nodes.paragraph("", "", doc_link(paper, f"/gallery/notebooks/{paper}", docname))
    card += nodes.paragraph(text=caption)
    actions = nodes.container(classes=["milab-gallery-actions"])
    download = addnodes.download_reference("", "", nodes.inline(text=f"Download {paper}.ipynb"),
                                           reftarget=f"notebooks/{paper}.ipynb",
                                           refdoc=docname, refexplicit=True)
    actions += nodes.paragraph("", "", download)
    if binder:
        actions += nodes.paragraph("", "", nodes.reference(text="Launch on Binder",
                                                           refuri=binder))
    card += actions
    return card


class GalleryDirective(SphinxDirective):
    """``.. milab-gallery::`` -- the grid of the papers whose executed notebook exists."""

    def run(self) -> list[nodes.Node]:
        config = self.env.config
        notebooks = Path(self.env.srcdir) / "gallery" / "notebooks"
        grid = nodes.container(classes=["milab-gallery"])
        for paper in PAPERS:
            if not (notebooks / f"{paper}.ipynb").is_file():
                continue
            binder = config.milab_binder_repository and binder_url(
                config.milab_binder_repository, config.milab_binder_branch, paper)
            grid += gallery_card(paper, MAIN_CHARTS[paper][1], binder, self.env.docname)
        return [grid]


def _on_builder_inited(app) -> None:
    docs = Path(app.srcdir)
    write_gallery(docs.parent / "reports", docs / "gallery" / "notebooks")


def setup(app):
    # "owner/name" of the GitHub repository Binder builds; empty hides the launch buttons.
    app.add_config_value("milab_binder_repository", "", "html", types=[str])
    app.add_config_value("milab_binder_branch", "main", "html", types=[str])
    app.add_directive("milab-gallery", GalleryDirective)
    app.connect("builder-inited", _on_builder_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
