"""Information measures against brute-force counting, scikit-learn and identities."""

from collections import Counter

import numpy as np
import pytest
from sklearn.metrics import mutual_info_score

from milab_widgets.core import information as info
from milab_widgets.multilabel.selection import LabelEntropies


def brute_entropy(*variables):
    """-sum p log p over the joint states, counted with a Counter."""
    counts = Counter(zip(*variables, strict=True))
    n = len(variables[0])
    return -sum(c / n * np.log(c / n) for c in counts.values())


def brute_mutual_information(x, y):
    """sum p(x,y) log p(x,y) / (p(x) p(y)), counted directly."""
    n = len(x)
    joint, px, py = Counter(zip(x, y, strict=True)), Counter(x), Counter(y)
    return sum(c / n * np.log((c / n) / (px[a] / n * py[b] / n)) for (a, b), c in joint.items())


@pytest.fixture
def variables():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 3, 300)
    y = (x + rng.integers(0, 2, 300)) % 4  # depends on x
    z = rng.integers(0, 2, 300)
    return x, y, z


def test_entropy_and_mutual_information_equal_counting(variables):
    x, y, z = variables
    assert info.entropy(x) == pytest.approx(brute_entropy(x))
    assert info.entropy(x, y, z) == pytest.approx(brute_entropy(x, y, z))
    assert info.mutual_information(x, y) == pytest.approx(brute_mutual_information(x, y))
    assert info.mutual_information(x, y) == pytest.approx(mutual_info_score(x, y))


def test_identities_hold(variables):
    x, y, z = variables
    assert info.mutual_information(x, y) == pytest.approx(
        info.entropy(x) + info.entropy(y) - info.entropy(x, y))
    # chain rule: I(X, Z; Y) = I(Z; Y) + I(X; Y | Z)
    assert info.joint_mutual_information([x, z], y) == pytest.approx(
        info.mutual_information(z, y) + info.conditional_mutual_information(x, y, z))
    # interaction information is symmetric in its three arguments
    values = [info.interaction_information(*p) for p in [(x, y, z), (y, z, x), (z, x, y)]]
    assert values == pytest.approx([values[0]] * 3)
    assert info.mutual_information(x, x) == pytest.approx(info.entropy(x))


def test_conditional_mutual_information_equals_weighted_counting(variables):
    x, y, z = variables
    expected = sum((z == c).mean() * brute_mutual_information(x[z == c], y[z == c])
                   for c in np.unique(z))
    assert info.conditional_mutual_information(x, y, z) == pytest.approx(expected)


def test_batch_kernel_equals_the_scalar_functions():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 3, size=(200, 5))
    Y = (rng.random((200, 4)) < 0.3).astype(np.int64)
    labels = LabelEntropies.of(Y)
    h_single, h_joint = labels.entropies(codes.T, np.full(5, 3))
    mi = labels.mutual_information(codes.T, np.full(5, 3))
    for j in range(5):
        assert h_single[j] == pytest.approx(brute_entropy(codes[:, j]))
        for label in range(4):
            assert h_joint[j, label] == pytest.approx(brute_entropy(codes[:, j], Y[:, label]))
            assert mi[j, label] == pytest.approx(mutual_info_score(codes[:, j], Y[:, label]))
    assert labels.label_entropy == pytest.approx([brute_entropy(Y[:, j]) for j in range(4)])


def test_pairwise_kernel_equals_sklearn():
    rng = np.random.default_rng(2)
    codes = np.ascontiguousarray(rng.integers(0, 2, size=(6, 150)))
    members = np.array([4, 0, 2])
    result = info.pairwise_mutual_information(codes, np.full(6, 2), members)
    for a, fa in enumerate(members):
        for b, fb in enumerate(members):
            expected = 0.0 if a == b else mutual_info_score(codes[fa], codes[fb])
            assert result[a, b] == pytest.approx(expected, abs=1e-12)


def test_joint_codes_are_distinct_per_joint_state():
    columns = np.array([[0, 0], [1, 0], [0, 2], [1, 2]])
    merged, n_states = info.joint_codes(columns, [2, 3])
    assert n_states == 4 and sorted(merged.tolist()) == [0, 1, 2, 3]
    assert merged.dtype == np.int64


def test_joint_codes_of_many_binary_experts_are_dense():
    """70 binary columns (2^70 mixed-radix states) merge into at most n dense states."""
    rng = np.random.default_rng(7)
    columns = rng.integers(0, 2, size=(300, 70))
    columns[150:] = columns[:150]  # repeated rows, so states are shared
    merged, n_states = info.joint_codes(columns, [2] * 70)
    _, counts = np.unique(columns, axis=0, return_counts=True)
    assert n_states == len(counts) <= len(columns)
    assert merged.min() == 0 and merged.max() == n_states - 1
    p = counts / len(columns)
    assert info.entropy_of_codes(merged, n_states) == pytest.approx(-(p * np.log(p)).sum(),
                                                                    abs=1e-12)
    assert info.entropy(*columns.T) == pytest.approx(-(p * np.log(p)).sum(), abs=1e-12)
