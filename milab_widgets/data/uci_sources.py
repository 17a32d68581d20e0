"""One-class UCI benchmarks (seed 002, Table 1): registry specs. Filled in by issue 3."""

from __future__ import annotations

from milab_widgets.data.specs import DatasetSpec

ONECLASS_DATASETS: tuple[DatasetSpec, ...] = ()
