"""The two-view folder format: round trip, grouping, and every malformed-file error."""

import numpy as np
import pytest

from milab_widgets.data.bags import BagDataset
from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
from milab_widgets.data.twoview_files import (
    TwoViewBags,
    read_two_view_folder,
    write_two_view_folder,
)
from milab_widgets.exceptions import DataFormatError, InputError


@pytest.fixture
def folder(tmp_path):
    data = synthetic_two_view_bags(n_clusters=2, bags_per_cluster=4, seed=1)
    return write_two_view_folder(data, tmp_path / "mine"), data


def test_round_trip_keeps_every_instance_and_label(folder):
    path, data = folder
    loaded = read_two_view_folder(path)
    assert loaded.name == "mine" and loaded.first_name == data.first_name
    assert loaded.class_names == data.class_names and loaded.generators == data.generators
    np.testing.assert_array_equal(loaded.labels, data.labels)
    for ours, theirs in [(loaded.first, data.first), (loaded.second["synthetic"], data.second["synthetic"])]:
        np.testing.assert_allclose(ours.instances, theirs.instances, rtol=1e-15)
        np.testing.assert_array_equal(ours.offsets, theirs.offsets)


def test_rows_of_a_bag_need_not_be_contiguous(tmp_path):
    (tmp_path / "labels.csv").write_text("bag_id,label\nb,rose\na,tulip\n")
    (tmp_path / "view1_text.csv").write_text("bag_id,x\na,1\nb,2\na,3\n")
    (tmp_path / "view2_sift.csv").write_text("bag_id,u,v\nb,0,1\na,5,5\n")
    data = read_two_view_folder(tmp_path, name="tiny")
    assert data.class_names == ("rose", "tulip") and data.labels.tolist() == [0, 1]
    assert data.first.bag(0).tolist() == [[2.0]] and data.first.bag(1).tolist() == [[1.0], [3.0]]
    assert data.views("sift")[1].n_features == 2


def write(path, text):
    path.write_text(text)


@pytest.mark.parametrize("damage, message", [
    (lambda p: (p / "labels.csv").unlink(), "labels.csv is missing"),
    (lambda p: write(p / "view1_extra.csv", "bag_id,x\n"), "exactly one view1_"),
    (lambda p: (p / "view2_synthetic.csv").unlink(), "at least one view2_"),
    (lambda p: write(p / "labels.csv", "id,label\n1,a\n"), "named 'bag_id'"),
    (lambda p: write(p / "labels.csv", "bag_id,label\n0,a\n0,b\n"), "more than once"),
    (lambda p: write(p / "labels.csv", "bag_id,klass\n0,a\n"), "'label' column"),
    (lambda p: write(p / "view1_synthetic-1.csv", "bag_id,x\n99,1.0\n"), "not in labels.csv"),
    (lambda p: write(p / "view1_synthetic-1.csv", "bag_id,x\n0,1.0\n"), "have no instance"),
    (lambda p: write(p / "view1_synthetic-1.csv", "bag_id,x\n0,abc\n"), "non-numeric"),
    (lambda p: write(p / "view1_synthetic-1.csv", "bag_id\n0\n"), "no feature columns"),
    (lambda p: write(p / "view1_synthetic-1.csv", ""), "not a readable CSV"),
])
def test_malformed_folders_raise_a_clear_error(folder, damage, message):
    path, _ = folder
    damage(path)
    with pytest.raises(DataFormatError, match=message):
        read_two_view_folder(path)


def test_not_a_folder(tmp_path):
    with pytest.raises(DataFormatError, match="not a folder"):
        read_two_view_folder(tmp_path / "nowhere")


def test_container_checks_and_subset():
    data = synthetic_two_view_bags(n_clusters=3, bags_per_cluster=5, seed=0)
    two = data.subset([2, 0])
    assert two.class_names == ("cluster 2", "cluster 0") and two.labels.tolist() == [1] * 5 + [0] * 5
    np.testing.assert_array_equal(two.first.bag(0), data.first.bag(0))
    with pytest.raises(InputError, match="generator="):
        data.views("lbp")
    with pytest.raises(InputError, match="15 bags"):
        TwoViewBags("x", data.labels, data.class_names, "a", data.first,
                    {"b": BagDataset.from_bags([[[0.0]]])})
