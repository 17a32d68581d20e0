"""Sphinx configuration of the milab-widgets documentation.

Build (warnings are errors): ``python -m sphinx -W -b html docs docs/_build/html``
after ``pip install -e '.[docs]'``.
"""

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "milab-widgets"
author = "the milab-widgets authors"
copyright = "2026, the milab-widgets authors"
release = version = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    # MathJax 3 shipped with the site (copied to _static/mathjax/ after each build), so the
    # formulas render with no network; see mathjax_path below.
    "sphinx-mathjax-offline",
    "numpydoc",
    "myst_nb",
    "notebook_gallery",
    "api_links",
    "optional_pages",
    "plain_docstrings",
    "report_tables",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "papers/*_verdicts.md"]
templates_path = ["_templates"]

# -- API reference ------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# Types in Parameters/Returns link to their pages (numpy's, pandas', scikit-learn's through
# the committed inventories; this package's own classes); words that are not names stay text.
numpydoc_xref_param_type = True
numpydoc_xref_aliases = {
    "ndarray": "numpy.ndarray",
    "DataFrame": "pandas.DataFrame",
    "Series": "pandas.Series",
    "Chart": "altair.Chart",
    "BagDataset": "milab_widgets.data.BagDataset",
    "MultiLabelDataset": "milab_widgets.data.multilabel.MultiLabelDataset",
    "OneClassDataset": "milab_widgets.data.oneclass.OneClassDataset",
    "DatasetSpec": "milab_widgets.data.specs.DatasetSpec",
}
numpydoc_xref_ignore = "all"

# -- Notebooks and MyST -------------------------------------------------------------------
# The gallery shows the notebooks executed by the committed full run (reports/<paper>/);
# they are never re-executed here.
nb_execution_mode = "off"
# Widget views need a live kernel: the static page shows their text form instead (the
# charts' Vega-Lite JSON is replaced by SVG in the gallery's copies: _ext/notebook_gallery.py).
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
myst_dmath_double_inline = True
# myst-nb would load require.js and the ipywidgets HTML manager from CDNs on every page whose
# notebook carries widget state. The widget views are not rendered here (see above), so no
# script is needed, and no page requests anything outside the site.
nb_ipywidgets_js = {}

# -- Cross-references to numpy, scipy, scikit-learn, pandas, Altair, ipywidgets -------------
# intersphinx needs each project's objects.inv. The build machine has no internet (only the
# package registry), and a failed download is a warning, which -W turns into an error. So the
# inventories are read from the committed files docs/_intersphinx/<name>.inv, written from the
# installed packages by docs/_intersphinx/make_inventories.py (none of these packages ships
# its objects.inv); a project without a local inventory is left out (its names show as plain
# code, no warning). With MILAB_DOCS_ONLINE=1 every inventory is downloaded from its site.
INTERSPHINX_SITES = {
    "python": "https://docs.python.org/3",
    "numpy": "https://numpy.org/doc/stable",
    "scipy": "https://docs.scipy.org/doc/scipy",
    "sklearn": "https://scikit-learn.org/stable",
    "pandas": "https://pandas.pydata.org/docs",
    "altair": "https://altair-viz.github.io",
    "ipywidgets": "https://ipywidgets.readthedocs.io/en/stable",
}


def _intersphinx_mapping(online: bool) -> dict:
    mapping = {}
    for name, site in INTERSPHINX_SITES.items():
        local = DOCS / "_intersphinx" / f"{name}.inv"
        if online:
            mapping[name] = (site, None)
        elif local.is_file():
            mapping[name] = (site, str(local))
    return mapping


intersphinx_mapping = _intersphinx_mapping(os.environ.get("MILAB_DOCS_ONLINE") == "1")

# -- Math ---------------------------------------------------------------------------------
# Formulas render with no network: the MathJax 3 files of the sphinx-mathjax-offline package
# (the docs extra) are copied into the build's _static/mathjax/; the page loads them from
# there instead of a CDN. tests/docs/test_docs_offline.py checks no page requests anything
# outside the site.
mathjax_path = "mathjax/tex-chtml.js"

# -- HTML -----------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "milab-widgets"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 5,
}
html_static_path = ["_static"]
html_css_files = ["milab.css"]
html_js_files = ["milab-breaks.js"]
# The landing page is a table of contents itself: no sidebar beside it.
html_sidebars = {"index": []}

# -- Gallery --------------------------------------------------------------------------------
# The GitHub repository ("owner/name") Binder builds the notebooks from. No public address
# is known yet: empty hides every "Launch on Binder" button of the gallery; set it (for
# example "someone/milab-widgets") once the repository is public.
milab_binder_repository = ""
milab_binder_branch = "main"
