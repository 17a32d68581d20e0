"""How often each label occurs in a subset of rows compared with all rows (multi-label data).

For a 0/1 label matrix Y (n rows, one column per label) and a subset S of its rows (a
boolean mask, e.g. the points brushed in a scatter of an embedding), per label j:

    rows inside_j       = #{i in S : Y_ij = 1}
    share inside_j      = rows inside_j / |S|
    share of all rows_j = #{i : Y_ij = 1} / n
    lift_j              = share inside_j / share of all rows_j
                        = (rows inside_j * n) / (|S| * #{i : Y_ij = 1})

A lift above 1 means the label is over-represented in S, below 1 under-represented, 1 as
frequent as in all rows; it is P(label j | row in S) / P(label j) over the n rows, the ratio
association-rule mining calls lift.

Two cases have no value, and are reported as missing (``pd.NA``), never NaN, inf or 0:

* S is empty: share inside and lift are 0 / 0 for every label;
* label j never occurs in the n rows: its lift is 0 / 0 (rows inside_j is then 0 too).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from milab_widgets.exceptions import InputError

__all__ = ["label_statistics"]


def label_statistics(Y, inside, label_names: Sequence[str] | None = None) -> pd.DataFrame:
    """Per label: its count and share among the rows ``inside``, its share among all rows,
    and the lift (the ratio of the two shares); see the module docstring for the formulas.

    Parameters
    ----------
    Y : array or scipy.sparse matrix of shape (n_rows, n_labels)
        0/1 (or boolean) label matrix; ``Y[i, j] = 1`` when row i carries label j.
    inside : boolean array of shape (n_rows,)
        The subset S of rows. May be empty (no True) or all rows.
    label_names : sequence of str, optional
        One name per label (the index of the result); default: the column numbers.

    Returns
    -------
    pandas.DataFrame
        Indexed by label, in the columns' order, with columns ``rows inside`` (int64),
        ``share inside``, ``share of all rows`` and ``lift`` (nullable Float64). ``share
        inside`` and ``lift`` are missing (``pd.NA``) for every label when S is empty;
        ``lift`` is missing for a label that no row carries. No cell is NaN or infinite.

    Examples
    --------
    >>> Y = [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 0]]
    >>> stats = label_statistics(Y, [True, True, False, False], ["a", "b", "c"])
    >>> stats["rows inside"].tolist(), stats["lift"].tolist()
    ([2, 1, 0], [2.0, 0.6666666666666666, <NA>])
    """
    Y = _label_matrix(Y)
    n_rows, n_labels = Y.shape
    inside = _row_mask(inside, n_rows)
    names = _label_names(label_names, n_labels)
    counts_all, counts_inside = _column_sums(Y), _column_sums(Y[inside])
    n_inside = int(inside.sum())
    empty, absent = np.full(n_labels, n_inside == 0), counts_all == 0
    return pd.DataFrame({
        "rows inside": counts_inside,
        "share inside": _ratio(counts_inside, np.full(n_labels, n_inside), empty),
        "share of all rows": pd.array(counts_all / n_rows, dtype="Float64"),
        "lift": _ratio(counts_inside * n_rows, n_inside * counts_all, empty | absent),
    }, index=pd.Index(names, name="label"))


def _ratio(numerator, denominator, undefined) -> pd.arrays.FloatingArray:
    """numerator / denominator as a nullable float array, missing where ``undefined`` (there
    the denominator is 0 and nothing is divided)."""
    safe = np.where(undefined, 1, denominator)
    return pd.arrays.FloatingArray(np.where(undefined, 0.0, numerator / safe), undefined)


def _label_matrix(Y):
    """``Y`` as a 2-D dense array or CSR matrix of 0/1; InputError otherwise."""
    if sparse.issparse(Y):
        Y = sparse.csr_matrix(Y)
        values = Y.data
    else:
        Y = np.asarray(Y)
        values = Y
    if Y.ndim != 2:
        raise InputError(f"Y must be a 2-D label matrix (rows x labels); got {Y.ndim} "
                         "dimension(s). Pass one row per instance and one column per label.")
    if Y.shape[0] == 0:
        raise InputError("Y has no rows: label statistics need at least one row.")
    if not np.isin(values, (0, 1)).all():
        raise InputError("Y must hold only 0 and 1 (or booleans): Y[i, j] = 1 when row i "
                         "carries label j.")
    return Y


def _row_mask(inside, n_rows: int) -> np.ndarray:
    """``inside`` as a boolean mask of ``n_rows`` entries; InputError otherwise."""
    inside = np.asarray(inside)
    if inside.dtype != bool or inside.shape != (n_rows,):
        raise InputError(f"inside must be a boolean mask with one entry per row of Y "
                         f"({n_rows}); got dtype {inside.dtype}, shape {inside.shape}. Build "
                         "it with a comparison, e.g. (x >= low) & (x <= high).")
    return inside


def _label_names(label_names, n_labels: int) -> list:
    if label_names is None:
        return list(range(n_labels))
    names = list(label_names)
    if len(names) != n_labels:
        raise InputError(f"label_names has {len(names)} names but Y has {n_labels} label "
                         "columns; pass one name per column.")
    return names


def _column_sums(Y) -> np.ndarray:
    """Per column, the number of ones (int64), for a dense array or a CSR matrix."""
    return np.asarray(Y.sum(axis=0), dtype=np.int64).ravel()
