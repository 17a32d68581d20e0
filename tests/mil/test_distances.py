import numpy as np
import pytest

import milab_widgets.core.hausdorff as hausdorff_module
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil import adapted_distance, bag_distances, integrated_distance, metric_distance

from .conftest import brute_force_distances, random_bags


def test_seed_worked_example():
    # The intH paper §1.1: A = {-1,-2,-3}, B = {1,2,50}: h(A,B)=4, h(B,A)=51, maxH=51, minH=2.
    bags = BagDataset.from_bags([[[-1.0], [-2.0], [-3.0]], [[1.0], [2.0], [50.0]]])
    d = bag_distances(bags)
    assert d["max"][0, 1] == pytest.approx(51.0)
    assert d["min"][0, 1] == pytest.approx(2.0)
    # average: row minima 2, 3, 4 and column minima 2, 3, 51 over 6 instances
    assert d["average"][0, 1] == pytest.approx((2 + 3 + 4 + 2 + 3 + 51) / 6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_symmetric_matrices_equal_brute_force(seed):
    bags = random_bags(seed, n_bags=17)
    fast, slow = bag_distances(bags), brute_force_distances(bags, bags)
    for kind in fast:
        np.testing.assert_allclose(fast[kind], slow[kind], rtol=1e-9, atol=1e-9)


def test_query_by_train_matrices_equal_brute_force():
    train, query = random_bags(3, n_bags=11), random_bags(4, n_bags=6, max_size=3)
    fast, slow = bag_distances(query, train), brute_force_distances(query, train)
    for kind in fast:
        assert fast[kind].shape == (6, 11)
        np.testing.assert_allclose(fast[kind], slow[kind], rtol=1e-9, atol=1e-9)


def test_many_chunks_give_the_same_matrices(monkeypatch):
    bags = random_bags(5, n_bags=25)
    whole = bag_distances(bags)
    monkeypatch.setattr(hausdorff_module, "_BLOCK_FLOATS", 40)  # a few bags per Gram tile
    monkeypatch.setattr(hausdorff_module, "_PANEL_ROWS", 7)
    chunked = bag_distances(bags)
    chunked_query = bag_distances(bags[np.arange(7)], bags)
    for kind in whole:
        np.testing.assert_allclose(chunked[kind], whole[kind], rtol=1e-12, atol=1e-12)
        # identical bags: the Gram route's error on a zero distance is ~sqrt(eps) * ||x||
        np.testing.assert_allclose(chunked_query[kind], whole[kind][:7], rtol=1e-9, atol=1e-6)


def _panelled(monkeypatch, rows: int, floats: int) -> None:
    """Force many Gram tiles: panels of ``rows`` instances, tiles of ``floats`` entries."""
    monkeypatch.setattr(hausdorff_module, "_PANEL_ROWS", rows)
    monkeypatch.setattr(hausdorff_module, "_BLOCK_FLOATS", floats)


@pytest.mark.parametrize("rows, floats", [(1, 1), (5, 30), (9, 200)])
def test_symmetric_tiles_equal_brute_force(monkeypatch, rows, floats):
    # syrk tiles, GEMM tiles split by columns, and bags larger than a panel (max_size 12)
    bags = random_bags(6, n_bags=23, max_size=12)
    _panelled(monkeypatch, rows, floats)
    fast, slow = bag_distances(bags), brute_force_distances(bags, bags)
    for kind in fast:
        np.testing.assert_allclose(fast[kind], slow[kind], rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(fast[kind], fast[kind].T)
        np.testing.assert_array_equal(np.diag(fast[kind]), 0.0)


@pytest.mark.parametrize("rows, floats", [(1, 1), (4, 25), (50, 10_000)])
def test_query_tiles_equal_brute_force(monkeypatch, rows, floats):
    train, query = random_bags(7, n_bags=19, max_size=9), random_bags(8, n_bags=13)
    _panelled(monkeypatch, rows, floats)
    fast, slow = bag_distances(query, train), brute_force_distances(query, train)
    for kind in fast:
        np.testing.assert_allclose(fast[kind], slow[kind], rtol=1e-9, atol=1e-9)


def test_one_thread_path_equals_brute_force(monkeypatch):
    # one numba thread: panels one after another with the parallel kernel (the other tests,
    # with several threads and many panels, take the thread-pool path)
    import numba

    bags = random_bags(12, n_bags=15, max_size=8)
    _panelled(monkeypatch, 6, 60)
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        fast, fast_query = bag_distances(bags), bag_distances(bags[np.arange(5)], bags)
    finally:
        numba.set_num_threads(previous)
    slow = brute_force_distances(bags, bags)
    for kind in fast:
        np.testing.assert_allclose(fast[kind], slow[kind], rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(fast_query[kind], slow[kind][:5], rtol=1e-9, atol=1e-6)


def test_one_bag():
    bag = random_bags(9, n_bags=1, max_size=5)
    for matrix in bag_distances(bag).values():
        np.testing.assert_array_equal(matrix, [[0.0]])


def _float32_bound(query: BagDataset, bags: BagDataset, exact: np.ndarray) -> np.ndarray:
    """The documented float32 error: min(delta / (2 D), sqrt(delta)), delta = 2 d eps32 R^2,
    R the largest distance of an instance to the (query) mean the kernel centres on."""
    instances = np.vstack([query.instances, bags.instances])
    radius_sq = ((instances - query.instances.mean(axis=0)) ** 2).sum(axis=1).max()
    delta = 2 * bags.n_features * np.finfo(np.float32).eps * radius_sq
    with np.errstate(divide="ignore"):
        return np.minimum(delta / (2 * exact), np.sqrt(delta))


@pytest.mark.parametrize("symmetric", [True, False])
def test_float32_within_its_documented_bound(monkeypatch, symmetric):
    # far from the origin (shift 1e4): without centring float32 would lose every digit
    bags = random_bags(10, n_bags=21, n_features=30, max_size=10, shift=1e4)
    query = bags if symmetric else random_bags(11, n_bags=8, n_features=30, shift=1e4)
    _panelled(monkeypatch, 16, 400)
    fast = bag_distances(query, None if symmetric else bags, precision="float32")
    slow = brute_force_distances(query, bags)
    for kind in fast:
        assert fast[kind].dtype == np.float64
        error = np.abs(fast[kind] - slow[kind])
        assert (error <= _float32_bound(query, bags, slow[kind])).all()
        # and it is single precision, not double: the error is far above float64's
        assert error.max() > 1e-9 * slow[kind].max()


def test_bad_precision(small_bags):
    with pytest.raises(ValueError, match="precision"):
        bag_distances(small_bags, precision="float16")


def test_properties(small_bags):
    d = bag_distances(small_bags)
    for matrix in d.values():
        np.testing.assert_array_equal(matrix, matrix.T)
        np.testing.assert_array_equal(np.diag(matrix), 0.0)
    assert (d["min"] <= d["average"] + 1e-12).all()
    assert (d["average"] <= d["max"] + 1e-12).all()


def test_invariant_to_translation_and_instance_order(small_bags):
    d = bag_distances(small_bags)
    moved = small_bags.with_instances(small_bags.instances + 1e3)
    rng = np.random.default_rng(0)
    shuffled = BagDataset.from_bags([rng.permutation(bag) for bag in small_bags])
    for other in (bag_distances(moved), bag_distances(shuffled)):
        for kind in d:
            np.testing.assert_allclose(other[kind], d[kind], rtol=1e-7, atol=1e-7)


def test_kinds_selects_matrices(small_bags):
    assert list(bag_distances(small_bags, kinds=("max",))) == ["max"]
    assert list(bag_distances(small_bags, kinds="min")) == ["min"]
    with pytest.raises(InputError, match="integrated_distance"):
        bag_distances(small_bags, kinds=("integrated",))


def test_bad_inputs(small_bags):
    with pytest.raises(InputError, match="BagDataset"):
        bag_distances([[1.0, 2.0]])
    other = BagDataset.from_bags([np.ones((2, 3))])
    with pytest.raises(InputError, match="features"):
        bag_distances(small_bags, other)


def test_integrated_is_the_convex_combination(small_bags):
    d = bag_distances(small_bags)
    np.testing.assert_array_equal(integrated_distance(d["min"], d["max"], 1.0), d["min"])
    np.testing.assert_array_equal(integrated_distance(d["min"], d["max"], 0.0), d["max"])
    np.testing.assert_allclose(integrated_distance(d["min"], d["max"], 0.25),
                               0.25 * d["min"] + 0.75 * d["max"])
    with pytest.raises(ValueError, match=r"'alpha' .* \[0.0, 1.0\]"):
        integrated_distance(d["min"], d["max"], 1.5)


def test_adapted_picks_by_the_column_bag_label():
    d_min, d_max = np.array([[1.0, 2.0, 3.0]]), np.array([[10.0, 20.0, 30.0]])
    np.testing.assert_array_equal(adapted_distance(d_min, d_max, [1, 0, 1]), [[1.0, 20.0, 3.0]])
    with pytest.raises(InputError, match="one label per column"):
        adapted_distance(d_min, d_max, [1, 0])


def test_musk1_equals_brute_force(require_dataset):
    musk1 = require_dataset("musk1")
    some = musk1[np.arange(0, len(musk1), 3)]
    fast, slow = bag_distances(some, musk1), brute_force_distances(some, musk1)
    for kind in fast:  # musk1's instances have norms ~1e3: zero distances come out ~1e-5
        np.testing.assert_allclose(fast[kind], slow[kind], rtol=1e-8, atol=1e-4)
    full = bag_distances(musk1)
    np.testing.assert_allclose(full["min"][::3], fast["min"], rtol=1e-8, atol=1e-4)


def test_metric_distance_combines_the_base_matrices(small_bags):
    d = bag_distances(small_bags)
    labels = small_bags.labels
    np.testing.assert_array_equal(metric_distance(d, "average"), d["average"])
    np.testing.assert_array_equal(metric_distance(d, "integrated", alpha=0.2),
                                  integrated_distance(d["min"], d["max"], 0.2))
    np.testing.assert_array_equal(metric_distance(d, "adapted", labels=labels),
                                  np.where(labels[None, :] == 1, d["min"], d["max"]))
    for metric, message in [("integrated", "alpha"), ("adapted", "labels"), ("euclid", "metric")]:
        with pytest.raises(ValueError, match=message):  # InvalidParameterError for metric
            metric_distance(d, metric)
