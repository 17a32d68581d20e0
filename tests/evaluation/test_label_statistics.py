"""label_statistics against a brute-force loop over rows and labels, plus its edge cases."""

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from milab_widgets.evaluation.label_statistics import label_statistics
from milab_widgets.exceptions import InputError

#: An undefined ratio is marked missing, never computed as 0 / 0.
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


def brute_statistics(Y, inside):
    """Per label, counted row by row: (rows inside, share inside, share of all, lift), with
    None where a ratio's denominator is 0."""
    rows = []
    for j in range(Y.shape[1]):
        n_all = n_in = carry_all = carry_in = 0
        for i in range(Y.shape[0]):
            n_all += 1
            carry_all += int(Y[i, j] == 1)
            if inside[i]:
                n_in += 1
                carry_in += int(Y[i, j] == 1)
        share_in = carry_in / n_in if n_in else None
        share_all = carry_all / n_all
        lift = share_in / share_all if share_in is not None and carry_all else None
        rows.append((carry_in, share_in, share_all, lift))
    return rows


def assert_matches_brute(stats, Y, inside):
    assert list(stats.columns) == ["rows inside", "share inside", "share of all rows", "lift"]
    for j, expected in enumerate(brute_statistics(Y, inside)):
        for column, value in zip(stats.columns, expected, strict=True):
            cell = stats[column].iloc[j]
            if value is None:
                assert cell is pd.NA, (column, j, cell)
            else:
                assert cell == pytest.approx(value, rel=1e-12), (column, j)
    assert_no_nan_or_inf(stats)


def assert_no_nan_or_inf(stats):
    """Every cell is a finite number or pd.NA (missing), never NaN or inf."""
    for column in stats.columns:
        for cell in stats[column]:
            assert cell is pd.NA or np.isfinite(cell), (column, cell)


def random_labels(seed, n=60, labels=7, absent=(2, 5)):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, labels)) < rng.uniform(0.05, 0.6, size=labels)).astype(np.int64)
    Y[:, list(absent)] = 0  # labels no row carries
    return Y, rng


@pytest.mark.parametrize("seed", range(6))
def test_equals_the_row_by_row_count(seed):
    Y, rng = random_labels(seed)
    inside = rng.random(len(Y)) < 0.3
    assert inside.any() and not inside.all()
    stats = label_statistics(Y, inside, [f"label {j}" for j in range(Y.shape[1])])
    assert list(stats.index) == [f"label {j}" for j in range(Y.shape[1])]
    assert stats.index.name == "label" and stats["rows inside"].dtype == np.int64
    assert_matches_brute(stats, Y, inside)


def test_lift_is_the_ratio_of_the_two_shares_and_averages_to_one_over_the_rows():
    """Weighted by the subset sizes, the shares of a partition of the rows add up to the
    share of all rows: sum_S |S| / n * lift_S = 1 for every label that occurs."""
    Y, rng = random_labels(3, n=90, absent=())
    groups = rng.integers(0, 4, size=len(Y))
    total = np.zeros(Y.shape[1])
    for g in range(4):
        stats = label_statistics(Y, groups == g)
        total += (groups == g).mean() * stats["lift"].to_numpy(dtype=float)
    np.testing.assert_allclose(total, 1.0, rtol=1e-12)


def test_empty_subset_has_no_shares_and_no_lift():
    Y, _ = random_labels(1)
    stats = label_statistics(Y, np.zeros(len(Y), dtype=bool))
    assert (stats["rows inside"] == 0).all()
    assert stats["share inside"].isna().all() and stats["lift"].isna().all()
    np.testing.assert_allclose(stats["share of all rows"].to_numpy(dtype=float), Y.mean(axis=0))
    assert_matches_brute(stats, Y, np.zeros(len(Y), dtype=bool))


def test_all_rows_inside_give_lift_one_except_for_absent_labels():
    Y, _ = random_labels(2, absent=(0, 4))
    stats = label_statistics(Y, np.ones(len(Y), dtype=bool))
    present = Y.sum(axis=0) > 0
    np.testing.assert_array_equal(stats["rows inside"], Y.sum(axis=0))
    assert (stats["share inside"].to_numpy(dtype=float) == Y.mean(axis=0)).all()
    assert (stats["lift"][present] == 1.0).all()
    assert stats["lift"][~present].isna().all()


def test_a_label_no_row_carries_has_shares_zero_and_no_lift():
    Y = np.array([[1, 0], [0, 0], [1, 0]])
    stats = label_statistics(Y, np.array([True, True, False]), ["a", "never"])
    assert stats.loc["never", "rows inside"] == 0
    assert stats.loc["never", "share inside"] == 0.0
    assert stats.loc["never", "share of all rows"] == 0.0
    assert stats.loc["never", "lift"] is pd.NA
    assert stats.loc["a", "lift"] == pytest.approx((1 / 2) / (2 / 3))


@pytest.mark.parametrize("layout", ["csr", "csc", "bool"])
def test_sparse_and_boolean_labels_give_the_dense_answer(layout):
    Y, rng = random_labels(4)
    inside = rng.random(len(Y)) < 0.4
    other = {"csr": sparse.csr_matrix, "csc": sparse.csc_matrix,
             "bool": lambda m: m.astype(bool)}[layout](Y)
    pd.testing.assert_frame_equal(label_statistics(other, inside), label_statistics(Y, inside))


@pytest.mark.parametrize("Y, inside, names, message", [
    (np.ones(4), np.ones(4, bool), None, "2-D label matrix"),
    (np.ones((0, 3)), np.ones(0, bool), None, "no rows"),
    (np.array([[0, 2], [1, 0]]), np.ones(2, bool), None, "only 0 and 1"),
    (sparse.csr_matrix(np.array([[0, 0.5], [1, 0]])), np.ones(2, bool), None, "only 0 and 1"),
    (np.array([[0, np.nan], [1, 0]]), np.ones(2, bool), None, "only 0 and 1"),
    (np.ones((3, 2)), np.array([1, 0, 1]), None, "boolean mask"),
    (np.ones((3, 2)), np.ones(2, bool), None, "one entry per row of Y (3)"),
    (np.ones((3, 2)), np.ones(3, bool), ["a"], "one name per column"),
])
def test_bad_input_is_named(Y, inside, names, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        label_statistics(Y, inside, names)
