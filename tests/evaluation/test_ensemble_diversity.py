"""The pairwise disagreement of an ensemble's members: against a loop over the pairs, on
hand-worked cases, and bad inputs."""

from itertools import combinations

import numpy as np
import pytest

from milab_widgets.evaluation.ensemble_diversity import pairwise_disagreement
from milab_widgets.exceptions import InputError


def disagreement_by_pairs(decisions: np.ndarray) -> float:
    """Kuncheva & Whitaker's Dis_{i,j} for every pair, averaged: the definition."""
    pairs = combinations(range(decisions.shape[1]), 2)
    return float(np.mean([np.mean(decisions[:, i] != decisions[:, j]) for i, j in pairs]))


@pytest.mark.parametrize("shape", [(1, 2), (7, 3), (50, 12), (200, 31)])
def test_equals_the_mean_over_pairs(shape):
    rng = np.random.default_rng(shape[1])
    decisions = rng.random(shape) < rng.uniform(0.2, 0.8, shape[1])
    assert pairwise_disagreement(decisions) == pytest.approx(
        disagreement_by_pairs(decisions), rel=1e-12)


def test_hand_worked_cases():
    # identical members never disagree; two members that split on 3 of 4 samples: 0.75
    assert pairwise_disagreement(np.ones((5, 4), dtype=bool)) == 0.0
    assert pairwise_disagreement(np.array([[1, 0], [0, 1], [1, 1], [0, 1]], dtype=bool)) == 0.75
    # four members split 2-2 on every sample: 4 of the 6 pairs disagree
    half = np.array([[True, True, False, False]] * 3)
    assert pairwise_disagreement(half) == pytest.approx(4 / 6)


@pytest.mark.parametrize("members", [0, 1])
def test_fewer_than_two_members_have_no_diversity(members):
    assert pairwise_disagreement(np.ones((6, members), dtype=bool)) == 0.0


@pytest.mark.parametrize("decisions, match", [
    (np.ones((3, 2)), "boolean"),                     # floats, not decisions
    (np.ones(4, dtype=bool), "2-D"),                  # one member's vector
    (np.ones((0, 3), dtype=bool), "no samples"),
])
def test_bad_inputs_are_refused_by_name(decisions, match):
    with pytest.raises(InputError, match=match):
        pairwise_disagreement(decisions)
