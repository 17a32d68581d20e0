"""`BagDataset`: a multi-instance collection stored the way numba likes it.

All instances of all bags live in one C-contiguous float64 matrix (n_instances x d); bag b
owns rows ``offsets[b]:offsets[b + 1]``. Selecting bags is arithmetic on offsets plus one
gather of rows, never a Python list of arrays in a hot loop.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from milab_widgets.data.arrays import check_bounded, holds_text
from milab_widgets.exceptions import InputError

__all__ = ["BagDataset"]


class BagDataset:
    """Bags of instances with one integer label per bag.

    Parameters
    ----------
    instances : array of shape (n_instances, n_features)
        Every bag's instances, bag after bag. Converted to C-contiguous float64.
    offsets : int array of shape (n_bags + 1,)
        ``offsets[0] == 0``, strictly increasing (no empty bag), ``offsets[-1] == n_instances``.
    labels : int array of shape (n_bags,), optional
        Bag labels (0/1 for classification; any integers, -1 meaning "unlabelled", for
        clustering). Defaults to -1 for every bag.
    bag_ids : array of shape (n_bags,), optional
        The bags' identifiers in their source file (defaults to 0..n_bags-1).
    name : str
        A short name shown in tables and panels.
    feature_names : sequence of str, optional
        The instances' column names (``from_bags`` takes them from DataFrame bags); the
        estimators fitted on named bags refuse query bags whose names differ or come in
        another order, as scikit-learn's estimators do for DataFrame columns.

    Examples
    --------
    >>> bags = BagDataset.from_bags([[[0.0], [1.0]], [[5.0]]], labels=[1, 0])
    >>> len(bags), bags.bag_sizes.tolist()
    (2, [2, 1])
    >>> bags[np.array([1])].instances.tolist()
    [[5.0]]

    See Also
    --------
    from_bags : builds one from a list of bags.
    load_dataset : the registered multi-instance sets (Musk1, Musk2, Elephant, Fox, Tiger...).
    bag_distances : distances between bags.
    """

    def __init__(self, instances, offsets, labels=None, bag_ids=None, name: str = "",
                 feature_names=None):
        self.instances = _as_instance_matrix(instances)
        self.feature_names = _as_feature_names(feature_names, self.instances.shape[1])
        self.offsets = _as_offsets(offsets, len(self.instances))
        n_bags = len(self.offsets) - 1
        self.labels = _as_labels(labels, n_bags)
        self.bag_ids = np.arange(n_bags) if bag_ids is None else np.asarray(bag_ids)
        if self.bag_ids.shape != (n_bags,):
            raise InputError(
                f"bag_ids has shape {self.bag_ids.shape} but there are {n_bags} bags; "
                "pass one id per bag."
            )
        self.name = name

    @classmethod
    def from_bags(cls, bags: Sequence, labels=None, name: str = "") -> BagDataset:
        """Build from one 2-D array or DataFrame per bag (rows = instances).

        DataFrame bags must share their columns, in one order, which become ``feature_names``.

        Parameters
        ----------
        bags : sequence of array-like or DataFrame
            The bags, each of shape (n_instances_i, n_features).
        labels : array-like of shape (n_bags,), default=None
            Bag labels.
        name : str, default=""
            The dataset's name.

        Returns
        -------
        BagDataset
            The bags as one instance matrix and offsets.
        """
        feature_names = _shared_columns(bags)
        arrays = [_real_array(bag, f"bag {i}") for i, bag in enumerate(bags)]
        if not arrays:
            raise InputError("from_bags got no bags; pass a non-empty list of 2-D arrays.")
        for i, bag in enumerate(arrays):
            if bag.ndim != 2:
                raise InputError(
                    f"bag {i} has {bag.ndim} dimension(s); each bag must be a 2-D array "
                    "(instances x features), e.g. bag.reshape(-1, n_features)."
                )
            if bag.shape[1] != arrays[0].shape[1]:
                raise InputError(
                    f"bag {i} has {bag.shape[1]} features but bag 0 has {arrays[0].shape[1]}; "
                    "every instance needs the same number of features."
                )
        sizes = np.array([len(bag) for bag in arrays], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        _check_no_empty_bag(offsets)
        return cls(np.vstack(arrays), offsets, labels, name=name, feature_names=feature_names)

    # -- shape -------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_features(self) -> int:
        return self.instances.shape[1]

    @property
    def n_instances(self) -> int:
        return self.instances.shape[0]

    @property
    def bag_sizes(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def instance_bag_index(self) -> np.ndarray:
        """The bag number of every instance row."""
        return np.repeat(np.arange(len(self)), self.bag_sizes)

    # -- access ------------------------------------------------------------------------------
    def bag(self, i: int) -> np.ndarray:
        """The instances of bag ``i``.

        Parameters
        ----------
        i : int
            Bag index.

        Returns
        -------
        ndarray of shape (n_instances_i, n_features)
            A view into ``instances`` (rows = instances).
        """
        i = range(len(self))[i]  # normalises negative i and raises IndexError when out of range
        return self.instances[self.offsets[i] : self.offsets[i + 1]]

    def __iter__(self) -> Iterator[np.ndarray]:
        return (self.bag(i) for i in range(len(self)))

    def __getitem__(self, index):
        """An int gives that bag's instance matrix; a slice, int array or bool mask of bags
        gives a new BagDataset of those bags, in that order."""
        if isinstance(index, (int, np.integer)):
            return self.bag(int(index))
        selected = np.arange(len(self))[index]
        if selected.ndim != 1:
            raise InputError("index a BagDataset with an int, a slice, a 1-D int array or a mask.")
        starts, stops = self.offsets[selected], self.offsets[selected + 1]
        rows = _concatenated_ranges(starts, stops)
        offsets = np.concatenate([[0], np.cumsum(stops - starts)])
        return BagDataset(self.instances[rows], offsets, self.labels[selected],
                          self.bag_ids[selected], self.name, self.feature_names)

    def with_instances(self, instances) -> BagDataset:
        """The same bags and labels with new instance rows (e.g. scaled features).

        Parameters
        ----------
        instances : array-like of shape (n_instances, n_features_new)
            One row per instance, in the current order.

        Returns
        -------
        BagDataset
            A new dataset; this one is unchanged.
        """
        instances = _as_instance_matrix(instances)
        if len(instances) != self.n_instances:
            raise InputError(
                f"with_instances got {len(instances)} rows for {self.n_instances} instances; "
                "transform the rows, do not add or drop any."
            )
        names = self.feature_names if instances.shape[1] == self.n_features else None
        return BagDataset(instances, self.offsets, self.labels, self.bag_ids, self.name, names)

    def map_instances(self, transform: Callable[[np.ndarray], np.ndarray]) -> BagDataset:
        """Apply ``transform`` to the instance matrix (e.g. a fitted scaler's transform).

        Parameters
        ----------
        transform : callable
            ``transform(instances) -> new instances`` with one row per instance.

        Returns
        -------
        BagDataset
            A new dataset; this one is unchanged.
        """
        return self.with_instances(transform(self.instances))

    def __repr__(self) -> str:
        classes, counts = np.unique(self.labels, return_counts=True)
        label_text = ", ".join(f"{c}:{n}" for c, n in
                               zip(classes.tolist(), counts.tolist(), strict=True))
        return (
            f"BagDataset({self.name or 'unnamed'}: {len(self)} bags, {self.n_instances} "
            f"instances, {self.n_features} features, labels {{{label_text}}})"
        )


def _concatenated_ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """np.concatenate([np.arange(a, b) for a, b in zip(starts, stops)]) without the loop."""
    lengths = stops - starts
    if lengths.sum() == 0:
        return np.zeros(0, dtype=np.int64)
    shifts = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.arange(lengths.sum()) + shifts


def _shared_columns(bags: Sequence) -> np.ndarray | None:
    """The column names of DataFrame bags (None when no bag has columns), refusing bags
    whose columns differ from the first named bag's or come in another order."""
    named = [(i, list(bag.columns)) for i, bag in enumerate(bags) if hasattr(bag, "columns")]
    if not named:
        return None
    first, columns = named[0]
    for i, other in named[1:]:
        if other != columns:
            raise InputError(
                f"bag {i} has columns {other[:6]} but bag {first} has {columns[:6]}; select "
                f"the same columns in the same order in every bag (bag[{columns[:3]}...]).")
    return np.asarray([str(column) for column in columns], dtype=object)


def _as_feature_names(names, n_features: int) -> np.ndarray | None:
    if names is None:
        return None
    names = np.asarray(names, dtype=object)
    if names.shape != (n_features,):
        raise InputError(f"feature_names has shape {names.shape} but the instances have "
                         f"{n_features} features; pass one name per feature.")
    return names


def _real_array(values, name: str) -> np.ndarray:
    """``values`` (an array, a list, a DataFrame or a scipy.sparse matrix, made dense with a
    DataConversionWarning) as
    float64, refusing complex numbers (numpy would drop the imaginary part) and anything else
    that is not numeric, naming ``name``."""
    if hasattr(values, "toarray"):  # scipy.sparse: np.asarray would give a 0-d object array
        from sklearn.exceptions import DataConversionWarning  # scikit-learn loads only here

        what = "a bag" if name.startswith("bag ") else name  # one warning for all the bags
        warnings.warn(f"{what} given as a scipy.sparse matrix is stored dense, as the bag "
                      "distances and kernels work on dense instances.", DataConversionWarning,
                      stacklevel=4)
        values = values.toarray()
    try:
        array = np.asarray(values)
    except ValueError:  # ragged rows
        raise InputError(f"{name} must be a 2-D array (instances x features) of numbers; its "
                         "rows differ in length.") from None
    if array.dtype.kind == "c":
        raise InputError(f"{name} holds complex numbers; pass real instance values.")
    try:
        return array.astype(np.float64, copy=False)
    except (TypeError, ValueError):
        raise InputError(f"{name} must hold numbers (instances x features); it does not convert "
                         "to floats.") from None


def _as_instance_matrix(instances) -> np.ndarray:
    matrix = np.ascontiguousarray(_real_array(instances, "instances"))
    if matrix.ndim != 2:
        raise InputError(
            f"instances must be a 2-D array (instances x features), got {matrix.ndim}-D."
        )
    check_bounded(matrix, "instances")  # NaN, inf, beyond MAX_ABS_VALUE (squares overflow)
    return matrix


def _as_offsets(offsets, n_instances: int) -> np.ndarray:
    offsets = np.asarray(offsets)
    if offsets.ndim != 1 or len(offsets) < 2 or not np.issubdtype(offsets.dtype, np.integer):
        raise InputError(
            "offsets must be a 1-D integer array of length n_bags + 1 (at least one bag)."
        )
    offsets = offsets.astype(np.int64)
    if offsets[0] != 0 or offsets[-1] != n_instances:
        raise InputError(
            f"offsets must start at 0 and end at n_instances={n_instances}; "
            f"got {offsets[0]} ... {offsets[-1]}."
        )
    _check_no_empty_bag(offsets)
    return offsets


def _check_no_empty_bag(offsets: np.ndarray) -> None:
    sizes = np.diff(offsets)
    if (sizes <= 0).any():
        empty = np.nonzero(sizes <= 0)[0]
        raise InputError(
            f"bag(s) {empty[:5].tolist()} are empty; every bag needs at least one instance "
            "(drop empty bags before building the dataset)."
        )


def _as_labels(labels, n_bags: int) -> np.ndarray:
    if labels is None:
        return np.full(n_bags, -1, dtype=np.int64)
    raw = np.asarray(labels)
    if raw.shape != (n_bags,):
        raise InputError(f"labels has shape {raw.shape} but there are {n_bags} bags.")
    if holds_text(raw):
        text = next(value for value in raw if isinstance(value, (str, bytes, np.str_)))
        raise InputError(f"labels must be integers (e.g. 1 positive, 0 negative); got text "
                         f"such as {str(text)!r}. Encode them first, e.g. labels = "
                         f"(np.asarray(labels) == {str(text)!r}).astype(int).")
    as_int = raw.astype(np.int64)
    if not np.array_equal(as_int, raw):
        raise InputError("labels must be integers (e.g. 0/1); got non-integer values.")
    return as_int
