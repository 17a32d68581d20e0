"""Readers: the mil CSV layout and PRTools .mat structs, on small files and the real data."""

import io
import zipfile

import numpy as np
import pandas as pd
import pytest
import scipy.io

from milab_widgets.data import load_dataset
from milab_widgets.data.home import locate
from milab_widgets.data.loaders import load_prtools_zip_member, read_mil_csv, read_prtools_mat
from milab_widgets.data.registry import get_spec
from milab_widgets.exceptions import DataFormatError

GOOD_CSV = "1,7,0.5,1.5\n1,7,2.5,3.5\n0,3,4.5,5.5\n1,9,6.5,7.5\n1,9,8.5,9.5\n1,9,1.0,2.0\n"


def write(tmp_path, text, name="bags.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


# -- mil CSV ---------------------------------------------------------------------------------
def test_mil_csv_groups_contiguous_rows_into_bags(tmp_path):
    bags = read_mil_csv(write(tmp_path, GOOD_CSV), "toy")
    assert bags.name == "toy"
    assert bags.bag_ids.tolist() == [7, 3, 9]
    assert bags.labels.tolist() == [1, 0, 1]
    assert bags.offsets.tolist() == [0, 2, 3, 6]
    np.testing.assert_array_equal(bags[2], [[6.5, 7.5], [8.5, 9.5], [1.0, 2.0]])


def test_mil_csv_reads_file_objects():
    bags = read_mil_csv(io.StringIO(GOOD_CSV), "toy")
    assert bags.bag_sizes.tolist() == [2, 1, 3]


@pytest.mark.parametrize(
    "text, message",
    [
        (GOOD_CSV.replace("2.5", "abc"), "not a numeric CSV.*abc"),
        (GOOD_CSV.replace("0,3,", "2,3,"), r"column 0 \(bag label\) must be one of \[0, 1\]"),
        (GOOD_CSV.replace("0,3,", "0,3.5,"), r"column 1 \(bag id\) must be integers"),
        (GOOD_CSV + "1,7,3.0,4.0\n", r"bag\(s\) \[7\] are not contiguous.*row 6"),
        (GOOD_CSV.replace("1,9,8.5", "0,9,8.5"), r"bag\(s\) \[9\] have instances with different"),
        (GOOD_CSV.replace("0,3,4.5,5.5", "0,3,4.5"), r"non-finite cells in data row\(s\) \[2\]"),
        (GOOD_CSV.replace("0,3,4.5,5.5", "0,3,4.5,5.5,1"), "not a numeric CSV"),
        ("1,1\n0,2\n", "2 column"),
        ("", "not a numeric CSV"),
    ],
    ids=["text", "label", "bag-id", "split-bag", "mixed-labels", "short-row", "long-row",
         "no-features", "empty"],
)
def test_malformed_mil_csv_raises_data_format_error(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(DataFormatError, match=message) as raised:
        read_mil_csv(path, "toy")
    assert str(path) in str(raised.value) and "milab fetch" in str(raised.value)


def test_real_musk1_matches_a_groupby_of_the_raw_file(require_dataset):
    musk1 = require_dataset("musk1")
    assert (len(musk1), musk1.n_instances, musk1.n_features) == (92, 476, 166)
    assert (musk1.labels == 1).sum() == 47 and (musk1.labels == 0).sum() == 45
    raw = pd.read_csv(locate(get_spec("musk1"))[0], header=None)
    groups = raw.groupby(1, sort=False)
    assert musk1.bag_ids.tolist() == list(groups.groups)
    for bag_id, bag, label in zip(musk1.bag_ids, musk1, musk1.labels, strict=True):
        rows = groups.get_group(bag_id)
        np.testing.assert_array_equal(bag, rows.iloc[:, 2:].to_numpy(float))
        assert set(rows[0]) == {label}


# -- PRTools .mat ----------------------------------------------------------------------------
def save_prtools(target, data, nlab, milbag):
    """A MATLAB struct laid out like PRTools' prdataset: x.data, x.nlab, x.ident.milbag."""
    struct = {"data": np.asarray(data, float), "nlab": np.asarray(nlab, np.uint8)[:, None],
              "ident": {"milbag": np.asarray(milbag, np.uint8)[:, None]}}
    scipy.io.savemat(target, {"x": struct})


def test_prtools_groups_rows_by_bag_in_first_appearance_order(tmp_path):
    path = tmp_path / "toy.mat"
    save_prtools(path, np.arange(12).reshape(6, 2), [2, 2, 1, 2, 1, 1], [5, 5, 3, 5, 3, 9])
    bags = read_prtools_mat(path, "toy")
    assert bags.bag_ids.tolist() == [5, 3, 9]
    assert bags.labels.tolist() == [1, 0, 0]
    assert bags.offsets.tolist() == [0, 3, 5, 6]
    np.testing.assert_array_equal(bags[0], [[0, 1], [2, 3], [6, 7]])
    np.testing.assert_array_equal(bags[1], [[4, 5], [8, 9]])


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "not a PRTools MIL dataset"),
        ({"y": np.ones((2, 2))}, "not a PRTools MIL dataset.*KeyError"),
        ({"x": {"data": np.ones((2, 2)), "nlab": np.ones((2, 1))}}, "not a PRTools MIL"),
        ({"x": {"data": np.ones((3, 2)), "nlab": np.ones((2, 1)),
                "ident": {"milbag": np.ones((2, 1))}}}, "x.data has 3 rows but x.nlab has 2"),
        ({"x": {"data": np.ones((2, 2)), "nlab": np.array([[1], [3]]),
                "ident": {"milbag": np.array([[1], [2]])}}}, r"must be one of \[1, 2\]"),
        ({"x": {"data": np.ones((2, 2)), "nlab": np.array([[1], [2]]),
                "ident": {"milbag": np.array([[1], [1]])}}}, "different labels"),
    ],
    ids=["not-mat", "no-x", "no-ident", "row-mismatch", "three-classes", "mixed-labels"],
)
def test_malformed_prtools_raises_data_format_error(tmp_path, content, message):
    path = tmp_path / "bad.mat"
    if content is None:
        path.write_bytes(b"this is not a MATLAB file" * 20)
    else:
        scipy.io.savemat(path, content)
    with pytest.raises(DataFormatError, match=message):
        read_prtools_mat(path, "bad")


