"""The documentation builds with warnings as errors, and names papers, not file numbers.

The build is the one command of docs/conf.py, ``python -m sphinx -W -b html docs <out>``,
run once per session into a temporary folder (the ``built_docs`` fixture of conftest.py). It
needs the ``docs`` extra (``pip install -e '.[docs]'``) and is skipped, with that reason,
where it is not installed.
"""

import re
from pathlib import Path

import pytest

from milab_widgets.papers import PAPERS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
INTERNAL_NUMBER = re.compile(r"\bseeds? ?0\d\d\b|\bseed's\b|\bthe seeds?\b", re.IGNORECASE)


def written_pages() -> list[Path]:
    """The Markdown pages of the site (not the files generated at build time)."""
    generated = (DOCS / "_build", DOCS / "api" / "generated", DOCS / "gallery" / "notebooks")
    return [page for page in DOCS.rglob("*.md")
            if not any(page.is_relative_to(folder) for folder in generated)]


def test_pages_name_papers_not_internal_file_numbers():
    offending = [f"{page.relative_to(ROOT)}:{number}: {line.strip()}"
                 for page in written_pages()
                 for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
                 if INTERNAL_NUMBER.search(line)]
    assert not offending, "name the paper (authors, title, venue, year):\n" + "\n".join(offending)


@pytest.mark.slow
def test_the_documentation_builds_with_warnings_as_errors(built_docs):
    out, build = built_docs.out, built_docs.process
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-6000:]
    for page in ("index", "getting-started", "guide/multi-instance", "guide/one-class",
                 "guide/multi-label", "datasets", "scale-out", "citing", "api/index",
                 "papers/index", "papers/intH", "papers/CDVSE", "papers/MFSEF",
                 "papers/TwoViewMIC", "papers/LSkMDDM", "gallery/index"):
        assert (out / f"{page}.html").is_file(), page
    api = (out / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("mil.CitationKNN", "mil.TwoViewMIClustering", "oneclass.CDVSESVDD",
                 "multilabel.KernelMDDM", "multilabel.MFSEF", "experiments.inth.run"):
        assert (out / "api" / "generated" / f"milab_widgets.{name}.html").is_file(), name
        assert f"milab_widgets.{name}.html" in api, name
    # The gallery shows the committed notebooks with their charts drawn as SVG.
    gallery = (out / "gallery" / "notebooks" / "intH.html").read_text(encoding="utf-8")
    assert ".svg" in gallery
    # The gallery's grid: per paper a thumbnail linking to the rendered notebook and a
    # download of the notebook (a copy without machine paths); no Binder button while
    # milab_binder_repository is empty.
    index = (out / "gallery" / "index.html").read_text(encoding="utf-8")
    for paper in PAPERS:
        assert f'href="notebooks/{paper}.html"><img' in index, paper
        download = re.search(rf'href="../(_downloads/\w+/{paper}\.ipynb)"><span>Download', index)
        assert download and (out / download[1]).is_file(), paper
        assert "/work/" not in (out / download[1]).read_text(encoding="utf-8"), paper
    assert 'href="https://mybinder.org' not in index  # no launch link (the text may name it)
