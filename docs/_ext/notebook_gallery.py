"""Sphinx extension: the gallery's notebooks, with static charts, from the committed full run.

Each paper's notebook as executed by ``milab reproduce --all --full --output reports`` lives
in ``reports/<paper>/<paper>.ipynb``. Its Altair charts are Vega-Lite JSON outputs, which a
static page cannot draw without loading Vega's JavaScript. On ``builder-inited`` this
extension copies each notebook to ``docs/gallery/notebooks/`` (ignored by git) and replaces
every Vega-Lite output by an SVG drawn by vl-convert (offline, no JavaScript). Nothing is
re-executed: code cells, their order and their other outputs are kept as they are.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PAPERS = ("intH", "CDVSE", "MFSEF", "TwoViewMIC", "LSkMDDM")
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


def write_gallery(reports: Path, target: Path) -> list[Path]:
    """Copy every paper's executed notebook from ``reports`` into ``target`` with static
    charts; a copy newer than its source is kept. Returns the notebooks written or kept."""
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for paper in PAPERS:
        source = reports / paper / f"{paper}.ipynb"
        if not source.is_file():
            continue
        copy = target / source.name
        if not copy.is_file() or copy.stat().st_mtime < source.stat().st_mtime:
            notebook = static_charts(json.loads(source.read_text(encoding="utf-8")))
            copy.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
        written.append(copy)
    return written


def _on_builder_inited(app) -> None:
    docs = Path(app.srcdir)
    write_gallery(docs.parent / "reports", docs / "gallery" / "notebooks")


def setup(app):
    app.connect("builder-inited", _on_builder_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
