"""The multi-label metrics and the file readers on bad input: empty, complex, sparse, 3-D or
undefined input to every metric (no silent NaN or 0.0); empty and truncated files to every
reader (a DataFormatError naming the file, never numpy's or scipy's bare OSError)."""

import io

import numpy as np
import pytest
import scipy.io
import scipy.sparse
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import coverage_error

from milab_widgets.data.loaders import read_mil_csv, read_prtools_mat
from milab_widgets.data.multilabel_loaders import (
    read_matlab_multilabel,
    read_mulan,
    read_mulan_label_names,
)
from milab_widgets.exceptions import DataFormatError, InputError
from milab_widgets.multilabel import metrics

Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
SCORES = np.random.default_rng(0).random(Y.shape)
METRICS = [pytest.param(metric, uses_predictions, id=short)
           for short, (metric, uses_predictions) in metrics.METRICS.items()]


def _second(uses_predictions, rows=slice(None)):
    return (Y if uses_predictions else SCORES)[rows]


@pytest.mark.parametrize("metric, uses_predictions", METRICS)
def test_empty_input_is_refused(metric, uses_predictions):
    with pytest.raises(InputError, match="Y_true is empty"):
        metric(Y[:0], _second(uses_predictions, slice(0)))


@pytest.mark.parametrize("metric, uses_predictions", METRICS)
def test_sparse_y_true_gives_the_dense_value(metric, uses_predictions):
    second = _second(uses_predictions)
    assert metric(scipy.sparse.csr_matrix(Y), second) == metric(Y, second)


@pytest.mark.parametrize("metric, uses_predictions", METRICS)
def test_3d_y_true_is_refused(metric, uses_predictions):
    with pytest.raises(InputError, match="Y_true must be a 2-D 0/1 label matrix"):
        metric(Y[:, :, None], _second(uses_predictions))


@pytest.mark.parametrize("metric", [m for m, uses_predictions in metrics.METRICS.values()
                                    if not uses_predictions])
def test_complex_scores_are_refused(metric):
    with pytest.raises(InputError, match="scores hold complex numbers"):
        metric(Y, SCORES + 1j)


@pytest.mark.parametrize("metric", [metrics.one_error, metrics.ranking_loss,
                                    metrics.average_precision, metrics.macro_auc])
def test_undefined_metric_warns_and_gives_nan(metric):
    with pytest.warns(UndefinedMetricWarning, match=f"{metric.__name__} is undefined"):
        assert np.isnan(metric(np.zeros_like(Y), SCORES))


def test_coverage_without_relevant_labels_follows_its_documented_convention():
    zeros = np.zeros_like(Y)
    assert metrics.coverage(zeros, SCORES) == coverage_error(zeros, SCORES) - 1 == -1


# -- readers ----------------------------------------------------------------------------------
def _mat(**arrays) -> bytes:
    buffer = io.BytesIO()
    scipy.io.savemat(buffer, arrays)
    return buffer.getvalue()


PRTOOLS = _mat(x={"data": np.ones((2, 2)), "nlab": np.array([[1], [2]]),
                  "ident": {"milbag": np.array([[1], [2]])}})
MULTILABEL = _mat(data=np.ones((3, 2)), target=np.array([[1, 0, 1]]))
ARFF = b"@relation r\n@attribute x numeric\n@attribute l {0,1}\n@data\n1.0,0\n2.0,1\n"
XML = b'<?xml version="1.0"?><labels xmlns="http://mulan.sourceforge.net/labels">' \
      b'<label name="l"></label></labels>'


@pytest.mark.parametrize("read, content", [
    (read_prtools_mat, PRTOOLS), (read_matlab_multilabel, MULTILABEL),
    (read_mil_csv, b"1,0,0.5,0.25\n1,0,0.5,0.75\n2,1,1.5,0.25\n"),
    (lambda path: read_mulan([path], path.parent / "labels.xml"), ARFF),
    (read_mulan_label_names, XML),
], ids=["prtools-mat", "multilabel-mat", "mil-csv", "mulan-arff", "mulan-xml"])
@pytest.mark.parametrize("cut", ["empty", "half"])
def test_empty_or_truncated_files_are_named(tmp_path, read, content, cut):
    (tmp_path / "labels.xml").write_bytes(XML)  # the whole XML beside a cut ARFF
    path = tmp_path / f"{cut}.data"
    path.write_bytes(b"" if cut == "empty" else content[: len(content) // 2])
    with pytest.raises(DataFormatError, match=f"{cut}.data"):
        read(path)


def test_the_whole_files_are_read(tmp_path):
    """The readers' oracle for the truncation test: the untruncated bytes are read."""
    path = tmp_path / "whole.mat"
    path.write_bytes(PRTOOLS)
    assert read_prtools_mat(path).instances.shape == (2, 2)
    path.write_bytes(MULTILABEL)
    assert read_matlab_multilabel(path).Y.ravel().tolist() == [1, 0, 1]


def test_a_missing_mat_file_stays_a_file_not_found_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_prtools_mat(tmp_path / "absent.mat")


@pytest.mark.parametrize("arff_paths", [[], "one.arff", ["a", "b", "c"]])
def test_read_mulan_needs_one_or_two_arff_files(tmp_path, arff_paths):
    with pytest.raises(InputError, match="arff_paths must be a list of one ARFF file or two"):
        read_mulan(arff_paths, tmp_path / "labels.xml")


UCI_LOADERS = ["load_cancer", "load_breast_cancer", "load_cleveland_heart", "load_pima",
               "load_german", "load_heart", "load_hepatitis", "load_housing", "load_liver",
               "load_sonar", "load_thyroid"]


@pytest.mark.parametrize("content", [b"", b"1,2,3\n4,5\n"], ids=["empty", "few-columns"])
@pytest.mark.parametrize("loader", UCI_LOADERS)
def test_uci_recipes_name_an_empty_or_truncated_file(tmp_path, loader, content):
    """Each recipe indexes its label column by position: a file with fewer columns was a
    bare KeyError (e.g. 'KeyError: 10')."""
    from milab_widgets.data import uci_recipes
    path = tmp_path / "cut.data"
    path.write_bytes(content)
    with pytest.raises(DataFormatError, match="cut.data"):
        getattr(uci_recipes, loader)([path], loader)
