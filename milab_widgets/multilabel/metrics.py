"""Multi-label evaluation metrics (Zhang & Zhou 2007, 2014 conventions).

Notation: for instance i, Y_i is its set of relevant labels, Ybar_i the irrelevant ones,
f_i(l) the score of label l, and rank_i(l) = |{l' : f_i(l') >= f_i(l)}| (1 = top).

Example-based, from 0/1 predictions h_i:
    hamming_loss       = 1/(n L) sum_i |h_i xor Y_i|                                    (down)
Ranking-based, from scores:
    one_error          = 1/n' sum_i [top-scored label not in Y_i]                      (down)
    coverage           = 1/n  sum_i max_{l in Y_i} rank_i(l) - 1                        (down)
    ranking_loss       = 1/n' sum_i |{(l, l') in Y_i x Ybar_i : f(l) <= f(l')}| / (|Y_i||Ybar_i|)
    average_precision  = 1/n' sum_i 1/|Y_i| sum_{l in Y_i}
                              |{l' in Y_i : rank_i(l') <= rank_i(l)}| / rank_i(l)        (up)
Label-based:
    macro_f1, micro_f1 from per-label TP, FP, FN: F1 = 2 TP / (2 TP + FP + FN)             (up)
    macro_auc          = mean over labels of the ROC AUC of f(l) against y(l)            (up)

Conventions (Zhang's reference MATLAB code, the MLKNN/LIFT toolbox's ``One_error``,
``coverage``, ``Ranking_loss``, ``Average_precision``, for the instances kept; scikit-learn
for ties unless ``ties="zhang"``):

* **Ties** (equal scores, frequent with ML-kNN's few distinct posteriors) follow one of two
  rules, chosen by ``ties`` in :func:`one_error`, :func:`coverage`,
  :func:`average_precision` and :func:`evaluate`:

  - ``"pessimistic"`` (default; scikit-learn's ``coverage_error``,
    ``label_ranking_loss`` and ``label_ranking_average_precision_score``): ties count
    against the ranker. rank_i(l) = |{l' : f_i(l') >= f_i(l)}|, so tied labels all take the
    worst of their ranks; one-error is 1 when any top-scored label (ties included) is
    irrelevant: [max_{l in Ybar_i} f_i(l) >= max_{l in Y_i} f_i(l)].
  - ``"zhang"`` (Zhang's code): one-error is 1 only when *no* top-scored label is
    relevant: [max_{l in Ybar_i} f_i(l) > max_{l in Y_i} f_i(l)]; coverage and average
    precision rank the labels by a stable ascending sort of the scores, so ties are broken
    by label index, the later label ranked higher: rank_i(l) = 1 + |{l' : f_i(l') > f_i(l)}|
    + |{l' > l : f_i(l') = f_i(l)}|, a rank every label holds alone.

  Both rules count a tied relevant/irrelevant pair as mis-ordered in ``ranking_loss``
  (Zhang's code tests f(l) <= f(l')), so it has no ``ties`` parameter. Without ties the two
  rules agree. On ML-kNN's tied posteriors they differ a lot (one-error 0.78 against 0.40
  in one measured case).
* In ``macro_auc`` a tied positive/negative pair counts 1/2 (Mann-Whitney, as sklearn).
* **Degenerate instances** (no relevant label, or every label relevant) have no
  relevant/irrelevant pair: they are left out of ``one_error``, ``ranking_loss`` and
  ``average_precision`` (as Zhang's code; scikit-learn instead counts them as 0 loss / 1
  precision). If no instance remains the value is NaN, with scikit-learn's
  ``UndefinedMetricWarning``. Empty input (no instance or no label) is an InputError.
* ``coverage`` is scikit-learn's ``coverage_error`` minus 1 on every instance, so an instance
  without relevant labels contributes -1 (exactly as Zhang's code, which adds 0 for it and
  subtracts 1 from the mean).
* **Labels with one class** in ``Y_true``: left out of ``macro_auc`` (AUC is undefined;
  NaN with an ``UndefinedMetricWarning`` if no label remains). In F1 a label with no true
  and no predicted positive scores 0 (scikit-learn's ``zero_division=0``); ``micro_f1`` is 0
  when nothing is positive.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse
from scipy.stats import rankdata
from sklearn.exceptions import UndefinedMetricWarning

from milab_widgets.data.multilabel import as_label_matrix
from milab_widgets.exceptions import InputError

__all__ = [
    "LOWER_IS_BETTER",
    "METRICS",
    "TIE_RULES",
    "average_precision",
    "coverage",
    "evaluate",
    "hamming_loss",
    "instance_values",
    "macro_auc",
    "macro_f1",
    "micro_f1",
    "one_error",
    "ranking_loss",
]

#: The metrics where smaller is better.
LOWER_IS_BETTER = frozenset({"HL", "RL", "OE", "CV"})
#: How ranking metrics treat tied scores (see the module notes).
TIE_RULES = ("pessimistic", "zhang")


def hamming_loss(Y_true, Y_pred) -> float:
    r"""Fraction of instance-label pairs predicted wrongly.

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    Y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        Predicted 0/1 labels.

    Returns
    -------
    float
        In [0, 1]; lower is better.

    See Also
    --------
    evaluate : every metric at once, by its short name.
    sklearn.metrics.hamming_loss : the same value.

    Notes
    -----
    .. math:: \mathrm{HL} = \frac{1}{nL} \sum_i |h_i \,\triangle\, Y_i|

    with h_i the predicted and Y_i the true label set of instance i, and L labels.

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.hamming_loss(Y_true, Y_pred), 4)
    0.4444
    """
    Y_true, Y_pred = _labels_pair(Y_true, Y_pred)
    return float(_hamming_values(Y_true, Y_pred).mean())


def one_error(Y_true, scores, ties: str = "pessimistic") -> float:
    r"""Fraction of instances whose top-scored label is irrelevant.

    Instances with no relevant or no irrelevant label are left out. A tie at the top counts
    as an error when any tied label is irrelevant (``ties="pessimistic"``) or only when every
    tied label is (``"zhang"``).

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    scores : array-like of shape (n_samples, n_labels)
        Real-valued scores, higher meaning more relevant (e.g. ``MLkNN.predict_proba``).
    ties : {"pessimistic", "zhang"}, default="pessimistic"
        How tied scores rank (see the module notes): scikit-learn's rule, or Zhang's code's.

    Returns
    -------
    float
        In [0, 1]; lower is better (NaN when no instance remains).

    See Also
    --------
    evaluate : every metric at once, by its short name.

    Notes
    -----
    :math:`\mathrm{OE} = \frac{1}{n'} \sum_i [\arg\max_l f_i(l) \notin Y_i]`.

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.one_error(Y_true, scores), 4)
    0.3333
    """
    Y_true, scores = _labels_scores(Y_true, scores)
    return _mean(_one_error_values(Y_true, scores, _check_ties(ties)), "one_error")


def coverage(Y_true, scores, ties: str = "pessimistic") -> float:
    r"""Mean over instances of the worst rank of a relevant label, minus 1.

    Ranks follow the ``ties`` rule (see the module notes).

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    scores : array-like of shape (n_samples, n_labels)
        Real-valued scores, higher meaning more relevant (e.g. ``MLkNN.predict_proba``).
    ties : {"pessimistic", "zhang"}, default="pessimistic"
        How tied scores rank (see the module notes): scikit-learn's rule, or Zhang's code's.

    Returns
    -------
    float
        In [0, n_labels - 1]; lower is better.

    See Also
    --------
    evaluate : every metric at once, by its short name.
    sklearn.metrics.coverage_error : the same value plus 1.

    Notes
    -----
    .. math:: \mathrm{CV} = \frac{1}{n} \sum_i \max_{l \in Y_i} \mathrm{rank}_i(l) - 1

    with rank 1 for the top-scored label.

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.coverage(Y_true, scores), 4)
    1.0
    """
    Y_true, scores = _labels_scores(Y_true, scores)
    return float(_coverage_values(Y_true, scores, _check_ties(ties)).mean())


def ranking_loss(Y_true, scores) -> float:
    r"""Mean fraction of relevant/irrelevant label pairs ordered wrongly (ties are wrong).

    Instances with no relevant or no irrelevant label are left out.

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    scores : array-like of shape (n_samples, n_labels)
        Real-valued scores, higher meaning more relevant (e.g. ``MLkNN.predict_proba``).

    Returns
    -------
    float
        In [0, 1]; lower is better (NaN when no instance remains).

    See Also
    --------
    evaluate : every metric at once, by its short name.
    sklearn.metrics.label_ranking_loss : the same value on non-degenerate instances.

    Notes
    -----
    .. math:: \mathrm{RL} = \frac{1}{n'} \sum_i
        \frac{|\{(l, l') \in Y_i \times \bar Y_i : f_i(l) \le f_i(l')\}|}{|Y_i|\,|\bar Y_i|}

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.ranking_loss(Y_true, scores), 4)
    0.3333
    """
    Y_true, scores = _labels_scores(Y_true, scores)
    return _mean(_ranking_loss_values(Y_true, scores), "ranking_loss")


def average_precision(Y_true, scores, ties: str = "pessimistic") -> float:
    r"""Mean over instances and their relevant labels of the fraction of relevant labels
    ranked at or above that label.

    Ranks follow the ``ties`` rule; instances with no relevant or no irrelevant label are
    left out (see the module notes).

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    scores : array-like of shape (n_samples, n_labels)
        Real-valued scores, higher meaning more relevant (e.g. ``MLkNN.predict_proba``).
    ties : {"pessimistic", "zhang"}, default="pessimistic"
        How tied scores rank (see the module notes): scikit-learn's rule, or Zhang's code's.

    Returns
    -------
    float
        In [0, 1]; higher is better (NaN when no instance remains).

    See Also
    --------
    evaluate : every metric at once, by its short name.
    sklearn.metrics.label_ranking_average_precision_score : the same value on
        non-degenerate instances.

    Notes
    -----
    .. math:: \mathrm{AP} = \frac{1}{n'} \sum_i \frac{1}{|Y_i|} \sum_{l \in Y_i}
        \frac{|\{l' \in Y_i : \mathrm{rank}_i(l') \le \mathrm{rank}_i(l)\}|}{\mathrm{rank}_i(l)}

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.average_precision(Y_true, scores), 4)
    0.8611
    """
    Y_true, scores = _labels_scores(Y_true, scores)
    return _mean(_average_precision_values(Y_true, scores, _check_ties(ties)),
                 "average_precision")


def macro_f1(Y_true, Y_pred) -> float:
    """Unweighted mean over labels of F1 = 2 TP / (2 TP + FP + FN) (0 when undefined).

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    Y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        Predicted 0/1 labels.

    Returns
    -------
    float
        In [0, 1]; higher is better.

    See Also
    --------
    evaluate : every metric at once, by its short name.
    sklearn.metrics.f1_score : the same value with ``average="macro"``,
        ``zero_division=0``.

    Notes
    -----
    Per label l, :math:`F1_l = 2 TP_l / (2 TP_l + FP_l + FN_l)`; macro-F1 is their mean.

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.macro_f1(Y_true, Y_pred), 4)
    0.5
    """
    tp, fp, fn = _confusion(Y_true, Y_pred)
    denominator = 2 * tp + fp + fn
    per_label = np.divide(2.0 * tp, denominator, out=np.zeros(len(tp)), where=denominator > 0)
    return float(per_label.mean())


def micro_f1(Y_true, Y_pred) -> float:
    r"""F1 of the counts pooled over labels (0 when undefined).

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    Y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        Predicted 0/1 labels.

    Returns
    -------
    float
        In [0, 1]; higher is better.

    See Also
    --------
    evaluate : every metric at once, by its short name.
    sklearn.metrics.f1_score : the same value with ``average="micro"``.

    Notes
    -----
    :math:`2 \sum_l TP_l / (2 \sum_l TP_l + \sum_l FP_l + \sum_l FN_l)`.

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.micro_f1(Y_true, Y_pred), 4)
    0.6
    """
    tp, fp, fn = (part.sum() for part in _confusion(Y_true, Y_pred))
    denominator = 2 * tp + fp + fn
    return float(2.0 * tp / denominator) if denominator else 0.0


def macro_auc(Y_true, scores) -> float:
    """Mean over labels with both classes of the ROC AUC.

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    scores : array-like of shape (n_samples, n_labels)
        Real-valued scores, higher meaning more relevant (e.g. ``MLkNN.predict_proba``).

    Returns
    -------
    float
        In [0, 1]; higher is better (NaN when no label has both classes).

    See Also
    --------
    evaluate : every metric at once, by its short name.
    sklearn.metrics.roc_auc_score : the same value with ``average="macro"``.

    Notes
    -----
    Per label, the Mann-Whitney statistic :math:`U / (n_+ n_-)` (a tied positive/negative
    pair counts 1/2); labels with one class in Y_true are left out.

    References
    ----------
    Zhang & Zhou, "A review on multi-label learning algorithms", IEEE TKDE 26(8),
    2014 (the definitions); Zhang & Zhou, "ML-KNN: a lazy learning approach to
    multi-label learning", Pattern Recognition 40(7), 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> round(metrics.macro_auc(Y_true, scores), 4)
    0.6667
    """
    Y_true, scores = _labels_scores(Y_true, scores)
    positives = Y_true.sum(axis=0)
    negatives = len(Y_true) - positives
    keep = (positives > 0) & (negatives > 0)
    if not keep.any():
        warnings.warn("macro_auc is undefined: every label of Y_true has one class only (all 0 "
                      "or all 1), so no label has an AUC; returning NaN.", UndefinedMetricWarning,
                      stacklevel=2)
        return float("nan")
    ranks = rankdata(scores[:, keep], method="average", axis=0)  # ascending, ties averaged
    rank_sum = np.where(Y_true[:, keep] == 1, ranks, 0.0).sum(axis=0)
    n_pos, n_neg = positives[keep], negatives[keep]
    return float(np.mean((rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)))


#: Short name used in tables -> (metric, whether it takes 0/1 predictions rather than scores).
METRICS = {
    "AP": (average_precision, False), "HL": (hamming_loss, True),
    "RL": (ranking_loss, False), "OE": (one_error, False), "CV": (coverage, False),
    "macroF1": (macro_f1, True), "microF1": (micro_f1, True), "macroAUC": (macro_auc, False),
}


#: The metrics whose value depends on the tie rule.
TIE_DEPENDENT = frozenset({"OE", "CV", "AP"})


def evaluate(Y_true, scores, Y_pred, ties: str = "pessimistic") -> dict[str, float]:
    """Every metric of ``METRICS``, by its short name.

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    scores : array-like of shape (n_samples, n_labels)
        Real-valued scores, higher meaning more relevant (e.g. ``MLkNN.predict_proba``).
    Y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        Predicted 0/1 labels.
    ties : {"pessimistic", "zhang"}, default="pessimistic"
        How tied scores rank (see the module notes): scikit-learn's rule, or Zhang's code's.

    Returns
    -------
    dict of str to float
        AP, HL, RL, OE, CV, macroF1, microF1, macroAUC (``LOWER_IS_BETTER`` names the losses).

    See Also
    --------
    milab_widgets.multilabel.metrics : the module; each metric's page gives its formula.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> Y_pred = (scores >= 0.5).astype(int)
    >>> {name: round(value, 4) for name, value in metrics.evaluate(Y_true, scores, Y_pred).items()}
    {'AP': 0.8611, 'HL': 0.4444, 'RL': 0.3333, 'OE': 0.3333, 'CV': 1.0, 'macroF1': 0.5,
     'microF1': 0.6, 'macroAUC': 0.6667}
    """
    _check_ties(ties)
    return {short: metric(Y_true, Y_pred if uses_predictions else scores,
                          **({"ties": ties} if short in TIE_DEPENDENT else {}))
            for short, (metric, uses_predictions) in METRICS.items()}


def instance_values(Y_true, scores, Y_pred, ties: str = "pessimistic") -> dict[str, np.ndarray]:
    """Each example- and ranking-based metric of every instance alone, by its short name.

    The value of an instance is the metric on that one row; NaN where the metric leaves the
    instance out (one-error, ranking loss and average precision: no relevant or no
    irrelevant label). Each metric over the whole set is the mean of its non-NaN values, so
    these are what a per-instance (paired) test of two methods compares.

    Parameters
    ----------
    Y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        True 0/1 labels.
    scores : array-like of shape (n_samples, n_labels)
        Real-valued scores, higher meaning more relevant (e.g. ``MLkNN.predict_proba``).
    Y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        Predicted 0/1 labels.
    ties : {"pessimistic", "zhang"}, default="pessimistic"
        How tied scores rank (see the module notes).

    Returns
    -------
    dict of str to ndarray of shape (n_samples,)
        HL, OE, CV, RL and AP per instance (the label-based F1 and AUC have none).

    See Also
    --------
    evaluate : the same metrics over the whole set.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.multilabel import metrics
    >>> Y_true = np.array([[1, 0, 1], [0, 0, 0], [1, 1, 0]])
    >>> scores = np.array([[0.9, 0.2, 0.4], [0.5, 0.8, 0.3], [0.3, 0.6, 0.7]])
    >>> values = metrics.instance_values(Y_true, scores, (scores >= 0.5).astype(int))
    >>> values["OE"], values["RL"]
    (array([ 0., nan,  1.]), array([ 0., nan,  1.]))
    """
    Y_true, scores = _labels_scores(Y_true, scores)
    _, Y_pred = _labels_pair(Y_true, Y_pred)
    ties = _check_ties(ties)
    return {"HL": _hamming_values(Y_true, Y_pred),
            "OE": _one_error_values(Y_true, scores, ties),
            "CV": _coverage_values(Y_true, scores, ties),
            "RL": _ranking_loss_values(Y_true, scores),
            "AP": _average_precision_values(Y_true, scores, ties)}


# -- per-instance values (validated inputs) -----------------------------------------------------
def _hamming_values(Y_true, Y_pred) -> np.ndarray:
    return (Y_true != Y_pred).mean(axis=1)


def _one_error_values(Y_true, scores, ties: str) -> np.ndarray:
    top_relevant = np.where(Y_true == 1, scores, -np.inf).max(axis=1)
    top_irrelevant = np.where(Y_true == 0, scores, -np.inf).max(axis=1)
    wrong = (top_irrelevant >= top_relevant if ties == "pessimistic"
             else top_irrelevant > top_relevant)
    return _left_out_as_nan(Y_true, wrong.astype(float))


def _coverage_values(Y_true, scores, ties: str) -> np.ndarray:
    return np.where(Y_true == 1, _ranks(scores, ties), 0).max(axis=1) - 1.0


def _ranking_loss_values(Y_true, scores) -> np.ndarray:
    relevant = Y_true == 1
    ranks, relevant_ranks = _ranks(scores), _ranks(np.where(relevant, scores, -np.inf))
    # For relevant l: rank - rank among relevant = irrelevant labels scoring >= f(l).
    wrong = np.where(relevant, ranks - relevant_ranks, 0).sum(axis=1)
    n_relevant = relevant.sum(axis=1)
    pairs = n_relevant * (Y_true.shape[1] - n_relevant)
    return _left_out_as_nan(Y_true, wrong / np.maximum(pairs, 1))


def _average_precision_values(Y_true, scores, ties: str) -> np.ndarray:
    relevant = Y_true == 1
    ranks = _ranks(scores, ties)
    # relevant labels ranked at or above each label (the ranks, not the scores, decide)
    relevant_ranks = _ranks(np.where(relevant, -ranks, -np.inf))
    precision = np.where(relevant, relevant_ranks / ranks, 0.0).sum(axis=1)
    return _left_out_as_nan(Y_true, precision / np.maximum(relevant.sum(axis=1), 1))


def _left_out_as_nan(Y_true, values: np.ndarray) -> np.ndarray:
    """``values`` with NaN for the degenerate instances (no relevant or no irrelevant
    label), which one-error, ranking loss and average precision leave out."""
    return np.where(_non_degenerate(Y_true), values, np.nan)


# -- helpers -----------------------------------------------------------------------------------
def _ranks(scores: np.ndarray, ties: str = "pessimistic") -> np.ndarray:
    """rank(l) per row, 1 = top: |{l' : f(l') >= f(l)}| (``"pessimistic"``: ties take the
    worst rank), or the position from the top in a stable ascending sort (``"zhang"``: ties
    broken by label index, the later label ranked higher)."""
    if _check_ties(ties) == "pessimistic":
        return rankdata(-scores, method="max", axis=1)
    return scores.shape[1] + 1 - rankdata(scores, method="ordinal", axis=1)


def _check_ties(ties: str) -> str:
    if ties not in TIE_RULES:
        raise InputError(f"ties={ties!r} is not one of {list(TIE_RULES)}; 'pessimistic' "
                         "counts ties against the ranker (scikit-learn), 'zhang' follows "
                         "Zhang's reference code.")
    return ties


def _non_degenerate(Y_true: np.ndarray) -> np.ndarray:
    n_relevant = Y_true.sum(axis=1)
    return (n_relevant > 0) & (n_relevant < Y_true.shape[1])


def _mean(values, metric: str) -> float:
    """The mean of the instances' values left in (not NaN); NaN with an
    UndefinedMetricWarning when there is none."""
    values = values[~np.isnan(values)]
    if len(values):
        return float(np.mean(values))
    warnings.warn(f"{metric} is undefined: no instance of Y_true has both relevant and "
                  "irrelevant labels (every row is all 0 or all 1); returning NaN.",
                  UndefinedMetricWarning, stacklevel=3)
    return float("nan")


def _true_labels(Y_true) -> np.ndarray:
    """Y_true (dense or scipy.sparse) as a non-empty 0/1 int64 matrix."""
    Y_true = as_label_matrix(Y_true, None, "Y_true")
    if Y_true.size == 0:
        raise InputError(f"Y_true is empty (shape {Y_true.shape}); a metric needs at least one "
                         "instance and one label.")
    return Y_true


def _labels_pair(Y_true, Y_pred) -> tuple[np.ndarray, np.ndarray]:
    Y_true = _true_labels(Y_true)
    Y_pred = as_label_matrix(Y_pred, None, "Y_pred")
    if Y_pred.shape != Y_true.shape:
        raise InputError(f"Y_pred has shape {Y_pred.shape} but Y_true has {Y_true.shape}.")
    return Y_true, Y_pred


def _labels_scores(Y_true, scores) -> tuple[np.ndarray, np.ndarray]:
    Y_true = _true_labels(Y_true)
    scores = scores.toarray() if scipy.sparse.issparse(scores) else np.asarray(scores)
    if scores.dtype.kind == "c":
        raise InputError("scores hold complex numbers; pass real-valued scores.")
    try:
        scores = scores.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError("scores must hold numbers, one real-valued score per instance and "
                         "label.") from None
    if scores.shape != Y_true.shape:
        raise InputError(
            f"scores has shape {scores.shape} but Y_true has {Y_true.shape}; pass one real-valued "
            "score per instance and label (e.g. MLkNN.predict_proba)."
        )
    if not np.isfinite(scores).all():
        raise InputError("scores contain NaN or infinity; pass finite scores.")
    return Y_true, scores


def _confusion(Y_true, Y_pred) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    Y_true, Y_pred = _labels_pair(Y_true, Y_pred)
    tp = ((Y_true == 1) & (Y_pred == 1)).sum(axis=0)
    fp = ((Y_true == 0) & (Y_pred == 1)).sum(axis=0)
    fn = ((Y_true == 1) & (Y_pred == 0)).sum(axis=0)
    return tp, fp, fn
