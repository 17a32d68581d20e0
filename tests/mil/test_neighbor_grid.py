"""decision_function_grid: the votes of every K from one ranking equal separate fits."""

import numpy as np
import pytest

from milab_widgets.mil import BagKNN, CitationKNN


def _tied_problem(seed: int, n_train: int = 23, n_query: int = 9):
    """Small-integer distances (many ties) over min/max matrices, and labels."""
    rng = np.random.default_rng(seed)
    points = rng.integers(0, 4, size=(n_train + n_query, 2)).astype(float)
    d_min = np.abs(points[:, :1] - points[:, :1].T)
    d_max = d_min + np.abs(points[:, 1:] - points[:, 1:].T)
    y = np.arange(n_train) % 2
    train, query = np.arange(n_train), np.arange(n_train, n_train + n_query)

    def part(rows):
        return {"min": d_min[np.ix_(rows, train)], "max": d_max[np.ix_(rows, train)]}

    return part(train), part(query), y


@pytest.mark.parametrize("metric", ["min", "max", "adapted", "integrated"])
@pytest.mark.parametrize("make", [
    lambda k, **kw: BagKNN(n_neighbors=k, **kw),
    lambda k, **kw: CitationKNN(references=k, **kw),
    lambda k, **kw: CitationKNN(references=k, citers=4, **kw),
])
def test_grid_votes_equal_one_fit_per_k(make, metric):
    ks = [1, 2, 3, 5, 8, 21]  # 21: C = 23 >= n_train, every training bag a citer
    params = {"metric": metric, "alpha": 0.3 if metric == "integrated" else None}
    for seed in range(3):
        train, query, y = _tied_problem(seed)
        grid = make(max(ks), **params).fit(train, y).decision_function_grid(query, ks)
        assert grid.shape == (len(ks), 9)
        for k, votes in zip(ks, grid, strict=True):
            expected = make(k, **params).fit(train, y).decision_function(query)
            np.testing.assert_array_equal(votes, expected)