def test_zip_member_is_read_without_extracting(tmp_path):
    mat = io.BytesIO()
    save_prtools(mat, [[1.0], [2.0], [3.0]], [1, 2, 2], [1, 2, 2])
    archive = tmp_path / "animals.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zebra.mat", mat.getvalue())
    zebra = load_prtools_zip_member([archive], "zebra", member="zebra.mat")
    assert zebra.bag_sizes.tolist() == [1, 2] and zebra.labels.tolist() == [0, 1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["animals.zip"]
    with pytest.raises(DataFormatError, match="cannot read 'okapi.mat'"):
        load_prtools_zip_member([archive], "okapi", member="okapi.mat")


def test_a_file_that_is_not_a_zip_raises_data_format_error(tmp_path):
    not_zip = write(tmp_path, "plain text", "fte.zip")
    with pytest.raises(DataFormatError, match="fte.zip.*zip"):
        load_prtools_zip_member([not_zip], "fox", member="fox.mat")


# -- real data -------------------------------------------------------------------------------
@pytest.mark.realdata
@pytest.mark.parametrize("name", ["fox", "tiger"])
def test_real_fox_and_tiger_from_fte_zip(require_dataset, name):
    bags = require_dataset(name)
    instances = {"fox": 1320, "tiger": 1220}[name]
    assert (len(bags), bags.n_instances, bags.n_features) == (200, instances, 230)
    assert np.bincount(bags.labels).tolist() == [100, 100]
    assert bags.bag_ids.tolist() == list(range(1, 201))


@pytest.mark.realdata
def test_elephant_mat_in_fte_zip_equals_elephant_csv(require_dataset):
    require_dataset("fox")  # fte.zip available
    from_mat = load_prtools_zip_member(locate(get_spec("fox")), "elephant", member="elephant.mat")
    from_csv = load_dataset("elephant")
    by_id = {bag_id: (bag, label) for bag_id, bag, label in
             zip(from_csv.bag_ids, from_csv, from_csv.labels, strict=True)}
    assert sorted(by_id) == sorted(from_mat.bag_ids.tolist())
    for bag_id, bag, label in zip(from_mat.bag_ids, from_mat, from_mat.labels, strict=True):
        np.testing.assert_array_equal(bag, by_id[bag_id][0])
        assert label == by_id[bag_id][1]
    # Stronger than the bag-order-free check: the two files are in the same order too.
    np.testing.assert_array_equal(from_mat.bag_ids, from_csv.bag_ids)
    np.testing.assert_array_equal(from_mat.instances, from_csv.instances)
