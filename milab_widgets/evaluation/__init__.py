"""Evaluation: metrics, splits, cross-validation protocols, statistics, result cache.

The paper-level scores are imported on first use, so ``import milab_widgets.evaluation``
stays cheap: ``g_mean`` (one-class), ``friedman_test`` and ``nemenyi_cd`` (comparing methods
over datasets), ``clustering_accuracy`` (clusters matched to classes), ``nogueira_stability``
(how much a feature selector's subset changes over resamples).
"""

from milab_widgets.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    "clustering_accuracy": "milab_widgets.evaluation.clustering_scores",
    "friedman_test": "milab_widgets.evaluation.ranking_stats",
    "g_mean": "milab_widgets.evaluation.oneclass_scores",
    "nemenyi_cd": "milab_widgets.evaluation.ranking_stats",
    "nogueira_stability": "milab_widgets.evaluation.selection_stability",
})
