"""MultiLabelDataset, the MULAN and .mat readers, and the multi-label registry entries."""

from pathlib import Path

import numpy as np
import pytest
import scipy.io

from milab_widgets.data import data_home
from milab_widgets.data.multilabel import MultiLabelDataset
from milab_widgets.data.multilabel_loaders import read_matlab_multilabel, read_mulan
from milab_widgets.data.multilabel_sources import MULTILABEL_DATASETS, YAHOO_NAMES
from milab_widgets.data.registry import get_spec
from milab_widgets.exceptions import DataFormatError, InputError

XML = """<?xml version="1.0" encoding="utf-8"?>
<labels xmlns="http://mulan.sourceforge.net/labels">
<label name="b"></label><label name="a"></label></labels>"""
ARFF = """@relation tiny
@attribute x1 numeric
@attribute x2 numeric
@attribute a {{0,1}}
@attribute b {{0,1}}
@data
{rows}
"""


def write_mulan(folder, rows_train, rows_test, xml=XML):
    paths = [folder / "t-train.arff", folder / "t-test.arff", folder / "t.xml"]
    paths[0].write_text(ARFF.format(rows=rows_train))
    paths[1].write_text(ARFF.format(rows=rows_test))
    paths[2].write_text(xml)
    return paths


# -- container -------------------------------------------------------------------------------
def test_container_indexing_split_and_feature_selection():
    data = MultiLabelDataset(np.arange(8.0).reshape(4, 2), [[1, 0], [0, 1], [1, 1], [0, 0]],
                             ["u", "v"], ["p", "q"], split=([0, 1, 2], [3]), name="toy")
    train, test = data.train_test()
    assert train.X.tolist() == [[0, 1], [2, 3], [4, 5]] and test.Y.tolist() == [[0, 0]]
    assert train.split is None and train.label_names == ["p", "q"]
    chosen = data.select_features([1])
    assert chosen.feature_names == ["v"] and chosen.X[:, 0].tolist() == [1, 3, 5, 7]
    assert chosen.split[1].tolist() == [3]
    assert data.label_cardinality == 1.0 and "split 3/1" in repr(data)
    assert data.Y.dtype == np.int64 and data.X.dtype == np.float64


@pytest.mark.parametrize("kwargs, message", [
    ({"Y": [[2], [0]]}, "only 0 and 1"),
    ({"Y": [[1], [0], [1]]}, "3 rows but there are 2"),
    ({"split": ([0, 1], [1])}, "distinct"),
    ({"split": ([0], [5])}, r"lie in \[0, 2\)"),
    ({"label_names": ["a", "b"]}, "label_names has 2 entries"),
])
def test_container_rejects_bad_input(kwargs, message):
    arguments = {"X": [[0.0], [1.0]], "Y": [[1], [0]], **kwargs}
    with pytest.raises(InputError, match=message):
        MultiLabelDataset(**arguments)


def test_train_test_without_split_says_how_to_split():
    with pytest.raises(InputError, match="no fixed train/test split"):
        MultiLabelDataset([[0.0]], [[1]]).train_test()


# -- MULAN -----------------------------------------------------------------------------------
def test_mulan_labels_are_the_xml_names_in_file_order(tmp_path):
    paths = write_mulan(tmp_path, "0.5,1.5,1,0\n2.5,3.5,0,1", "4.5,5.5,1,1")
    data = read_mulan(paths[:2], paths[2], "tiny")
    assert data.feature_names == ["x1", "x2"] and data.label_names == ["a", "b"]
    assert data.X.tolist() == [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]]
    assert data.Y.tolist() == [[1, 0], [0, 1], [1, 1]]
    assert [part.tolist() for part in data.split] == [[0, 1], [2]]


@pytest.mark.parametrize("rows, xml, message", [
    ("0.5,1.5,1,0", XML.replace('"a"', '"c"'), "lacks the label attribute"),
    ("0.5,1.5,1,?", XML, "labels must be 0 or 1"),
    ("{0 0.5, 2 1}", XML, "dense ARFF"),
])
def test_mulan_format_errors_name_the_problem(tmp_path, rows, xml, message):
    paths = write_mulan(tmp_path, rows, rows, xml)
    with pytest.raises(DataFormatError, match=message):
        read_mulan(paths[:2], paths[2])


