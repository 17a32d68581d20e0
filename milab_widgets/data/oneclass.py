"""`OneClassDataset`: samples labelled normal (+1) or outlier (-1), for one-class learning."""

from __future__ import annotations

import numpy as np

from milab_widgets.data.arrays import as_feature_matrix, as_oneclass_labels
from milab_widgets.exceptions import InputError

__all__ = ["OneClassDataset"]


class OneClassDataset:
    """Samples (rows of ``X``) with one-class labels ``y``: +1 normal, -1 outlier.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        Converted to C-contiguous float64; non-empty, every value finite.
    y : array of shape (n_samples,)
        +1 (normal, the target class) or -1 (outlier); other values (e.g. 1.7) are refused.
    name : str
        A short name shown in tables and panels.
    feature_names : sequence of str, optional
        One per column (default ``x0, x1, ...``).

    Examples
    --------
    >>> data = OneClassDataset([[0.0, 1.0], [2.0, 3.0], [9.0, 9.0]], [1, 1, -1], name="toy")
    >>> data
    OneClassDataset(toy: 3 samples, 2 features, 2 normal / 1 outlier)
    >>> data.normal.X.tolist()
    [[0.0, 1.0], [2.0, 3.0]]

    See Also
    --------
    sine_noise, square_noise : the CDVSE paper's synthetic sets.
    load_dataset : the registered UCI one-class sets.
    SVDD : learns the normal class.
    """

    def __init__(self, X, y, name: str = "", feature_names=None):
        self.X = as_feature_matrix(X)
        self.y = as_oneclass_labels(y, len(self.X))
        names = feature_names
        if names is None:
            names = [f"x{i}" for i in range(self.X.shape[1])]
        self.feature_names = np.array([str(n) for n in names], dtype=object)
        if len(self.feature_names) != self.X.shape[1]:
            raise InputError(f"feature_names has {len(self.feature_names)} names for "
                             f"{self.X.shape[1]} features.")
        self.name = name

    def __len__(self) -> int:
        return len(self.X)

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    @property
    def n_normal(self) -> int:
        return int((self.y == 1).sum())

    @property
    def n_outliers(self) -> int:
        return int((self.y == -1).sum())

    def __getitem__(self, index) -> OneClassDataset:
        """The samples ``index`` (slice, int array or mask) as a new dataset."""
        rows = np.arange(len(self))[index]
        return OneClassDataset(self.X[np.atleast_1d(rows)], self.y[np.atleast_1d(rows)],
                               self.name, self.feature_names)

    @property
    def normal(self) -> OneClassDataset:
        """The normal samples (an InputError when there is none)."""
        return self[self.y == 1]

    @property
    def outliers(self) -> OneClassDataset:
        """The outliers (an InputError when there is none)."""
        return self[self.y == -1]

    def __repr__(self) -> str:
        return (f"OneClassDataset({self.name or 'unnamed'}: {len(self)} samples, "
                f"{self.n_features} features, {self.n_normal} normal / {self.n_outliers} outlier)")
