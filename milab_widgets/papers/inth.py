"""intH: the paper's record (:class:`~milab_widgets.papers.spec.Paper`), registered in
the ``milab_widgets.papers`` entry-point group by the project's pyproject.toml."""

from milab_widgets.papers.spec import Headline, Headlines, Paper

__all__ = ["SPEC"]

SPEC = Paper(
    short="intH",
    setting="multi-instance",
    authors="",
    cited_as="",
    title=('An article on the integrated ("mixed") Hausdorff distance for multi-instance '
           "learning, its weight tuned by NCA and golden-section search (the text we hold "
           "carries no author line or title)"),
    venue="Journal of Shandong University (Engineering Science), 2016",
    datasets={"table3": ("musk1", "musk2", "elephant", "fox", "tiger"),
              "milweb": ("web_recommendation_1",)},
    vocabulary={
        # The bag distances in the paper's table order, with their names in words.
        "distance": {"min": "minH", "max": "maxH", "integrated": "intH", "average": "aveH",
                     "adapted": "adaH"},
        "distance in words": {"min": "minimal", "max": "maximal", "integrated": "integrated",
                              "average": "average", "adapted": "adapted"},
        "classifier": {"citation-knn": "Citation-KNN", "knn": "KNN"},
    },
    notebook="intH.ipynb",
    panel="milab_widgets.widgets.inth:IntHPanel",
    order=1,
    headlines=Headlines(
        (Headline("paper_comparison", "Citation-KNN + minH beside the published accuracy "
                  "(Wang & Zucker 2000), under three protocols"),
         Headline("table3", "Table 3: accuracy (%, mean ± std over the outer folds)"),
         Headline("table4_milweb", "Table 4 (deviation): MILWEB user 1, cross-validated")),
        ("table3", "claims"),
        "The paper's Tables 3-4 values are not in its extracted text: the published "
        "Citation-KNN + minH accuracy is the number set beside ours, and the paper's claims "
        "(rankings between the distances) are tested below."),
    gallery_chart=("table3",
                   "Table 3: Citation-KNN and KNN accuracy with five bag distances"),
    api=("BagDataset", "CitationKNN", "BagKNN", "bag_distances", "integrated_distance",
         "adapted_distance", "metric_distance", "nearest_bags", "tune_alpha_nca",
         "nca_objective", "nca_alpha_curve", "golden_section_maximize", "IntHPanel",
         "inth.run"),
)
