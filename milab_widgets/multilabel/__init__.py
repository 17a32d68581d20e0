"""Multi-label learning: ML-kNN, evaluation metrics, information-theoretic and MDDM feature
selection (the MFSEF paper, MFSEF), in scikit-learn style."""

from milab_widgets.multilabel import metrics
from milab_widgets.multilabel.discretize import Discretizer
from milab_widgets.multilabel.kernel_mddm import KernelMDDM
from milab_widgets.multilabel.mddm import MDDMRanking
from milab_widgets.multilabel.mfsef import MFSEF, MFSLS
from milab_widgets.multilabel.mlknn import MLkNN
from milab_widgets.multilabel.pmu import PMU

__all__ = ["MFSEF", "MFSLS", "PMU", "Discretizer", "KernelMDDM", "MDDMRanking", "MLkNN", "metrics"]
