"""Sphinx extension: links between the API pages, the user guide, the papers and the gallery.

Every API page (docs/_templates/autosummary/*.rst) starts with ``.. milab-api-links::
<full name>``, which draws, as scikit-learn's pages do:

* "User guide": the guide section that explains the object (``GUIDE``, a label placed
  before that section's heading in docs/guide/*.md, or a page);
* "Paper": the page of the paper whose algorithm or experiment the object implements
  (``PAPER_API``);
* "Examples using this": the gallery's rendered notebook of that paper, and of every other
  paper whose notebook names the object in its cells (notebooks/<paper>.ipynb);
* on a class page, a summary table of its public methods (those defined in this package,
  inherited ones included; scikit-learn's own, such as ``get_params``, are left out).

``.. milab-paper-api:: <paper>`` lists, on a paper's page, the API pages of that paper's
objects -- the same table read the other way round.
"""

from __future__ import annotations

import importlib
import inspect
import re
from functools import cache
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from milab_widgets.papers import registered

#: The papers' objects by their names in docs/api/index.md (the part after the subpackage),
#: from the papers' records (``Paper.api``; milab_widgets.papers).
PAPER_API = {short: paper.api for short, paper in registered().items()}

#: Where the user guide explains an object: a label (``ref:``) or a page (``doc:``).
GUIDE = {
    "ref:guide-mil-bags": ("BagDataset",),
    "ref:guide-mil-distances": ("bag_distances", "integrated_distance", "adapted_distance",
                                "metric_distance", "nearest_bags"),
    "ref:guide-mil-nca": ("tune_alpha_nca", "nca_objective", "nca_alpha_curve",
                          "golden_section_maximize"),
    "ref:guide-mil-classifiers": ("CitationKNN", "BagKNN"),
    "ref:guide-mil-clustering": ("TwoViewMIClustering", "BAMIC", "MinimaxKernel",
                                 "MixtureModelKernel", "bag_kernel_factors",
                                 "bag_kernel_matrices", "clustering_accuracy"),
    "ref:guide-oc-svdd": ("SVDD", "Spheres", "synthetic_oneclass.sine_noise",
                          "synthetic_oneclass.square_noise", "oneclass.OneClassDataset"),
    "ref:guide-oc-ensembles": ("BaggingSVDD", "AdaBoostSVDD", "CDVSESVDD"),
    "ref:guide-oc-selection": ("g_mean",),
    "ref:guide-ml-data": ("multilabel.MultiLabelDataset", "average_precision", "coverage",
                          "evaluate", "hamming_loss", "macro_auc", "macro_f1", "micro_f1",
                          "one_error", "ranking_loss", "LOWER_IS_BETTER", "METRICS"),
    "ref:guide-ml-mlknn": ("MLkNN",),
    "ref:guide-ml-selection": ("MFSEF", "MFSLS", "PMU", "Discretizer", "MDDMRanking",
                               "friedman_test", "nemenyi_cd"),
    "ref:guide-ml-mddm": ("KernelMDDM",),
    "doc:/datasets": ("data_home", "dataset_info", "fetch", "list_datasets", "load_dataset",
                      "specs.DatasetSpec", "specs.DataFile", "synthetic_bags.synthetic_two_view_bags",
                      "image_bags.digits_two_view", "image_bags.image_bags",
                      "twoview_files.TwoViewBags", "twoview_files.read_two_view_folder",
                      "twoview_files.write_two_view_folder"),
    "doc:/lab": ("lab", "Panel", "IntHPanel", "CDVSEPanel", "MFSEFPanel", "TwoViewPanel",
                 "LSkMDDMPanel", "Lab"),
    "doc:/getting-started": ("inth.run", "cdvse.run", "mfsef.run", "twoview.run",
                             "lskmddm.run"),
}

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def short_names(full_name: str) -> list[str]:
    """The keys ``full_name`` may have in the tables: its last two parts, then its last."""
    parts = full_name.split(".")
    return [".".join(parts[-2:]), parts[-1]]


def lookup(table: dict[str, tuple[str, ...]], full_name: str) -> list[str]:
    """The keys of ``table`` whose names include ``full_name``."""
    keys = short_names(full_name)
    return [where for where, names in table.items() if any(key in names for key in keys)]


@cache
def notebook_text(paper: str) -> str:
    path = NOTEBOOKS / f"{paper}.ipynb"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def example_papers(full_name: str) -> list[str]:
    """The papers whose notebook uses ``full_name``: its own paper, and every notebook that
    names it."""
    name = full_name.rsplit(".", 1)[-1]
    own = lookup(PAPER_API, full_name)
    named = [paper for paper in PAPER_API
             if name != "run" and re.search(rf"\b{re.escape(name)}\b", notebook_text(paper))]
    return list(dict.fromkeys(own + named))


