"""CDVSE: the paper's record (:class:`~milab_widgets.papers.spec.Paper`), registered in
the ``milab_widgets.papers`` entry-point group by the project's pyproject.toml."""

from milab_widgets.papers.spec import Headline, Headlines, Paper

__all__ = ["METHODS", "SPEC"]

SPEC = Paper(
    short="CDVSE",
    setting="one-class",
    authors="Xing Hongjie, Wei Yongle",
    cited_as="Xing & Wei",
    title="Selective ensemble of SVDDs based on correntropy and distance variance",
    venue="Computer Science 43(5): 252-256, 2016",
    doi="10.11896/j.issn.1002-137X.2016.05.047",
    datasets={"uci": ("cancer", "breast_cancer", "cleveland_heart", "diabetes", "flare_solar",
                      "german", "heart", "hepatitis", "housing", "liver", "pima", "sonar",
                      "thyroid"),
              "artificial": ("sine_noise", "square_noise")},
    # The compared methods in the paper's column order, the claimant last.
    vocabulary={"method": {"svdd": "SVDD", "bagging": "Bagging", "adaboost": "AdaBoost",
                           "cdvse": "CDVSE"}},
    notebook="CDVSE.ipynb",
    panel="milab_widgets.widgets.cdvse:CDVSEPanel",
    order=2,
    headlines=Headlines(
        (Headline("table4_test", "Table 4: test g-mean (%), ours beside the paper's"),
         Headline("synthetic", "Figs. 2-3: the artificial sets (g-mean), ours and the paper's"),
         Headline("table3_train", "Table 3: training g-mean (%), ours beside the paper's",
                  collapsed=True),
         Headline("table2_parameters", "Table 2: selected parameters and ensemble size, ours "
                  "and the paper's", collapsed=True)),
        ("table4_test", "fig2_sine_noise")),
    gallery_chart=("table4_test",
                   "Table 4: test G-mean of SVDD and its ensembles"),
    api=("SVDD", "Spheres", "BaggingSVDD", "AdaBoostSVDD", "CDVSESVDD", "g_mean",
         "oneclass.OneClassDataset", "synthetic_oneclass.sine_noise",
         "synthetic_oneclass.square_noise", "CDVSEPanel", "cdvse.run"),
)

#: Every compared method's code -> its name, in the tables' order.
METHODS = SPEC.vocabulary["method"]
