"""TwoViewMIC: the paper's record (:class:`~milab_widgets.papers.spec.Paper`), registered in
the ``milab_widgets.papers`` entry-point group by the project's pyproject.toml."""

from milab_widgets.papers.spec import Headline, Headlines, Paper

__all__ = ["SPEC"]

SPEC = Paper(
    short="TwoViewMIC",
    setting="multi-instance clustering",
    authors="Cai Hao, Liu Bo",
    cited_as="Cai & Liu",
    title="A semi-supervised two-view multiple-instance clustering model",
    venue="Journal of Guangdong University of Technology 38(3): 22-28, 47, 2021",
    doi="10.12052/gdutxb.200120",
    datasets={"tables": ("digits-a", "digits-b")},
    vocabulary={
        # Every compared method in the tables' order; BAMIC-intH is the project's extension.
        "method": {"BAMIC1": "BAMIC1", "BAMIC2": "BAMIC2", "BAMIC3": "BAMIC3",
                   "BAMIC-intH": "BAMIC-intH", "unKer1": "unKer1", "unKer2": "unKer2",
                   "Ker1": "Ker1", "Ker2": "Ker2"},
        "our extension": {"BAMIC-intH": "BAMIC with the integrated Hausdorff distance"},
        "kernel": {"mixture": "Ker1", "minimax": "Ker2"},
    },
    notebook="TwoViewMIC.ipynb",
    panel="milab_widgets.widgets.twoview:TwoViewPanel",
    order=4,
    headlines=Headlines(
        (Headline("paper_comparison", "Best method and its margin (points): the paper's quoted "
                  "ones beside ours (digits-a)"),
         Headline("table1_digits-a", "Table 1: ACC (%) on digits-a"),
         Headline("table2_digits-b", "Table 2: ACC (%) on digits-b")),
        ("table1_digits-a", "fig1_ker1_grid"),
        "The data are scikit-learn's handwritten digits made into two-view bags, a stand-in "
        "for NUS-WIDE; the paper's tables were lost, so only its quoted margins are set "
        "beside ours. Accuracy effects are fractions (0-1)."),
    gallery_chart=("fig1_ker1_grid",
                   "Fig. 1: clustering accuracy over the (alpha, beta) grid"),
    api=("TwoViewMIClustering", "BAMIC", "MinimaxKernel", "MixtureModelKernel",
         "bag_kernel_factors", "bag_kernel_matrices", "clustering_accuracy",
         "synthetic_bags.synthetic_two_view_bags", "image_bags.digits_two_view",
         "image_bags.image_bags", "twoview_files.TwoViewBags",
         "twoview_files.read_two_view_folder", "twoview_files.write_two_view_folder",
         "TwoViewPanel", "twoview.run"),
)
