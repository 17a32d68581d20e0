"""LSkMDDM: the paper's record (:class:`~milab_widgets.papers.spec.Paper`), registered in
the ``milab_widgets.papers`` entry-point group by the project's pyproject.toml."""

from milab_widgets.papers.spec import Headline, Headlines, Paper

__all__ = ["METHODS", "SPEC"]

SPEC = Paper(
    short="LSkMDDM",
    setting="multi-label",
    authors="Qiu Jin (Suzhou University of Science and Technology)",
    cited_as="Qiu",
    title=("Kernel MDDM as a least-squares problem, with ridge (rLSkMDDM) and orthogonal "
           "(OLSkMDDM) variants (the text we hold gives no title)"),
    venue="venue and year not given in the text we hold",
    datasets={"table2": ("scene", "yeast"),
              "fig4": ("arts", "business", "computers", "education"),
              "table7": ("rcv1subset1",)},
    # The compared methods in the tables' order, the claimant (rLSkMDDM) among them.
    vocabulary={"method": {"ML-kNN": "ML-kNN", "KPCA": "KPCA", "KCCA": "KCCA",
                           "LSkMDDM": "LSkMDDM", "rLSkMDDM": "rLSkMDDM",
                           "OLSkMDDM": "OLSkMDDM"}},
    notebook="LSkMDDM.ipynb",
    panel="milab_widgets.widgets.lskmddm:LSkMDDMPanel",
    order=5,
    headlines=Headlines(
        (Headline("fig4_speed", "Fig. 4: time and speed-up over kMDDM (eig) at the largest "
                  "training size, and the angle to the exact solution"),
         Headline("table7_rcv1", "Table 7: RCV1"),
         Headline("table3_4_auc_f1", "Tables 3-4: AUC, macro-F1, micro-F1 on the Yahoo sets",
                  collapsed=True),
         Headline("table5_6_ranking", "Tables 5-6: ranking metrics on the Yahoo sets",
                  collapsed=True)),
        ("fig4_time", "tables3_4", "table2"),
        "The paper's tables were lost in extraction: there are no published numbers to set "
        "ours beside, only the claims its text makes."),
    gallery_chart=("fig1_macroAUC",
                   "Fig. 1: macro AUC against the projected dimension"),
    api=("KernelMDDM", "MDDMRanking", "MLkNN", "average_precision", "coverage", "evaluate",
         "hamming_loss", "macro_auc", "macro_f1", "micro_f1", "one_error", "ranking_loss",
         "multilabel.MultiLabelDataset", "LSkMDDMPanel", "lskmddm.run"),
)

#: The compared methods' codes, in the tables' order.
METHODS = tuple(SPEC.vocabulary["method"])
