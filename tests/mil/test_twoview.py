"""TwoViewMIClustering: objective, gradient and updates against brute-force oracles."""

import numpy as np
import pytest
from sklearn.base import clone

from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
from milab_widgets.evaluation.clustering_scores import clustering_accuracy
from milab_widgets.exceptions import InputError
from milab_widgets.mil import TwoViewMIClustering, bag_kernel_factors
from milab_widgets.mil.twoview import (
    LabelStructure,
    monotone_step,
    objective,
    objective_gradient,
)

M, C = 14, 3


def random_problem(seed, m=M, c=C, rank=5):
    """Two views' feature maps Phi^v (K = Phi Phi^T >= 0), positive W^v, H, partial labels."""
    rng = np.random.default_rng(seed)
    phis = [rng.uniform(size=(m, rank)) for _ in range(2)]
    Ws = [rng.uniform(0.1, 1.0, size=(m, c)) for _ in range(2)]
    H = rng.uniform(0.1, 1.0, size=(m, c))
    y = rng.integers(0, c, size=m)
    y[rng.uniform(size=m) < 0.5] = -1
    return phis, Ws, H, y


def dense_objective(phis, Ws, H, alpha, beta, y):
    """Seed eq. 8 written out: Frobenius reconstruction, l2,1 norms, explicit P and Q loops."""
    m = len(H)
    P, Q = np.eye(m), np.eye(m)
    for i in range(m):
        for j in range(m):
            if y[i] != -1 and y[j] != -1:
                P[i, j] = 1.0
                Q[i, j] = float(y[i] == y[j])
    X = [phi.T for phi in phis]  # the paper's phi(B^v): one column per bag
    value = sum(np.linalg.norm(x - x @ W @ H.T) ** 2 for x, W in zip(X, Ws, strict=True))
    value += alpha * (sum(np.linalg.norm(W, axis=0).sum() for W in Ws) + np.linalg.norm(H, axis=1).sum())
    return value + beta * np.linalg.norm(P * (H @ H.T - Q)) ** 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_objective_equals_the_written_out_definition(seed):
    phis, Ws, H, y = random_problem(seed)
    kernels = [phi @ phi.T for phi in phis]
    labels = LabelStructure.from_partial(y, M)
    for alpha, beta in [(0.0, 0.0), (0.3, 2.0), (5.0, 0.01)]:
        assert objective(kernels, Ws, H, alpha, beta, labels) == pytest.approx(
            dense_objective(phis, Ws, H, alpha, beta, y), rel=1e-10)


def test_label_structure_matches_equations_6_and_7():
    y = np.array([2, -1, 2, 0, -1, 0, 7])
    P, Q = LabelStructure.from_partial(y, len(y)).dense()
    for i in range(len(y)):
        for j in range(len(y)):
            both = y[i] != -1 and y[j] != -1
            assert P[i, j] == float(i == j or both)
            assert Q[i, j] == float(i == j or (both and y[i] == y[j]))


def test_structured_products_equal_the_dense_ones():
    _, _, H, y = random_problem(4)
    labels = LabelStructure.from_partial(y, M)
    P, Q = labels.dense()
    np.testing.assert_allclose(labels.similarity_product(H), (P * Q) @ H, rtol=1e-12)
    np.testing.assert_allclose(labels.gram_product(H), (P * (H @ H.T)) @ H, rtol=1e-12)
    assert labels.penalty(H) == pytest.approx(np.linalg.norm(P * (H @ H.T - Q)) ** 2, rel=1e-10)


@pytest.mark.parametrize("seed, alpha, beta", [(0, 0.5, 0.7), (1, 0.01, 10.0), (2, 3.0, 0.0)])
def test_gradient_used_by_the_updates_equals_finite_differences(seed, alpha, beta):
    phis, Ws, H, y = random_problem(seed)
    kernels = [phi @ phi.T for phi in phis]
    labels = LabelStructure.from_partial(y, M)
    d_Ws, d_H = objective_gradient(kernels, Ws, H, alpha, beta, labels)

    def numeric(array, f, step=1e-6):
        grad = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            original = array[index]
            array[index] = original + step
            up = f()
            array[index] = original - step
            down = f()
            array[index] = original
            grad[index] = (up - down) / (2 * step)
        return grad

    value = lambda: objective(kernels, Ws, H, alpha, beta, labels)  # noqa: E731
    scale = 1e-6 * max(1.0, abs(value()))
    np.testing.assert_allclose(d_H, numeric(H, value), atol=scale)
    for W, d_W in zip(Ws, d_Ws, strict=True):
        np.testing.assert_allclose(d_W, numeric(W, value), atol=scale)


def test_monotone_step_is_the_root_of_the_cubic():
    rng = np.random.default_rng(0)
    Y, A = rng.uniform(0, 3, size=(2, 50))
    B = rng.uniform(0, 3, size=50) * (rng.uniform(size=50) < 0.8)  # some B = 0: t = Y / A
    t = monotone_step(Y, A, B)
    for y, a, b, root in zip(Y, A, B, t, strict=True):
        if b == 0:
            assert root == pytest.approx(y / a, rel=1e-12)
        else:
            real = [r.real for r in np.roots([2 * b, 0.0, a, -y]) if abs(r.imag) < 1e-9 and r.real > 0]
            assert root == pytest.approx(real[0], rel=1e-10)


