"""Multi-instance learning: bag distances, NCA-tuned integrated Hausdorff, nearest bags in
blocks (beyond memory), neighbour classifiers, multi-instance kernels, BAMIC and two-view
multi-instance clustering."""

from milab_widgets.mil.bamic import BAMIC
from milab_widgets.mil.distances import (
    adapted_distance,
    bag_distances,
    integrated_distance,
    metric_distance,
)
from milab_widgets.mil.kernels import (
    MinimaxKernel,
    MixtureModelKernel,
    bag_kernel_factors,
    bag_kernel_matrices,
)
from milab_widgets.mil.nca import (
    golden_section_maximize,
    nca_alpha_curve,
    nca_objective,
    tune_alpha_nca,
)
from milab_widgets.mil.nearest import nearest_bags
from milab_widgets.mil.neighbors import BagKNN, CitationKNN
from milab_widgets.mil.twoview import TwoViewMIClustering

__all__ = [
    "BAMIC",
    "BagKNN",
    "CitationKNN",
    "MinimaxKernel",
    "MixtureModelKernel",
    "TwoViewMIClustering",
    "adapted_distance",
    "bag_distances",
    "bag_kernel_factors",
    "bag_kernel_matrices",
    "golden_section_maximize",
    "integrated_distance",
    "metric_distance",
    "nca_alpha_curve",
    "nca_objective",
    "nearest_bags",
    "tune_alpha_nca",
]
