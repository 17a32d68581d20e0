"""Datasets: containers, the registry of benchmarks, loading, and fetching into the data home.

>>> from milab_widgets.data import load_dataset
>>> load_dataset("musk1")  # doctest: +SKIP
BagDataset(musk1: 92 bags, 476 instances, 166 features, labels {0:45, 1:47})
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from milab_widgets.data.bags import BagDataset
from milab_widgets.data.fetch import fetch
from milab_widgets.data.home import MISSING, data_home, locate, where
from milab_widgets.data.registry import REGISTRY, DatasetSpec, get_spec

__all__ = ["BagDataset", "data_home", "dataset_info", "fetch", "list_datasets", "load_dataset"]

_MIL_COUNT_COLUMNS = ["bags", "instances", "features", "positives", "negatives"]


def load_dataset(name: str) -> BagDataset:
    """Load a registered dataset by name (case-insensitive), from the data home or the
    package that ships it, after checking every file's sha256.

    The result is cached per process (keyed by name and file paths) and shared between
    callers: its arrays are read-only; derive new datasets instead of editing it
    (``dataset.with_instances(...)``, ``dataset[mask]``).

    Raises
    ------
    UnknownDatasetError
        ``name`` is not registered (the message suggests the closest name).
    DatasetUnavailableError
        A file is missing (the message says how to fetch it).
    ChecksumError, DataFormatError
        A file is corrupt.

    Parameters
    ----------
    name : str
        A registered name (``list_datasets()["name"]``), any case.

    Returns
    -------
    BagDataset, OneClassDataset or MultiLabelDataset
        The dataset, by its registry kind.

    See Also
    --------
    list_datasets : what is registered and available.
    fetch : downloads a dataset into the data home.
    dataset_info : the registry entry without loading.

    Examples
    --------
    >>> from milab_widgets.data import load_dataset
    >>> musk1 = load_dataset("musk1")        # shipped by the mil package: no download
    >>> len(musk1), musk1.instances.shape, int(musk1.labels.sum())
    (92, (476, 166), 47)
    """
    spec = get_spec(name)
    return _load(spec.name, tuple(locate(spec)))


@lru_cache(maxsize=16)
def _load(name: str, paths: tuple[Path, ...]) -> BagDataset:
    """Read once per (name, paths); arrays are made read-only because callers share it."""
    dataset = get_spec(name).loader(list(paths), name)
    for array in getattr(dataset, "__dict__", {}).values():
        if isinstance(array, np.ndarray):
            array.flags.writeable = False
    return dataset


def dataset_info(name: str) -> DatasetSpec:
    """The registry entry for ``name``: files, source, citation, description, counts.

    Parameters
    ----------
    name : str
        A registered name, any case.

    Returns
    -------
    DatasetSpec
        Files, source, citation, description and recorded counts.

    See Also
    --------
    list_datasets : every entry as a table.
    load_dataset : reads the data.

    Examples
    --------
    >>> from milab_widgets.data import dataset_info
    >>> spec = dataset_info("Musk1")
    >>> spec.kind, spec.counts["bags"]
    ('mil', 92)
    """
    return get_spec(name)


def list_datasets() -> pd.DataFrame:
    """One row per registered dataset, from the recorded counts (nothing is loaded).

    Columns: name, kind, bags, instances, features, positives, negatives (nullable
    integers; other kinds' count columns follow), available (all files present), where
    ("data home", "package" or "missing"; presence only, sha256 is checked on load),
    source (URL).

    Returns
    -------
    DataFrame
        One row per dataset, in registry order.

    See Also
    --------
    load_dataset : reads one.
    fetch : downloads the missing ones (``milab fetch NAME``).

    Examples
    --------
    >>> from milab_widgets.data import list_datasets
    >>> table = list_datasets()
    >>> musk1 = table.set_index("name").loc["musk1"]
    >>> musk1["kind"], int(musk1["bags"]), bool(musk1["available"])
    ('mil', 92, True)
    """
    specs = list(REGISTRY.values())
    counts = pd.DataFrame([dict(spec.counts) for spec in specs], index=range(len(specs)))
    count_columns = list(dict.fromkeys(_MIL_COUNT_COLUMNS + list(counts.columns)))
    origins = [where(spec) for spec in specs]
    return pd.concat(
        [
            pd.DataFrame({"name": [s.name for s in specs], "kind": [s.kind for s in specs]}),
            counts.reindex(columns=count_columns).astype("Int64"),
            pd.DataFrame(
                {
                    "available": [origin != MISSING for origin in origins],
                    "where": origins,
                    "source": [spec.source_url for spec in specs],
                }
            ),
        ],
        axis=1,
    )
