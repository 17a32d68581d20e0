"""nearest_bags: the full matrix's answer, block by block, in memory and on Dask; the
classifiers' blocked route; a run under a memory limit the full matrix cannot fit."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import sklearn

from milab_widgets.core.column_top_k import smallest_per_column
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil import BagKNN, CitationKNN, bag_distances, nearest_bags

from .conftest import random_bags

METRICS = ("min", "max", "average")


def full_matrix_answer(distances, k, exclude_self):
    """The definition: a stable argsort of each row of the full matrix (self excluded)."""
    distances = distances.copy()
    if exclude_self:
        np.fill_diagonal(distances, np.inf)
    order = np.argsort(distances, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(distances, order, axis=1), order


def tie_bags(seed, n_pairs=12, n_features=2):
    """Integer-valued bags with many equal distances: each bag with its mirror image (so the
    instances' mean is exactly 0 and centring stays exact, making every path compute
    identical distances) plus exact copies of some bags at higher indices."""
    rng = np.random.default_rng(seed)
    bags = [rng.integers(-3, 4, size=(rng.integers(1, 4), n_features)).astype(float)
            for _ in range(n_pairs)]
    bags = bags + [-bag for bag in bags]
    copies = bags[: n_pairs // 2]
    bags = bags + [bag.copy() for bag in copies] + [-bag for bag in copies]
    return BagDataset.from_bags(bags)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("block_size", [1, 2, 7, 30, 43])
def test_each_bags_neighbours_equal_the_full_matrix_answer(metric, block_size):
    bags = random_bags(11, n_bags=30)
    expected_d, expected_i = full_matrix_answer(bag_distances(bags)[metric], 6, True)
    distances, indices = nearest_bags(bags, n_neighbors=6, metric=metric,
                                      block_size=block_size)
    np.testing.assert_array_equal(indices, expected_i)
    np.testing.assert_allclose(distances, expected_d, rtol=1e-12, atol=1e-12)
    assert distances.shape == indices.shape == (30, 6)
    assert distances.dtype == np.float64 and indices.dtype == np.int64


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("block_size", [1, 4, 11, 50])
def test_query_neighbours_equal_the_full_matrix_answer(metric, block_size):
    bags, queries = random_bags(12, n_bags=25), random_bags(13, n_bags=11)
    full = bag_distances(queries, bags)[metric]
    for k in (1, 5, 25):  # k = every bag: the whole row, sorted
        expected_d, expected_i = full_matrix_answer(full, k, False)
        distances, indices = nearest_bags(bags, queries, n_neighbors=k, metric=metric,
                                          block_size=block_size)
        np.testing.assert_array_equal(indices, expected_i)
        np.testing.assert_allclose(distances, expected_d, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("seed", range(4))
def test_ties_go_to_the_lower_index_exactly_as_a_stable_argsort(metric, seed):
    bags = tie_bags(seed)
    n = len(bags)
    full = bag_distances(bags)[metric]
    expected_d, expected_i = full_matrix_answer(full, n - 1, True)
    assert (np.diff(expected_d, axis=1) == 0).sum() > n, "the data must hold many ties"
    for block_size in (1, 5, n, n + 3):
        distances, indices = nearest_bags(bags, n_neighbors=n - 1, metric=metric,
                                          block_size=block_size)
        np.testing.assert_array_equal(indices, expected_i)
        np.testing.assert_array_equal(distances, expected_d)
    # queries that duplicate bags: the copy at the lower index comes first
    queries = bags[np.arange(0, n, 3)]
    expected_d, expected_i = full_matrix_answer(bag_distances(queries, bags)[metric], 8, False)
    distances, indices = nearest_bags(bags, queries, n_neighbors=8, metric=metric,
                                      block_size=4)
    np.testing.assert_array_equal(indices, expected_i)
    np.testing.assert_array_equal(distances, expected_d)


def test_an_identical_bag_is_a_neighbour_but_never_the_bag_itself():
    bags = BagDataset.from_bags([[[0.0, 0.0]], [[0.0, 0.0]], [[3.0, 4.0]], [[0.0, 0.0]]])
    distances, indices = nearest_bags(bags, n_neighbors=2, block_size=3)
    assert indices.tolist() == [[1, 3], [0, 3], [0, 1], [0, 1]]
    assert distances[:, 0].tolist() == [0.0, 0.0, 5.0, 0.0]


def test_a_list_of_arrays_gives_what_its_bag_dataset_gives():
    bags = random_bags(14, n_bags=12)
    as_list = [np.array(bag) for bag in bags]
    for queries, queries_list in ((None, None), (bags[:4], as_list[:4])):
        expected = nearest_bags(bags, queries, n_neighbors=3, metric="average")
        got = nearest_bags(as_list, queries_list, n_neighbors=3, metric="average")
        np.testing.assert_array_equal(got[0], expected[0])
        np.testing.assert_array_equal(got[1], expected[1])


def test_the_default_block_follows_working_memory():
    bags = random_bags(15, n_bags=20)
    expected = nearest_bags(bags, n_neighbors=4, block_size=20)
    with sklearn.config_context(working_memory=2 * 40 * 20 / 2**20):  # two bags a block
        got = nearest_bags(bags, n_neighbors=4)
    np.testing.assert_array_equal(got[1], expected[1])
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-12)


def test_the_column_kernel_takes_the_k_smallest_with_ties_and_a_skipped_row():
    rng = np.random.default_rng(16)
    distances = rng.integers(0, 5, size=(40, 19)).astype(float)  # many ties
    for k, skip_row0 in ((1, -1), (6, -1), (40, -1), (5, 3), (39, 0)):
        out_d, out_i = np.empty((19, k)), np.empty((19, k), np.int64)
        smallest_per_column(distances, k, skip_row0, out_d, out_i)
        columns = distances.T.copy()
        if skip_row0 >= 0:
            columns[np.arange(19), skip_row0 + np.arange(19)] = np.inf
        order = np.argsort(columns, axis=1, kind="stable")[:, :k]
        np.testing.assert_array_equal(out_i, order)
        np.testing.assert_array_equal(out_d, np.take_along_axis(columns, order, axis=1))


# -- bad input -------------------------------------------------------------------------------
def test_more_neighbours_than_other_bags_is_refused():
    bags = random_bags(17, n_bags=6)
    with pytest.raises(InputError, match=r"n_neighbors=6 but each query has only 5 other bags"):
        nearest_bags(bags, n_neighbors=6)
    with pytest.raises(InputError, match=r"n_neighbors=7 but each query has only 6 bags"):
        nearest_bags(bags, bags[:2], n_neighbors=7)
    with pytest.raises(InputError, match="only 0 other bags"):
        nearest_bags(bags[:1], n_neighbors=1)
    assert nearest_bags(bags, bags[:2], n_neighbors=6)[1].shape == (2, 6)


@pytest.mark.parametrize("bad", [0, -1, 2.5, "3", None])
def test_a_neighbour_count_below_one_or_not_an_integer_is_refused(bad):
    with pytest.raises(ValueError, match="'n_neighbors' parameter of nearest_bags"):
        nearest_bags(random_bags(18, n_bags=5), n_neighbors=bad)


@pytest.mark.parametrize("metric", ["euclidean", "integrated", "MIN", None])
def test_an_unknown_metric_is_refused(metric):
    with pytest.raises(ValueError, match="'metric' parameter of nearest_bags"):
        nearest_bags(random_bags(19, n_bags=5), n_neighbors=1, metric=metric)


@pytest.mark.parametrize("block_size", [0, -3, 1.5])
def test_a_bad_block_size_is_refused(block_size):
    with pytest.raises(ValueError, match="'block_size' parameter of nearest_bags"):
        nearest_bags(random_bags(20, n_bags=5), n_neighbors=1, block_size=block_size)


def test_empty_or_malformed_bags_are_refused_naming_the_argument():
    bags = random_bags(21, n_bags=5)
    with pytest.raises(InputError, match="bags is empty"):
        nearest_bags([], n_neighbors=1)
    with pytest.raises(InputError, match="queries is empty"):
        nearest_bags(bags, [], n_neighbors=1)
    with pytest.raises(InputError, match="bags must be a BagDataset or a list of 2-D arrays"):
        nearest_bags("bags", n_neighbors=1)
    with pytest.raises(InputError, match="bags: bag 1 has 1 dimension"):
        nearest_bags([np.zeros((2, 3)), np.zeros(3)], n_neighbors=1)
    with pytest.raises(InputError, match="empty"):
        nearest_bags([np.zeros((2, 3)), np.zeros((0, 3))], n_neighbors=1)
    with pytest.raises(InputError, match="query bags have 3 features but the training bags"):
        nearest_bags(bags, [np.zeros((2, 3))], n_neighbors=1)
    with pytest.raises(InputError, match="NaN"):
        nearest_bags([np.zeros((2, 3)), np.full((1, 3), np.nan)], n_neighbors=1)


# -- Dask ------------------------------------------------------------------------------------
@pytest.mark.parametrize("metric", METRICS)
def test_the_dask_route_equals_the_in_memory_one(metric):
    pytest.importorskip("dask")
    bags, queries = random_bags(22, n_bags=23), random_bags(23, n_bags=9)
    for query_bags in (None, queries):
        expected = nearest_bags(bags, query_bags, n_neighbors=4, metric=metric, block_size=4)
        for scheduler in ("threads", "synchronous"):
            got = nearest_bags(bags, query_bags, n_neighbors=4, metric=metric, block_size=4,
                               scheduler=scheduler)
            np.testing.assert_array_equal(got[0], expected[0])
            np.testing.assert_array_equal(got[1], expected[1])


def test_a_distributed_client_gives_the_in_memory_answer():
    distributed = pytest.importorskip("dask.distributed")
    bags = random_bags(24, n_bags=21)
    expected = nearest_bags(bags, n_neighbors=3, metric="average", block_size=5)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        got = nearest_bags(bags, n_neighbors=3, metric="average", block_size=5,
                           scheduler=client)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


# -- the classifiers' blocked route ----------------------------------------------------------
TINY = 1e-6  # MiB of working_memory: every matrix is "too large", one bag per block


@pytest.fixture
def train_and_query():
    bags = random_bags(25, n_bags=52, shift=0.0)
    instances = bags.instances.copy()  # positives carry one instance near a concept point
    instances[bags.offsets[:-1][bags.labels == 1]] += 4.0
    bags = bags.with_instances(instances)
    return bags[np.arange(38)], bags[np.arange(38, 52)]


@pytest.mark.parametrize("metric", ["min", "max", "average", "adapted", "integrated"])
@pytest.mark.parametrize("make", [
    lambda **kw: BagKNN(n_neighbors=3, **kw),
    lambda **kw: CitationKNN(references=2, **kw),
    lambda **kw: CitationKNN(references=3, citers=1, scale="standard", **kw),
    lambda **kw: CitationKNN(references=2, citers=40, **kw),  # more citers than bags
], ids=["knn", "citation-knn", "citation-knn-scaled", "citation-knn-all-cite"])
def test_classifiers_beyond_working_memory_vote_as_with_the_full_matrices(
        train_and_query, make, metric):
    train, query = train_and_query
    params = {"alpha": 0.3} if metric == "integrated" else {}
    full = make(metric=metric, **params).fit(train, train.labels)
    assert full.train_distances_ is not None
    with sklearn.config_context(working_memory=TINY):
        blocked = make(metric=metric, **params).fit(train, train.labels)
        assert blocked.train_distances_ is None  # no n x n matrix was kept (or built)
        votes = blocked.decision_function(query)
        predicted = blocked.predict(query)
        grid = blocked.decision_function_grid(query, [1, 2, 5])
        references = blocked.reference_indices(query)
    np.testing.assert_array_equal(votes, full.decision_function(query))
    np.testing.assert_array_equal(predicted, full.predict(query))
    np.testing.assert_array_equal(grid, full.decision_function_grid(query, [1, 2, 5]))
    np.testing.assert_array_equal(references, full.reference_indices(query))
    if isinstance(full, CitationKNN):
        np.testing.assert_allclose(blocked.citation_radius_, full.citation_radius_,
                                   rtol=1e-12, atol=1e-12)


def test_a_full_fit_still_predicts_block_by_block_when_the_queries_are_many(train_and_query):
    train, query = train_and_query
    model = CitationKNN(references=2, metric="average").fit(train, train.labels)
    expected = model.decision_function(query)
    with sklearn.config_context(working_memory=38 * 4 * 40 / 2**20):  # 4 query bags fit
        assert model._blocked(query) and not model._blocked(query[:4])
        np.testing.assert_array_equal(model.decision_function(query), expected)


def test_nca_tuning_and_precomputed_distances_keep_the_full_route(train_and_query):
    train, query = train_and_query
    with sklearn.config_context(working_memory=TINY):
        tuned = CitationKNN(references=2, metric="integrated", alpha=None).fit(
            train, train.labels)
        assert tuned.train_distances_ is not None  # NCA needs the whole training matrices
        assert tuned.predict(query).shape == (len(query),)
        matrices = bag_distances(train)
        model = BagKNN(n_neighbors=3, metric="max").fit(matrices, train.labels)
        queries = bag_distances(query, train)
        assert not model._blocked(queries)
        np.testing.assert_array_equal(
            model.predict(queries),
            BagKNN(n_neighbors=3, metric="max").fit(train, train.labels).predict(query))


# -- beyond memory ---------------------------------------------------------------------------
#: Bags in the memory-limit run: their n x n float64 matrix (1.9 GiB) is 3.8 times what the
#: limit leaves beyond the interpreter (0.5 GiB), the three bag_distances matrices 11 times.
N_LIMITED = 16_000
HEADROOM_GIB = 0.5

LIMITED_RUN = textwrap.dedent("""
    import os, resource, sys, time
    import numpy as np
    import milab_widgets.core.parallel as parallel
    from milab_widgets.data.bags import BagDataset
    from milab_widgets.mil import nearest_bags

    def vm_bytes(key):
        for line in open("/proc/self/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024

    n, headroom = int(sys.argv[1]), float(sys.argv[2]) * 2**30
    rng = np.random.default_rng(0)
    offsets = np.concatenate([[0], np.cumsum(rng.integers(2, 4, n))])
    bags = BagDataset(rng.uniform(0, 100, (offsets[-1], 2)), offsets)
    nearest_bags(bags[:64], n_neighbors=3, block_size=16)  # kernels loaded
    # every tile helper started now (threads start on first use, each reserving address
    # space): the call below may bring them in whatever the load is then
    counted, parallel.free_cores = parallel.free_cores, lambda: os.cpu_count()
    parallel.run_tiles(range(64), lambda tile, scratch: time.sleep(0.001))
    parallel.free_cores = counted
    limit = int(vm_bytes("VmSize") + headroom)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    assert n * n * 8 > 1.5 * limit, (n, limit)
    try:
        np.ones((n, n))
        sys.exit("an n x n float64 matrix fitted under the limit")
    except MemoryError:
        pass
    started = time.perf_counter()
    distances, indices = nearest_bags(bags, n_neighbors=3, block_size=256)
    seconds = time.perf_counter() - started
    rows = np.array([0, 1, n // 2, n - 1])
    bag_of = np.repeat(np.arange(n), np.diff(offsets))
    for row in rows:  # brute force by the definition: min over instance pairs, per bag
        own = bags.instances[offsets[row]:offsets[row + 1]]
        pair = np.sqrt(((own[:, None, :] - bags.instances[None, :, :]) ** 2).sum(-1)).min(0)
        brute = np.minimum.reduceat(pair, offsets[:-1])
        brute[row] = np.inf
        np.testing.assert_allclose(distances[row], np.sort(brute)[:3], rtol=1e-9, atol=1e-6)
        np.testing.assert_allclose(brute[indices[row]], distances[row], rtol=1e-9, atol=1e-6)
    assert (indices != np.arange(n)[:, None]).all()
    print(f"ok limit={limit / 2**20:.0f}MiB peak={vm_bytes('VmPeak') / 2**20:.0f}MiB "
          f"seconds={seconds:.1f}")
""")


@pytest.mark.slow
def test_nearest_bags_runs_where_the_full_matrix_cannot_be_allocated():
    result = subprocess.run(
        [sys.executable, "-c", LIMITED_RUN, str(N_LIMITED), str(HEADROOM_GIB)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok"), result.stdout