PARAMS = [(0.01, 0.01), (1.0, 1.0), (0.0001, 1000.0), (100.0, 0.01), (0.0, 10.0)]


@pytest.mark.parametrize("alpha, beta", PARAMS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_objective_never_increases_and_factors_stay_non_negative(seed, alpha, beta):
    phis, _, _, y = random_problem(seed, m=30)
    model = TwoViewMIClustering(C, kernel="factored", alpha=alpha, beta=beta, max_iter=150,
                                tol=0.0, random_state=seed).fit(phis, y)
    steps = np.diff(model.objective_)
    assert (steps <= 1e-12 * np.abs(model.objective_[:-1])).all(), steps.max()
    assert model.n_iter_ == 150 and len(model.objective_) == 151
    assert (model.H_ >= 0).all() and all((W >= 0).all() for W in model.W_)


def test_paper_rule_can_increase_the_objective_when_beta_is_large():
    """The paper's H rule (eq. 17, corrected) overshoots when the quartic term dominates;
    the monotone rule, same fixed points, does not (module docstring)."""
    phis, _, _, y = random_problem(0, m=30)
    fits = {update: TwoViewMIClustering(C, kernel="factored", beta=100.0, update=update,
                                        max_iter=50, tol=0.0, random_state=0).fit(phis, y)
            for update in ("paper", "monotone")}
    assert np.diff(fits["paper"].objective_).max() > 0
    assert np.diff(fits["monotone"].objective_).max() <= 0


def test_factored_and_dense_kernels_give_the_same_run():
    phis, _, _, y = random_problem(5, m=25)
    factored = TwoViewMIClustering(C, kernel="factored", max_iter=40, random_state=3).fit(phis, y)
    dense = TwoViewMIClustering(C, kernel="precomputed", max_iter=40, random_state=3).fit(
        [phi @ phi.T for phi in phis], y)
    np.testing.assert_allclose(factored.objective_, dense.objective_, rtol=1e-10)
    assert np.array_equal(factored.labels_, dense.labels_)


def test_unsupervised_ignores_labels():
    phis, _, _, y = random_problem(6, m=25)
    unsupervised = TwoViewMIClustering(C, kernel="factored", unsupervised=True, max_iter=30,
                                       random_state=1).fit(phis, y)
    no_labels = TwoViewMIClustering(C, kernel="factored", max_iter=30, random_state=1).fit(phis)
    np.testing.assert_array_equal(unsupervised.objective_, no_labels.objective_)


def test_recovers_synthetic_clusters_from_bags():
    data = synthetic_two_view_bags(n_clusters=3, bags_per_cluster=20, spread=6.0, seed=2)
    y = np.full(len(data.labels), -1)
    y[::10] = data.labels[::10]
    model = TwoViewMIClustering(3, kernel="mixture", n_components=6, random_state=0)
    model.fit(data.views("synthetic"), y)
    assert clustering_accuracy(data.labels, model.labels_) >= 0.9
    # the same through precomputed factors
    factors = bag_kernel_factors(data.views("synthetic"), n_components=6, random_state=0)
    again = TwoViewMIClustering(3, kernel="factored", random_state=0).fit(factors, y)
    np.testing.assert_array_equal(again.labels_, model.labels_)


def test_callback_sees_every_iteration_and_estimator_is_clonable():
    phis, _, _, y = random_problem(7)
    seen = []
    model = TwoViewMIClustering(C, kernel="factored", max_iter=12, tol=0.0,
                                callback=lambda i, value: seen.append((i, value)))
    model.fit(phis, y)
    assert [i for i, _ in seen] == list(range(1, 13))
    np.testing.assert_array_equal([v for _, v in seen], model.objective_[1:])
    assert clone(model).get_params()["max_iter"] == 12


def test_bad_inputs_name_the_fix():
    phis, _, _, y = random_problem(8)
    kernels = [phi @ phi.T for phi in phis]
    fit = lambda model, views, labels=y: model.fit(views, labels)  # noqa: E731
    with pytest.raises(InputError, match="y_partial has shape"):
        fit(TwoViewMIClustering(C, kernel="precomputed"), kernels, y[:-1])
    with pytest.raises(InputError, match=">= 0 entrywise"):
        fit(TwoViewMIClustering(C, kernel="precomputed"), [kernels[0] - 1, kernels[1]])
    with pytest.raises(InputError, match="square"):
        fit(TwoViewMIClustering(C, kernel="precomputed"), [phis[0]])
    with pytest.raises(InputError, match="same m objects"):
        fit(TwoViewMIClustering(C, kernel="factored"), [phis[0], phis[1][:-1]])
    with pytest.raises(InputError, match="exceeds"):
        fit(TwoViewMIClustering(M + 1, kernel="precomputed"), kernels)
    with pytest.raises(ValueError, match="'alpha' parameter of TwoViewMIClustering"):
        fit(TwoViewMIClustering(C, kernel="precomputed", alpha=-1), kernels)
    with pytest.raises(ValueError, match="'update' parameter of TwoViewMIClustering"):
        fit(TwoViewMIClustering(C, kernel="precomputed", update="fast"), kernels)
    with pytest.raises(InputError, match="must be a BagDataset"):
        fit(TwoViewMIClustering(C, kernel="minimax"), kernels)
