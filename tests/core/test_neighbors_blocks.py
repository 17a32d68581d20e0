"""core.neighbors.nearest_neighbors across many Gram blocks, against brute-force numpy."""

import numpy as np
import pytest

import milab_widgets.core.neighbors as neighbors_module
from milab_widgets.core.neighbors import nearest_neighbors


def _brute_force(queries, references, k, exclude_self):
    squared = ((queries[:, None, :] - references[None, :, :]) ** 2).sum(axis=2)
    if exclude_self:
        np.fill_diagonal(squared, np.inf)
    order = np.argsort(squared, axis=1, kind="stable")[:, :k]  # ties: lower index first
    return order, np.take_along_axis(squared, order, axis=1)


@pytest.mark.parametrize("tile_rows", [1, 3, 50])
@pytest.mark.parametrize("exclude_self", [False, True])
def test_blocks_equal_brute_force(monkeypatch, tile_rows, exclude_self):
    monkeypatch.setattr(neighbors_module, "_TILE_ROWS", tile_rows)
    rng = np.random.default_rng(tile_rows)
    references = rng.integers(0, 4, size=(40, 3)).astype(float)  # small integers: many ties
    queries = references if exclude_self else rng.integers(0, 4, size=(17, 3)).astype(float)
    indices, squared = nearest_neighbors(queries, references, 6, exclude_self=exclude_self)
    expected_indices, expected_squared = _brute_force(queries, references, 6, exclude_self)
    np.testing.assert_allclose(squared, expected_squared, atol=1e-12)
    np.testing.assert_array_equal(indices, expected_indices)
