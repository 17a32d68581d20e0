"""The fixture paper's record: everything milab-widgets needs to know of it."""

from milab_widgets.papers.spec import Headline, Headlines, Paper

__all__ = ["SPEC"]

SPEC = Paper(
    short="Sixth",
    setting="classification",
    authors="A. Fixture",
    cited_as="Fixture",
    title="Nearest centroids beat the majority class (a plugin fixture)",
    venue="milab-widgets test suite, 2026",
    notebook="Sixth.ipynb",
    notebook_package="sixth_paper",
    panel="sixth_paper.panel:SixthPanel",
    order=6,
    headlines=Headlines((Headline("scores", "Accuracy per fold"),), ("scores",)),
    gallery_chart=("scores", "Accuracy per fold"),
)
