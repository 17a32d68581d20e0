"""Multi-label metrics against scikit-learn, brute-force definitions and worked examples."""

import warnings

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.exceptions import UndefinedMetricWarning

from milab_widgets.exceptions import InputError
from milab_widgets.multilabel import metrics


def random_problem(seed, n=60, labels=7, tie_levels=4):
    """Y with every row having relevant and irrelevant labels; scores with many ties."""
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, labels)) < 0.35).astype(int)
    Y[:, 0], Y[:, 1] = 1, 0  # keeps each row non-degenerate
    Y = rng.permuted(Y, axis=1)
    scores = rng.integers(0, tie_levels, size=(n, labels)) / tie_levels
    predictions = (rng.random((n, labels)) < 0.4).astype(int)
    return Y, scores, predictions


def brute_one_error(Y, scores):
    """A tie at the top counts as an error when any tied top label is irrelevant."""
    errors = [np.any(y[np.flatnonzero(f == f.max())] == 0) for y, f in zip(Y, scores, strict=True)
              if 0 < y.sum() < len(y)]
    return np.mean(errors)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ranking_metrics_equal_sklearn_with_ties(seed):
    Y, scores, _ = random_problem(seed)
    assert metrics.coverage(Y, scores) == pytest.approx(sk.coverage_error(Y, scores) - 1)
    assert metrics.ranking_loss(Y, scores) == pytest.approx(sk.label_ranking_loss(Y, scores))
    assert metrics.average_precision(Y, scores) == pytest.approx(
        sk.label_ranking_average_precision_score(Y, scores))
    assert metrics.one_error(Y, scores) == pytest.approx(brute_one_error(Y, scores))


@pytest.mark.parametrize("seed", [0, 1])
def test_label_based_metrics_equal_sklearn(seed):
    Y, scores, predictions = random_problem(seed, tie_levels=5)
    Y[:, 3] = 0  # a label without positives: F1 0 by convention, left out of the AUC
    predictions[:, 3] = 0
    assert metrics.hamming_loss(Y, predictions) == pytest.approx(sk.hamming_loss(Y, predictions))
    assert metrics.macro_f1(Y, predictions) == pytest.approx(
        sk.f1_score(Y, predictions, average="macro", zero_division=0))
    assert metrics.micro_f1(Y, predictions) == pytest.approx(
        sk.f1_score(Y, predictions, average="micro", zero_division=0))
    two_class = [j for j in range(Y.shape[1]) if 0 < Y[:, j].sum() < len(Y)]
    assert len(two_class) == Y.shape[1] - 1
    expected_auc = np.mean([sk.roc_auc_score(Y[:, j], scores[:, j]) for j in two_class])
    assert metrics.macro_auc(Y, scores) == pytest.approx(expected_auc)


def test_degenerate_instances_are_left_out_of_the_pairwise_metrics():
    Y, scores, _ = random_problem(3)
    Y_all = np.vstack([Y, np.ones((1, Y.shape[1]), int), np.zeros((1, Y.shape[1]), int)])
    scores_all = np.vstack([scores, scores[:2]])
    assert metrics.ranking_loss(Y_all, scores_all) == pytest.approx(sk.label_ranking_loss(Y, scores))
    assert metrics.average_precision(Y_all, scores_all) == pytest.approx(
        sk.label_ranking_average_precision_score(Y, scores))
    assert metrics.one_error(Y_all, scores_all) == pytest.approx(metrics.one_error(Y, scores))
    # coverage keeps every instance: scikit-learn's value minus one, row by row
    assert metrics.coverage(Y_all, scores_all) == pytest.approx(
        sk.coverage_error(Y_all, scores_all) - 1)
    only_degenerate = np.ones((2, 3), int)
    with pytest.warns(UndefinedMetricWarning, match="average_precision is undefined"):
        assert np.isnan(metrics.average_precision(only_degenerate, np.zeros((2, 3))))


def test_worked_example():
    Y = [[1, 0, 1]]
    scores = [[0.9, 0.8, 0.1]]  # ranks 1, 2, 3
    assert metrics.average_precision(Y, scores) == pytest.approx((1 / 1 + 2 / 3) / 2)
    assert metrics.ranking_loss(Y, scores) == pytest.approx(1 / 2)  # (label 2, label 1) wrong
    assert metrics.coverage(Y, scores) == 2
    assert metrics.one_error(Y, scores) == 0