@pytest.mark.parametrize("text, message", [
    ("", "empty or truncated"),
    ("\n\n", "empty or truncated"),
    (ARFF.format(rows="0.5,1.5,1,0").split("@data")[0], "empty or truncated"),  # no @data
    (ARFF.format(rows="0.5,1.5,1,0\n2.5,3.5"), "empty or truncated"),  # row cut short
    (ARFF.format(rows=""), "no data rows"),
])
def test_empty_or_truncated_mulan_files_are_format_errors(tmp_path, text, message):
    paths = write_mulan(tmp_path, "0.5,1.5,1,0", "0.5,1.5,1,0")
    paths[1].write_text(text)
    with pytest.raises(DataFormatError, match=message) as raised:
        read_mulan(paths[:2], paths[2])
    assert "t-test.arff" in str(raised.value)


# -- MATLAB ----------------------------------------------------------------------------------
def test_mlknn_mat_layout_keeps_its_split(tmp_path):
    path = tmp_path / "y.mat"
    scipy.io.savemat(path, {"train_data": np.eye(3), "test_data": np.ones((2, 3)),
                            "train_target": np.array([[1, -1, 1], [-1, -1, 1]]),
                            "test_target": np.array([[-1, 1], [1, 1]])})
    data = read_matlab_multilabel(path, "y")
    assert data.Y.tolist() == [[1, 0], [0, 0], [1, 1], [0, 1], [1, 1]]
    assert data.split[0].tolist() == [0, 1, 2] and data.split[1].tolist() == [3, 4]


def test_data_target_mat_layout_has_no_split(tmp_path):
    path = tmp_path / "r.mat"
    scipy.io.savemat(path, {"data": np.array([[1, 0], [0, 1], [1, 1]], np.uint8),
                            "target": np.array([[0, 1, 1]], np.uint8)})
    data = read_matlab_multilabel(path)
    assert data.split is None and data.Y[:, 0].tolist() == [0, 1, 1]
    assert data.X.dtype == np.float64


def test_mat_with_other_variables_is_refused(tmp_path):
    path = tmp_path / "bad.mat"
    scipy.io.savemat(path, {"features": np.eye(2)})
    with pytest.raises(DataFormatError, match="expected train_data"):
        read_matlab_multilabel(path)
    path.write_bytes(b"not a mat file")
    with pytest.raises(DataFormatError, match="not a MATLAB"):
        read_matlab_multilabel(path)


# -- registry --------------------------------------------------------------------------------
def test_registry_lists_yeast_scene_yahoo_and_rcv1():
    names = [spec.name for spec in MULTILABEL_DATASETS]
    assert names == ["yeast", "scene", *YAHOO_NAMES, *(f"rcv1subset{i}" for i in range(1, 6))]
    assert len(YAHOO_NAMES) == 11 and "arts" in YAHOO_NAMES
    for spec in MULTILABEL_DATASETS:
        assert spec.kind == "multilabel" and spec.citation and spec.counts["labels"] > 0
        assert all(f.relpath.startswith("multilabel/") and f.url.startswith("https://")
                   for f in spec.files)
    assert "Artificial" in get_spec("arts").description


@pytest.mark.parametrize("spec", MULTILABEL_DATASETS, ids=lambda spec: spec.name)
def test_recorded_counts_match_the_loaded_data(require_dataset, spec):
    data = require_dataset(spec.name)
    actual = {"samples": data.n_samples, "features": data.n_features, "labels": data.n_labels}
    if data.split is not None:
        actual.update(train=len(data.split[0]), test=len(data.split[1]))
    assert actual == dict(spec.counts)
    assert data.Y.dtype == np.int64 and set(np.unique(data.Y)) <= {0, 1}


def test_yeast_agrees_with_the_independent_matlab_copy(require_dataset):
    yeast = require_dataset("yeast")
    copy = Path(data_home()) / "multilabel/yeast/yeast_matlab_1500_917.mat"
    if not copy.is_file():
        pytest.skip(f"{copy} not present")
    other = read_matlab_multilabel(copy)
    np.testing.assert_allclose(other.X, yeast.X, atol=1e-6)
    # the .mat permutes the label columns: match each column to an identical one
    matches = [[j for j in range(14) if np.array_equal(other.Y[:, i], yeast.Y[:, j])]
               for i in range(14)]
    assert sorted(m[0] for m in matches) == list(range(14))
    assert yeast.label_names[:3] == ["Class1", "Class2", "Class3"]
