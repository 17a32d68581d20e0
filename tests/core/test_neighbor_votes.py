"""nearest_candidates (the scan every vote starts from) against a stable argsort."""

import numpy as np
import pytest

from milab_widgets.core.neighbor_votes import nearest_candidates


@pytest.mark.parametrize("seed", range(30))
def test_equals_a_stable_argsort_restricted_to_the_candidates(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    distances = rng.integers(0, 5, size=(n, n)).astype(float)  # many ties
    candidates = np.flatnonzero(rng.random(n) < 0.7)
    row = int(rng.integers(n))
    skip = int(rng.choice(candidates)) if len(candidates) and seed % 2 else -1
    size = int(rng.integers(1, 12))
    nearest, at = np.empty(size), np.empty(size, dtype=np.int64)
    found = nearest_candidates(distances, row, candidates, skip, nearest, at)
    kept = candidates[candidates != skip]
    expected = kept[np.argsort(distances[row, kept], kind="stable")][:size]
    assert found == len(expected)
    np.testing.assert_array_equal(at[:found], expected)
    np.testing.assert_array_equal(nearest[:found], distances[row, expected])
