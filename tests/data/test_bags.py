"""BagDataset: construction, indexing, round trips and input errors."""

import numpy as np
import pytest

from milab_widgets.data import BagDataset
from milab_widgets.exceptions import InputError

BAGS = [
    [[0.0, 1.0], [2.0, 3.0]],
    [[4.0, 5.0]],
    [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]],
]


@pytest.fixture
def bags():
    return BagDataset.from_bags(BAGS, labels=[1, 0, 1], name="toy")


def test_from_bags_stores_one_matrix_and_offsets(bags):
    assert bags.instances.shape == (6, 2)
    assert bags.instances.dtype == np.float64 and bags.instances.flags.c_contiguous
    assert bags.offsets.tolist() == [0, 2, 3, 6]
    assert bags.bag_sizes.tolist() == [2, 1, 3]
    assert bags.instance_bag_index.tolist() == [0, 0, 1, 2, 2, 2]
    assert (len(bags), bags.n_features, bags.n_instances) == (3, 2, 6)
    assert bags.labels.tolist() == [1, 0, 1]
    assert bags.bag_ids.tolist() == [0, 1, 2]


def test_round_trip_through_bag_list(bags):
    rebuilt = BagDataset.from_bags(list(bags), labels=bags.labels)
    for original, bag in zip(BAGS, rebuilt, strict=True):
        np.testing.assert_array_equal(bag, original)
    np.testing.assert_array_equal(rebuilt.offsets, bags.offsets)


def test_int_index_gives_the_bag_matrix(bags):
    np.testing.assert_array_equal(bags[2], BAGS[2])
    np.testing.assert_array_equal(bags[-1], BAGS[2])
    with pytest.raises(IndexError):
        bags[3]


@pytest.mark.parametrize(
    "index, expected",
    [
        (np.array([2, 0]), [2, 0]),
        (slice(1, None), [1, 2]),
        (np.array([True, False, True]), [0, 2]),
    ],
)
def test_selection_gives_a_new_dataset_in_that_order(bags, index, expected):
    subset = bags[index]
    assert isinstance(subset, BagDataset)
    assert subset.bag_ids.tolist() == expected
    assert subset.labels.tolist() == [[1, 0, 1][i] for i in expected]
    for bag, i in zip(subset, expected, strict=True):
        np.testing.assert_array_equal(bag, BAGS[i])


def test_with_instances_keeps_bags_and_checks_row_count(bags):
    doubled = bags.map_instances(lambda x: 2 * x)
    np.testing.assert_array_equal(doubled[1], [[8.0, 10.0]])
    np.testing.assert_array_equal(doubled.offsets, bags.offsets)
    with pytest.raises(InputError, match="5 rows for 6 instances"):
        bags.with_instances(np.zeros((5, 2)))


@pytest.mark.parametrize(
    "bag_list, message",
    [
        ([np.zeros((2, 2)), np.zeros((0, 2))], r"bag\(s\) \[1\] are empty"),
        ([np.zeros((2, 2)), np.zeros((1, 3))], "bag 1 has 3 features but bag 0 has 2"),
        ([np.zeros((2, 2)), np.zeros(2)], "bag 1 has 1 dimension"),
        ([], "no bags"),
        ([[[0.0], [np.nan]]], "NaN or infinity"),
        ([[[0.0], [np.inf]]], "NaN or infinity"),
    ],
)
def test_from_bags_rejects_bad_bags(bag_list, message):
    with pytest.raises(InputError, match=message):
        BagDataset.from_bags(bag_list)


@pytest.mark.parametrize(
    "offsets, message",
    [
        ([1, 2, 4], "start at 0 and end at n_instances=4"),
        ([0, 2, 3], "start at 0 and end at n_instances=4"),
        ([0, 3, 2, 4], "empty"),
        ([0, 2, 2, 4], "empty"),
        ([0.0, 2.0, 4.0], "integer"),
        ([4], "length n_bags \\+ 1"),
    ],
)
def test_constructor_rejects_bad_offsets(offsets, message):
    with pytest.raises(InputError, match=message):
        BagDataset(np.zeros((4, 2)), offsets)


@pytest.mark.parametrize(
    "keyword, value, message",
    [
        ("labels", [0, 1, 1], r"labels has shape \(3,\) but there are 2 bags"),
        ("labels", [0.5, 1.0], "integers"),
        ("bag_ids", [7], "one id per bag"),
    ],
)
def test_constructor_rejects_bad_labels_and_ids(keyword, value, message):
    with pytest.raises(InputError, match=message):
        BagDataset(np.zeros((4, 2)), [0, 2, 4], **{keyword: value})


def test_input_error_is_a_value_error():
    with pytest.raises(ValueError):
        BagDataset(np.zeros((4, 2, 1)), [0, 4])