def guide_link(where: str) -> str:
    kind, target = where.split(":", 1)
    return f":ref:`{target}`" if kind == "ref" else f":doc:`{target}`"


def public_methods(cls: type) -> list[str]:
    """Public methods of ``cls`` defined in this package (its own and inherited)."""
    methods = []
    for name, member in inspect.getmembers(cls):
        owner = next((klass for klass in cls.__mro__ if name in vars(klass)), None)
        # scikit-learn attaches set_*_request (metadata routing) to every estimator class.
        routing = name.startswith("set_") and name.endswith("_request")
        if (not name.startswith("_") and not routing and callable(member)
                and owner is not None and owner.__module__.startswith("milab_widgets")):
            methods.append(name)
    return methods


def resolve(full_name: str):
    """The object named ``full_name`` (module path, then attributes)."""
    module_name, attributes = full_name, []
    while module_name:
        try:
            target = importlib.import_module(module_name)
            break
        except ModuleNotFoundError:
            module_name, _, attribute = module_name.rpartition(".")
            attributes.insert(0, attribute)
    for attribute in attributes:
        target = getattr(target, attribute)
    return target


def links_lines(full_name: str, current_module: str = "") -> list[str]:
    """The reStructuredText of an API page's links and methods table (methods named from
    ``current_module``, the page's ``currentmodule``)."""
    links = []
    guides = lookup(GUIDE, full_name)
    if guides:
        links += ["   **User guide:** " + ", ".join(guide_link(g) for g in guides), ""]
    papers = lookup(PAPER_API, full_name)
    if papers:
        links += ["   **Paper:** " + ", ".join(f":doc:`/papers/{p}`" for p in papers), ""]
    examples = example_papers(full_name)
    if examples:
        links += ["   **Examples using this:** " + ", ".join(
            f":doc:`{p} notebook </gallery/notebooks/{p}>`" for p in examples), ""]
    lines = [".. container:: milab-api-links", "", *links] if links else []
    target = resolve(full_name)
    if inspect.isclass(target) and (methods := public_methods(target)):
        lines += [".. rubric:: Methods", "", ".. autosummary::", "   :nosignatures:", ""]
        relative = full_name.removeprefix(current_module + ".") if current_module else full_name
        lines += [f"   ~{relative}.{method}" for method in methods]
        lines.append("")
    return lines


class ApiLinks(SphinxDirective):
    """``.. milab-api-links:: milab_widgets.mil.CitationKNN``"""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        lines = links_lines(self.arguments[0], self.env.ref_context.get("py:module", ""))
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="milab-api-links"),
                                self.content_offset, container)
        return container.children


class PaperApi(SphinxDirective):
    """``.. milab-paper-api:: intH`` -- the API pages of one paper's objects.

    Paper pages are MyST, whose directives parse text as Markdown: the links are built as
    nodes (``pending_xref``, resolved by Sphinx like ``:obj:``)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        paper = self.arguments[0]
        if paper not in PAPER_API:
            raise self.error(f"unknown paper {paper!r}; one of {', '.join(PAPER_API)}")
        documented = api_pages(Path(self.env.srcdir))
        paragraph = nodes.paragraph("", "", nodes.strong(text="In the API reference: "))
        for name in PAPER_API[paper]:
            full = next(full for full in documented if full.endswith("." + name))
            if len(paragraph) > 1:
                paragraph += nodes.Text(", ")
            paragraph += addnodes.pending_xref(
                "", nodes.literal(text=name.rsplit(".", 1)[-1]), refdomain="py", reftype="obj",
                reftarget=full, refexplicit=True, refdoc=self.env.docname)
        return [nodes.container("", paragraph, classes=["milab-api-links"])]


def api_pages(srcdir: Path) -> list[str]:
    """The full names listed in docs/api/index.md (``currentmodule`` + entry)."""
    names, module = [], None
    for line in (srcdir / "api" / "index.md").read_text(encoding="utf-8").splitlines():
        if current := re.match(r"\.\. currentmodule:: (\S+)", line):
            module = current[1]
        elif (entry := re.match(r" {3}([A-Za-z_][\w.]*)$", line)) and module:
            names.append(f"{module}.{entry[1]}")
    return names


def setup(app):
    app.add_directive("milab-api-links", ApiLinks)
    app.add_directive("milab-paper-api", PaperApi)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
