"""Evaluation: metrics, splits, cross-validation protocols, statistics, result cache.

The paper-level scores are imported on first use, so ``import milab_widgets.evaluation``
stays cheap: ``g_mean`` (one-class), ``friedman_test`` and ``nemenyi_cd`` (comparing methods
over datasets), ``clustering_accuracy`` (clusters matched to classes).
"""

from __future__ import annotations

from importlib import import_module

_HOMES = {
    "g_mean": "milab_widgets.evaluation.oneclass_scores",
    "friedman_test": "milab_widgets.evaluation.ranking_stats",
    "nemenyi_cd": "milab_widgets.evaluation.ranking_stats",
    "clustering_accuracy": "milab_widgets.evaluation.clustering_scores",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'milab_widgets.evaluation' has no attribute {name!r}")
    return getattr(import_module(_HOMES[name]), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
