"""Multi-instance learning: bag distances, NCA-tuned integrated Hausdorff, neighbour classifiers."""

from milab_widgets.mil.distances import (
    adapted_distance,
    bag_distances,
    integrated_distance,
    metric_distance,
)
from milab_widgets.mil.nca import (
    golden_section_maximize,
    nca_alpha_curve,
    nca_objective,
    tune_alpha_nca,
)
from milab_widgets.mil.neighbors import BagKNN, CitationKNN

__all__ = [
    "BagKNN",
    "CitationKNN",
    "adapted_distance",
    "bag_distances",
    "golden_section_maximize",
    "integrated_distance",
    "metric_distance",
    "nca_alpha_curve",
    "nca_objective",
    "tune_alpha_nca",
]
