"""`MultiLabelDataset`: a feature matrix, a 0/1 label matrix and an optional fixed split.

Rows are instances. ``X`` is C-contiguous float64 (n x d), ``Y`` int64 in {0, 1} (n x L),
``Y[i, j] == 1`` when instance i carries label j. Benchmarks distributed with a fixed
train/test partition (MULAN's yeast 1500/917, the Yahoo sets' 2000/3000) keep it in
``split``; :meth:`MultiLabelDataset.train_test` returns the two parts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from milab_widgets.data.arrays import as_feature_matrix
from milab_widgets.exceptions import InputError

__all__ = ["MultiLabelDataset", "as_label_matrix"]


class MultiLabelDataset:
    """Instances with several binary labels each.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        Features; converted to C-contiguous float64, must be finite.
    Y : array of shape (n_samples, n_labels)
        Label matrix of 0/1 (bools accepted); converted to int64.
    feature_names, label_names : sequence of str, optional
        Defaults ``f0, f1, ...`` and ``l0, l1, ...``.
    split : (train_idx, test_idx) or None
        A fixed partition of the rows that comes with the benchmark (disjoint int arrays).
    name : str
        A short name shown in tables and panels.

    Examples
    --------
    >>> data = MultiLabelDataset([[0.0], [1.0], [2.0]], [[1, 0], [0, 1], [1, 1]],
    ...                          split=([0, 1], [2]))
    >>> train, test = data.train_test()
    >>> train.n_samples, test.Y.tolist()
    (2, [[1, 1]])

    See Also
    --------
    load_dataset : the registered multi-label sets (yeast, scene, Yahoo, rcv1).
    MLkNN, MFSEF, KernelMDDM : the estimators that read ``X`` and ``Y``.
    """

    def __init__(self, X, Y, feature_names: Sequence[str] | None = None,
                 label_names: Sequence[str] | None = None, split=None, name: str = ""):
        self.X = as_feature_matrix(X, "X")
        self.Y = as_label_matrix(Y, len(self.X), "Y")
        self.feature_names = _names(feature_names, self.X.shape[1], "f", "feature_names")
        self.label_names = _names(label_names, self.Y.shape[1], "l", "label_names")
        self.split = _as_split(split, len(self.X))
        self.name = name

    # -- shape -------------------------------------------------------------------------------
    def __len__(self) -> int:
        return self.X.shape[0]

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    @property
    def n_labels(self) -> int:
        return self.Y.shape[1]

    @property
    def label_cardinality(self) -> float:
        """Mean number of labels per instance."""
        return float(self.Y.sum(axis=1).mean())

    # -- derived datasets --------------------------------------------------------------------
    def __getitem__(self, rows) -> MultiLabelDataset:
        """The rows selected by an int array, a slice or a bool mask (no split kept)."""
        selected = np.arange(len(self))[rows]
        if selected.ndim != 1:
            raise InputError("index a MultiLabelDataset with a slice, a 1-D int array or a mask.")
        return MultiLabelDataset(self.X[selected], self.Y[selected], self.feature_names,
                                 self.label_names, None, self.name)

    def train_test(self) -> tuple[MultiLabelDataset, MultiLabelDataset]:
        """The fixed split's training and test parts.

        Returns
        -------
        train, test : MultiLabelDataset
            The rows of each part.
        """
        if self.split is None:
            raise InputError(
                f"dataset {self.name or 'unnamed'!r} has no fixed train/test split; split it "
                "yourself, e.g. data[train_idx], data[test_idx] with sklearn's KFold."
            )
        train, test = self.split
        return self[train], self[test]

    def select_features(self, columns) -> MultiLabelDataset:
        """The same rows, labels and split with only ``columns``.

        Parameters
        ----------
        columns : array-like of int
            Feature indices, in the order to keep.

        Returns
        -------
        MultiLabelDataset
            A new dataset.
        """
        columns = np.asarray(columns, dtype=np.int64).ravel()
        if columns.size and (columns.min() < 0 or columns.max() >= self.n_features):
            raise InputError(
                f"feature indices must lie in [0, {self.n_features}); got "
                f"{columns.min()}..{columns.max()}."
            )
        names = [self.feature_names[c] for c in columns]
        return MultiLabelDataset(self.X[:, columns], self.Y, names, self.label_names,
                                 self.split, self.name)

    def __repr__(self) -> str:
        split = "" if self.split is None else (
            f", split {len(self.split[0])}/{len(self.split[1])}")
        return (
            f"MultiLabelDataset({self.name or 'unnamed'}: {self.n_samples} samples, "
            f"{self.n_features} features, {self.n_labels} labels, cardinality "
            f"{self.label_cardinality:.2f}{split})"
        )


def as_label_matrix(Y, n_samples: int | None = None, name: str = "Y") -> np.ndarray:
    """``Y`` (dense or scipy.sparse) as an int64 matrix of 0/1 (one row per sample), or an
    InputError."""
    raw = Y.toarray() if hasattr(Y, "toarray") else np.asarray(Y)  # scipy.sparse, lazily
    if raw.ndim != 2:
        raise InputError(
            f"{name} must be a 2-D 0/1 label matrix (samples x labels), got shape {raw.shape}; "
            "for one label use Y.reshape(-1, 1)."
        )
    if n_samples is not None and raw.shape[0] != n_samples:
        raise InputError(f"{name} has {raw.shape[0]} rows but there are {n_samples} samples.")
    if raw.dtype == bool:
        return raw.astype(np.int64)
    if not np.issubdtype(raw.dtype, np.number) or not np.isin(raw, (0, 1)).all():
        values = np.unique(raw)[:6].tolist() if np.issubdtype(raw.dtype, np.number) else raw.dtype
        raise InputError(
            f"{name} must hold only 0 and 1 (got {values}); map a -1/+1 matrix with "
            f"({name} > 0).astype(int)."
        )
    return raw.astype(np.int64)


def _names(names, count: int, prefix: str, what: str) -> list[str]:
    if names is None:
        return [f"{prefix}{j}" for j in range(count)]
    names = [str(n) for n in names]
    if len(names) != count:
        raise InputError(f"{what} has {len(names)} entries for {count} columns.")
    return names


def _as_split(split, n_samples: int):
    if split is None:
        return None
    try:
        train, test = (np.asarray(part, dtype=np.int64).ravel() for part in split)
    except (TypeError, ValueError):
        raise InputError("split must be a pair (train_idx, test_idx) of integer arrays.") from None
    joined = np.concatenate([train, test])
    if joined.size and (joined.min() < 0 or joined.max() >= n_samples):
        raise InputError(f"split indices must lie in [0, {n_samples}).")
    if len(np.unique(joined)) != len(joined):
        raise InputError("split's train and test indices must be distinct (no row twice).")
    return train, test
