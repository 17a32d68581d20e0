"""MFSEF: the paper's record (:class:`~milab_widgets.papers.spec.Paper`), registered in
the ``milab_widgets.papers`` entry-point group by the project's pyproject.toml."""

from milab_widgets.papers.spec import Headline, Headlines, Paper

__all__ = ["METHODS", "METRIC_NAMES", "SPEC", "TABLE_METRICS"]

SPEC = Paper(
    short="MFSEF",
    setting="multi-label",
    authors="Cheng Yusheng, Song Fan, Wang Yibin, Qian Kun",
    cited_as="Cheng, Song, Wang & Qian",
    title=("Multi-label feature selection algorithm based on conditional mutual information of"
           " expert feature"),
    venue="Journal of Computer Applications 40(2): 503-509, 2020",
    doi="10.11772/j.issn.1001-9081.2019091626",
    datasets={"tables": ("entertainment", "recreation", "arts", "reference", "health",
                         "business", "computers")},
    vocabulary={
        # The tables' columns, in the paper's order (the codes are the names).
        "method": {"Original": "Original", "MDDMspc": "MDDMspc", "MDDMproj": "MDDMproj",
                   "PMU": "PMU", "MFSLS": "MFSLS", "MFSEF": "MFSEF"},
        # The four table metrics, in the paper's order (Tables 2-5), then the others measured.
        "metric": {"AP": "Average precision", "HL": "Hamming loss", "RL": "Ranking loss",
                   "OE": "One-error"},
        "other metric": {"CV": "Coverage", "macroF1": "Macro-F1", "microF1": "Micro-F1",
                         "macroAUC": "Macro-AUC"},
    },
    notebook="MFSEF.ipynb",
    panel="milab_widgets.widgets.mfsef:MFSEFPanel",
    order=3,
    headlines=Headlines(
        (Headline("paper_comparison", "Rank of MFSEF per dataset and metric: the paper's and "
                  "ours (Tables 2-5, 10 % of the features)"),
         Headline("summary", "Average ranks over the datasets, Friedman test and Nemenyi CD",
                  collapsed=True),
         Headline("table2_AP", "Table 2: average precision (rank)", collapsed=True),
         Headline("table3_HL", "Table 3: Hamming loss (rank)", collapsed=True),
         Headline("table4_RL", "Table 4: ranking loss (rank)", collapsed=True),
         Headline("table5_OE", "Table 5: one-error (rank)", collapsed=True)),
        ("fig5_cd_diagrams", "ranks_by_size")),
    gallery_chart=("fig4_arts",
                   "Fig. 4: ML-kNN quality against the number of features kept"),
    api=("MFSEF", "MFSLS", "PMU", "Discretizer", "MLkNN", "friedman_test", "nemenyi_cd",
         "multilabel.MultiLabelDataset", "MFSEFPanel", "mfsef.run"),
)

#: The tables' methods, in the paper's order ("Original" is all features, no selection).
METHODS = tuple(SPEC.vocabulary["method"])
#: The four metrics of Tables 2-5, in the paper's order.
TABLE_METRICS = tuple(SPEC.vocabulary["metric"])
#: Every measured metric's code -> its name.
METRIC_NAMES = {**SPEC.vocabulary["metric"], **SPEC.vocabulary["other metric"]}