def test_all_tied_scores_count_against_the_ranker():
    Y, scores = [[1, 0, 0]], [[0.5, 0.5, 0.5]]
    assert metrics.average_precision(Y, scores) == pytest.approx(1 / 3)
    assert metrics.ranking_loss(Y, scores) == 1
    assert metrics.one_error(Y, scores) == 1
    assert metrics.coverage(Y, scores) == 2
    assert metrics.macro_auc([[1], [0]], [[0.5], [0.5]]) == pytest.approx(0.5)


def test_macro_auc_is_nan_when_every_label_has_one_class():
    with pytest.warns(UndefinedMetricWarning, match="macro_auc is undefined"):
        assert np.isnan(metrics.macro_auc(np.ones((4, 2), int), np.random.rand(4, 2)))


def test_evaluate_returns_every_metric():
    Y, scores, predictions = random_problem(4)
    values = metrics.evaluate(Y, scores, predictions)
    assert set(values) == set(metrics.METRICS) >= {"AP", "HL", "RL", "OE"}
    assert values["HL"] == metrics.hamming_loss(Y, predictions)
    assert values["AP"] == metrics.average_precision(Y, scores)


@pytest.mark.parametrize("call, message", [
    (lambda: metrics.hamming_loss([[0, 1]], [[0, 1, 1]]), "Y_pred has shape"),
    (lambda: metrics.ranking_loss([[0, 1]], [[0.1]]), "scores has shape"),
    (lambda: metrics.ranking_loss([[0, 2]], [[0.1, 0.2]]), "only 0 and 1"),
    (lambda: metrics.one_error([[0, 1]], [[np.nan, 0.2]]), "NaN"),
    (lambda: metrics.macro_f1([0, 1], [0, 1]), "2-D"),
])
def test_bad_input_is_named(call, message):
    with pytest.raises(InputError, match=message):
        call()


# -- the tie rules -----------------------------------------------------------------------------
# Two instances, three labels, labels 0 and 1 tied at the top (0.5, 0.5, 0.2).
TIED_Y = np.array([[1, 0, 0], [0, 1, 0]])
TIED_SCORES = np.array([[0.5, 0.5, 0.2], [0.5, 0.5, 0.2]])


def test_pessimistic_ties_worked_by_hand():
    # Both instances: the tied labels 0 and 1 both take rank 2 (labels scoring >= 0.5).
    # One-error: an irrelevant label is among the top-tied ones -> 1, 1.
    # Coverage: worst relevant rank 2, minus 1 -> 1, 1.  AP: 1 relevant at rank <= 2 -> 1/2.
    # Ranking loss: pairs (relevant, tied irrelevant) wrong, (relevant, label 2) right -> 1/2.
    assert metrics.one_error(TIED_Y, TIED_SCORES, ties="pessimistic") == 1.0
    assert metrics.coverage(TIED_Y, TIED_SCORES, ties="pessimistic") == 1.0
    assert metrics.average_precision(TIED_Y, TIED_SCORES, ties="pessimistic") == 0.5
    assert metrics.ranking_loss(TIED_Y, TIED_SCORES) == 0.5


def test_zhang_ties_worked_by_hand():
    # One-error: a relevant label is among the top-tied ones in both rows -> 0, 0.
    # Stable ascending sort of (0.5, 0.5, 0.2): label 2, label 0, label 1, so from the top
    # label 1 has rank 1, label 0 rank 2, label 2 rank 3.
    # Row 1 (label 0 relevant): coverage 2 - 1 = 1, AP 1/2.  Row 2 (label 1): 0 and 1.
    assert metrics.one_error(TIED_Y, TIED_SCORES, ties="zhang") == 0.0
    assert metrics.coverage(TIED_Y, TIED_SCORES, ties="zhang") == 0.5
    assert metrics.average_precision(TIED_Y, TIED_SCORES, ties="zhang") == 0.75
    # every top-tied label irrelevant: an error under both rules
    only_last = np.array([[0, 0, 1]])
    assert metrics.one_error(only_last, TIED_SCORES[:1], ties="zhang") == 1.0


