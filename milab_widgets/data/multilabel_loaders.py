"""Readers of multi-label benchmark files into :class:`MultiLabelDataset`.

* MULAN (Tsoumakas et al.): dense ARFF files plus an XML file naming the labels. The label
  attributes are the ones the XML names (MULAN puts them last, as nominal ``{0,1}``); every
  other attribute must be numeric. A train and a test ARFF are concatenated and their
  partition kept as the dataset's ``split``.
* The ML-kNN / MDDM MATLAB layout (Zhang & Zhou; the Yahoo sets of Ueda & Saito 2002):
  ``train_data`` (n_train x d), ``test_data``, ``train_target`` / ``test_target`` (L x n,
  entries in {-1, +1}); the split is the file's train/test partition.
* The single-matrix MATLAB layout (the rcv1 subsets): ``data`` (n x d), ``target``
  (L x n in {0, 1}); no split.

Malformed files raise :class:`~milab_widgets.exceptions.DataFormatError` naming the file,
the problem and the fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import scipy.sparse

from milab_widgets.data.loaders import _REFETCH, _read_mat
from milab_widgets.data.multilabel import MultiLabelDataset
from milab_widgets.exceptions import DataFormatError, InputError

__all__ = [
    "load_matlab_multilabel",
    "load_mulan",
    "read_matlab_multilabel",
    "read_mulan",
    "read_mulan_label_names",
]


# -- MULAN ARFF + XML --------------------------------------------------------------------------
def read_mulan_label_names(xml_path) -> list[str]:
    """The label names listed by a MULAN XML file (``<labels><label name=.../>``), in order.

    Nested label hierarchies are flattened; namespaces are ignored.
    """
    try:
        root = ElementTree.parse(xml_path).getroot()
    except (ElementTree.ParseError, OSError) as error:
        raise DataFormatError(f"{xml_path} is not a MULAN label XML ({error}); {_REFETCH}.") from error
    names = [node.get("name") for node in root.iter() if node.tag.rsplit("}", 1)[-1] == "label"]
    if not names or None in names:
        raise DataFormatError(
            f"{xml_path} lists no <label name='...'> elements; a MULAN XML names every label "
            f"attribute of the ARFF; {_REFETCH}."
        )
    return names


def read_mulan(arff_paths: Sequence, xml_path, name: str = "") -> MultiLabelDataset:
    """Read one MULAN ARFF (no split) or a train and a test ARFF (split kept) with its XML.

    Parameters
    ----------
    arff_paths : sequence of path
        One file, or ``(train, test)``; every file must have the same attributes.
    xml_path : path
        The MULAN XML naming the label attributes.
    name : str
        Name given to the dataset.

    References
    ----------
    Tsoumakas, G., Spyromitros-Xioufis, E., Vilcek, J., & Vlahavas, I. (2011). MULAN: A Java
    library for multi-label learning. JMLR 12, 2411-2414.
    """
    if isinstance(arff_paths, (str, Path)) or len(arff_paths) not in (1, 2):
        raise InputError(f"arff_paths must be a list of one ARFF file or two (train, test), got "
                         f"{arff_paths!r}.")
    label_names = read_mulan_label_names(xml_path)
    parts = [_read_arff(path, label_names) for path in arff_paths]
    features = parts[0][2]
    for path, part in zip(arff_paths[1:], parts[1:], strict=True):
        if part[2] != features:
            raise DataFormatError(f"{path} has other attributes than {arff_paths[0]}; {_REFETCH}.")
    sizes = [len(part[0]) for part in parts]
    split = None if len(parts) == 1 else (np.arange(sizes[0]), np.arange(sizes[0], sum(sizes)))
    return MultiLabelDataset(
        np.vstack([part[0] for part in parts]), np.vstack([part[1] for part in parts]),
        features, parts[0][3], split, name,
    )


def _read_arff(path, label_names: list[str]):
    """(X, Y, feature names, label names in file order) of one dense MULAN ARFF."""
    from scipy.io import arff  # imported on first read: scipy.io is slow to import

    try:
        records, meta = arff.loadarff(path)
    except (ValueError, NotImplementedError, arff.ArffError, OSError) as error:
        raise DataFormatError(
            f"{path} is not a dense ARFF file scipy can read ({type(error).__name__}: {error}); "
            f"sparse ARFF is not supported: convert it to dense; {_REFETCH}."
        ) from error
    except (StopIteration, IndexError) as error:  # scipy's parser running out of lines
        raise DataFormatError(
            f"{path} is empty or truncated: its ARFF header or a data row ends early; "
            f"{_REFETCH}."
        ) from error
    if len(records) == 0:
        raise DataFormatError(f"{path} has no data rows after @data (a truncated file?); "
                              f"{_REFETCH}.")
    attributes, types = meta.names(), meta.types()
    missing = [label for label in label_names if label not in attributes]
    if missing:
        raise DataFormatError(
            f"{path} lacks the label attribute(s) {missing[:5]} named by the XML; use the XML "
            f"that belongs to this ARFF; {_REFETCH}."
        )
    labels_in_file = [a for a in attributes if a in set(label_names)]
    features = [a for a in attributes if a not in set(label_names)]
    not_numeric = [a for a, t in zip(attributes, types, strict=True)
                   if a in features and t != "numeric"]
    if not_numeric:
        raise DataFormatError(
            f"{path}: feature attribute(s) {not_numeric[:5]} are not numeric; encode them as "
            "numbers first."
        )
    X = np.column_stack([records[a].astype(np.float64) for a in features])
    Y = np.column_stack([_label_column(records[a], path, a) for a in labels_in_file])
    return X, Y, features, labels_in_file


def _label_column(column: np.ndarray, path, attribute: str) -> np.ndarray:
    values = np.char.decode(column, "ascii") if column.dtype.kind == "S" else column.astype(str)
    bad = ~np.isin(values, ("0", "1"))
    if bad.any():
        raise DataFormatError(
            f"{path}: label attribute {attribute!r} holds {np.unique(values[bad])[:5].tolist()} "
            f"(data rows {np.nonzero(bad)[0][:5].tolist()}, 0-based); labels must be 0 or 1."
        )
    return (values == "1").astype(np.int64)


def load_mulan(paths: Sequence[Path], name: str) -> MultiLabelDataset:
    """Registry loader: ``paths`` = the ARFF file(s) followed by the XML."""
    return read_mulan(list(paths[:-1]), paths[-1], name)


# -- ML-kNN / MDDM .mat --------------------------------------------------------------------------
def read_matlab_multilabel(path, name: str = "") -> MultiLabelDataset:
    """Read the ML-kNN/MDDM train/test layout or the single ``data``/``target`` layout.

    Targets are L x n (one row per label) with entries in {-1, +1} or {0, 1}; a label is
    present where the entry is positive. Features may be dense or sparse.

    References
    ----------
    Zhang, M.-L., & Zhou, Z.-H. (2007). ML-KNN: A lazy learning approach to multi-label
    learning. Pattern Recognition 40(7), 2038-2048 (the Yahoo files' layout). Ueda, N., &
    Saito, K. (2002). Parametric mixture models for multi-labeled text. NIPS 15.
    """
    content = _read_mat(path, str(path), "a MATLAB multi-label dataset")
    if {"train_data", "test_data", "train_target", "test_target"} <= set(content):
        parts = [_matlab_part(content, f"{part}_data", f"{part}_target", path)
                 for part in ("train", "test")]
        n_train, n_test = len(parts[0][0]), len(parts[1][0])
        split = (np.arange(n_train), np.arange(n_train, n_train + n_test))
        return MultiLabelDataset(np.vstack([parts[0][0], parts[1][0]]),
                                 np.vstack([parts[0][1], parts[1][1]]), split=split, name=name)
    if {"data", "target"} <= set(content):
        X, Y = _matlab_part(content, "data", "target", path)
        return MultiLabelDataset(X, Y, name=name)
    keys = sorted(k for k in content if not k.startswith("__"))
    raise DataFormatError(
        f"{path} holds variables {keys}; expected train_data, test_data, train_target, "
        f"test_target (ML-kNN layout) or data, target; {_REFETCH}."
    )


def _matlab_part(content: dict, data_key: str, target_key: str, path):
    """(X float64 n x d, Y int64 n x L) from one data matrix and its L x n target."""
    data, target = content[data_key], content[target_key]
    X = data.toarray() if scipy.sparse.issparse(data) else np.asarray(data)
    target = target.toarray() if scipy.sparse.issparse(target) else np.asarray(target)
    if target.ndim != 2 or target.shape[1] != X.shape[0]:
        raise DataFormatError(
            f"{path}: {target_key} has shape {target.shape} but {data_key} has {X.shape[0]} rows; "
            f"expected labels x samples; {_REFETCH}."
        )
    if not np.isin(target, (-1, 0, 1)).all():
        raise DataFormatError(f"{path}: {target_key} must hold -1/+1 or 0/1 entries; {_REFETCH}.")
    return X.astype(np.float64), (target.T > 0).astype(np.int64)


def load_matlab_multilabel(paths: Sequence[Path], name: str) -> MultiLabelDataset:
    """Registry loader: the spec's single .mat file."""
    return read_matlab_multilabel(paths[0], name)
