"""Multi-label benchmarks (seeds 001 and 004): registry specs. Filled in by issue 4."""

from __future__ import annotations

from milab_widgets.data.specs import DatasetSpec

MULTILABEL_DATASETS: tuple[DatasetSpec, ...] = ()