def test_zhang_average_precision_with_two_relevant_tied_labels():
    # scores (0.3, 0.7, 0.7, 0.1), labels 1 and 3 relevant. Stable ascending order: 3, 0,
    # 1, 2 -> ranks from the top: label 2: 1, label 1: 2, label 0: 3, label 3: 4.
    # AP = (1/2 [label 1: itself at rank 2] + 2/4 [label 3: both relevant at ranks <= 4]) / 2
    # = 0.5; coverage = 4 - 1 = 3. Pessimistic: label 1 rank 2 (labels 1 and 2 score
    # >= 0.7), label 3 rank 4: the same AP (1/2 + 2/4) / 2 = 0.5 and coverage 3.
    Y, scores = np.array([[0, 1, 0, 1]]), np.array([[0.3, 0.7, 0.7, 0.1]])
    for rule in metrics.TIE_RULES:
        assert metrics.average_precision(Y, scores, ties=rule) == 0.5
        assert metrics.coverage(Y, scores, ties=rule) == 3.0
    # label 2 relevant instead of 1: Zhang ranks it first (AP 1, one-error 0), the
    # pessimistic rule ranks it second behind the tied label 1 (AP (1/2 + 2/4) / 2).
    Y = np.array([[0, 0, 1, 1]])
    assert metrics.average_precision(Y, scores, ties="zhang") == pytest.approx((1 + 2 / 4) / 2)
    assert metrics.average_precision(Y, scores, ties="pessimistic") == pytest.approx(0.5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_zhang_rule_is_the_tie_broken_by_label_index(seed):
    """Zhang's rule equals the tie-free metrics on scores whose ties are broken in favour of
    the later label, and without ties the two rules agree."""
    Y, scores, _ = random_problem(seed)
    broken = scores + 1e-9 * np.arange(scores.shape[1])  # later label ranked higher
    for metric in (metrics.coverage, metrics.average_precision):
        assert metric(Y, scores, ties="zhang") == pytest.approx(metric(Y, broken))
        assert metric(Y, broken, ties="zhang") == pytest.approx(metric(Y, broken))
    any_relevant_on_top = [np.any(y[f == f.max()] == 1) for y, f in zip(Y, scores, strict=True)]
    assert metrics.one_error(Y, scores, ties="zhang") == pytest.approx(
        1 - np.mean(any_relevant_on_top))
    assert metrics.one_error(Y, broken, ties="zhang") == metrics.one_error(Y, broken)


def test_evaluate_passes_the_tie_rule_and_refuses_an_unknown_one():
    Y, scores, predictions = random_problem(0)
    zhang = metrics.evaluate(Y, scores, predictions, ties="zhang")
    pessimistic = metrics.evaluate(Y, scores, predictions)
    assert zhang["OE"] == metrics.one_error(Y, scores, ties="zhang") < pessimistic["OE"]
    assert zhang["RL"] == pessimistic["RL"] and zhang["HL"] == pessimistic["HL"]
    with pytest.raises(InputError, match="ties='optimistic'.*pessimistic"):
        metrics.evaluate(Y, scores, predictions, ties="optimistic")


@pytest.mark.parametrize("ties", metrics.TIE_RULES)
@pytest.mark.parametrize("seed", [0, 1])
def test_instance_values_are_each_metric_on_its_row_alone(seed, ties):
    """The oracle is the definition: each metric called on one row at a time (a row it
    leaves out is NaN); rows without relevant labels and with every label relevant are
    mixed in, and scores are heavily tied."""
    Y, scores, predictions = random_problem(seed)
    Y[:3], Y[3:5] = 0, 1
    values = metrics.instance_values(Y, scores, predictions, ties=ties)
    single = {"HL": lambda i: metrics.hamming_loss(Y[i:i + 1], predictions[i:i + 1])}
    for name in ("OE", "CV", "AP"):
        single[name] = lambda i, f=metrics.METRICS[name][0]: f(Y[i:i + 1], scores[i:i + 1],
                                                               ties=ties)
    single["RL"] = lambda i: metrics.ranking_loss(Y[i:i + 1], scores[i:i + 1])
    for name, one_row in single.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            expected = np.array([one_row(i) for i in range(len(Y))])
        np.testing.assert_array_equal(values[name], expected, err_msg=name)
        total = metrics.evaluate(Y, scores, predictions, ties=ties)[name]
        assert np.nanmean(values[name]) == pytest.approx(total)
