"""Each lab panel's :class:`~milab_widgets.widgets.as_code.Recipe`: its script and its files.

A recipe's sections are :class:`string.Template` text (``$name`` fields, filled with Python
literals by :func:`~milab_widgets.widgets.as_code.panel_code`); the script calls the same
library functions as the panel, in the same order, with the panel's values, and prints the
headline numbers in the panel's format (accuracy to 0.1 %, g-mean to 3 places, scores to 4),
so that running it in a fresh interpreter shows what the panel shows. Timings are never
printed: they are not reproducible.
"""

from __future__ import annotations

from milab_widgets.widgets.as_code import Recipe

__all__ = ["CDVSE", "INTH", "LSKMDDM", "MFSEF", "TWOVIEW"]


# -- intH ----------------------------------------------------------------------------------------
_INTH_ACCURACY = '''\
import numpy as np

from milab_widgets.data import load_dataset
from milab_widgets.evaluation.fixed_params import fold_accuracies, fold_summary, held_out_bag
from milab_widgets.evaluation.splits import stratified_splits
from milab_widgets.experiments.inth import DistanceSource
from milab_widgets.mil import tune_alpha_nca
from milab_widgets.mil.neighbors import make_bag_classifier

bags = load_dataset($dataset)
# d_minH, d_maxH and d_aveH of every pair of bags, the scaling fitted on all bags (the
# panel's exploratory view; the paper's experiments fit it on each training fold)
matrices = DistanceSource(bags, $scaling)(np.arange(len(bags)))
ALPHA_COMMENT
model = make_bag_classifier($classifier, $k, **$params)

splits = stratified_splits(bags.labels, $folds, $cv_seed)
mean, std = fold_summary(fold_accuracies(model, matrices, bags.labels, splits))
print(f"accuracy {mean:.1%} ± {std:.1%} ({len(splits)}-fold stratified CV, seed $cv_seed)")'''

_INTH_TUNED_ALPHA = '''\
alpha, _ = tune_alpha_nca(matrices["min"], matrices["max"], bags.labels, $sigma)
print(f"NCA-tuned alpha on all bags (sigma = $sigma): {alpha:.3f}")'''

_INTH_BAG = '''\
held_out = held_out_bag(model, matrices, bags.labels, $bag)
verdict = "right" if held_out.correct else "wrong"
print(f"Bag {bags.bag_ids[held_out.bag]} (label {held_out.label}), classified by a model "
      f"fitted on the other {len(bags) - 1} bags: predicted {held_out.prediction}, {verdict}.")'''


#: What the script says of its alpha: tuned by NCA inside each fit, or the panel's hand value.
_INTH_ALPHA_COMMENTS = {
    "nca": "# alpha=None: the classifier tunes alpha by NCA on the bags it is fitted on",
    "hand": "# alpha set by hand (the panel's α), used as it is: no NCA tuning",
}


def _inth_sections(panel) -> list[str]:
    sections = [_INTH_ACCURACY.replace("ALPHA_COMMENT",
                                       _INTH_ALPHA_COMMENTS[panel.alpha_mode.value])]
    if panel.alpha_mode.value == "nca":
        sections.append(_INTH_TUNED_ALPHA)
    if panel.held_out is not None:
        sections.append(_INTH_BAG)
    return sections


def _inth_values(panel) -> dict:
    from milab_widgets.widgets.inth import CV_SEED

    hand = panel.alpha_mode.value == "hand"
    params = {"metric": panel.distance.value, "sigma": panel.sigma.value,
              "alpha": panel.alpha.value if hand else None}
    if panel.classifier.value == "citation-knn":
        params["citers"] = panel.checked(panel.citers)
    return {"dataset": panel.dataset.value, "scaling": panel.scaling.value,
            "classifier": panel.classifier.value, "k": panel.k.value, "params": params,
            "folds": panel.checked(panel.folds), "cv_seed": CV_SEED,
            "sigma": panel.sigma.value, "bag": panel.bag.value}


INTH = Recipe(
    sections=_inth_sections, values=_inth_values,
    charts=lambda panel: {"f-alpha": panel.curve_chart, "heatmap": panel.heatmap_chart},
    tables=lambda panel: {"bag-voters": panel.bag_table if panel.held_out is not None
                          else None},
)


# -- CDVSE ---------------------------------------------------------------------------------------
_CDVSE_PLAYGROUND = '''\
import numpy as np

from milab_widgets.experiments import cdvse

# 2-D playground: SVDD and CDVSE trained on 70 % of the normal samples, tested on the rest
data = cdvse.playground_data($dataset, $seed)
result = cdvse.playground(data, C=$C, zeta=$zeta, n_estimators=$M, sigma=$sigma, lam=$lam,
                          gamma_l1=$gamma_l1, seed=$seed)
g_mean = result.scores.set_index("method")["g_mean"]
print(f"Test g-mean: SVDD {g_mean['svdd']:.3f}, CDVSE {g_mean['cdvse']:.3f} with "
      f"{len(result.selected)} of $M SVDDs kept")'''

_CDVSE_SAMPLE = '''\
# the sample clicked in the CDVSE plot: its distance to each kept sphere (eq. 15)
x, y = $sample
point = np.array([[x, y]])
decision = float(result.ensemble.decision_function(point)[0])
inside = int(result.ensemble.kept_spheres_.inside(point)[0].sum())
verdict = "normal" if decision >= 0 else "outlier"
print(f"Sample ({x:.3f}, {y:.3f}): CDVSE decision Σ w_k (r_k − d_k) = {decision:.4f} → "
      f"{verdict}; inside {inside} of {len(result.ensemble.selected_)} kept spheres.")'''

_CDVSE_UCI = '''\
# the UCI tab: the paper's protocol (quick grids) on one UCI set
results = cdvse.run([$uci_dataset], quick=True, repetitions=$repetitions, synthetic=False)
print("Test g-mean (%)")
print(cdvse.score_table(results.summary, "test").to_string())'''


def _cdvse_sections(panel) -> list[str]:
    sections = [_CDVSE_PLAYGROUND]
    if panel.sample_distances is not None:
        sections.append(_CDVSE_SAMPLE)
    if panel.uci_table is not None:
        sections.append(_CDVSE_UCI)
    return sections


def _cdvse_values(panel) -> dict:
    return {"dataset": panel.dataset.value, "seed": panel.checked(panel.seed),
            "C": panel.C.value, "zeta": panel.zeta.value, "M": panel.M.value,
            "sigma": panel.sigma.value, "lam": panel.lam.value,
            "gamma_l1": panel.gamma_l1.value, "sample": panel.sample_point,
            "uci_dataset": panel.uci_dataset.value,
            "repetitions": panel.checked(panel.repetitions)}


CDVSE = Recipe(
    sections=_cdvse_sections, values=_cdvse_values,
    charts=lambda panel: {"boundaries": panel.boundary, "weights": panel.weights,
                          "objective": panel.objective},
    tables=lambda panel: {"sample-distances": panel.sample_distances,
                          "uci-test-g-mean": panel.uci_table},
)


# -- MFSEF ---------------------------------------------------------------------------------------
_MFSEF_SCORES = '''\
from milab_widgets.data import load_dataset
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.experiments.mfsef import TABLE_METRICS, Settings, dataset_scores

data = load_dataset($dataset)
# experts=None: MFSEF takes the n_experts features of highest mutual information
settings = Settings(k=$k, ratios=$ratios, n_experts=$n_experts, experts=$experts,
                    methods=$methods)
# every selector fitted on the training part, ML-kNN evaluated on the test part
scores, _ = dataset_scores(data.name, data, settings, ResultCache(None), counts=$counts)
shown = scores[scores.metric.isin(TABLE_METRICS)
               & ((scores.n_features == $max_features) | (scores.method == "Original"))]
table = shown.pivot(index="method", columns="metric", values="value")[list(TABLE_METRICS)]
print(f"Scores at $max_features selected features (Original: all {data.n_features}):")
print(table.to_string(float_format="{:.4f}".format))'''

_MFSEF_SELECTED = '''\
from milab_widgets.experiments.mfsef import fit_selectors

# the features one method selects, in its order (the method clicked in the chart)
method = $method
train, _ = data.train_test()
selector, _ = fit_selectors(train, [method], $max_features, settings)[method]
print(f"{method} selects features {selector.selection($max_features).tolist()}")'''

_MFSEF_ORIGINAL = '''\
print(f"Original selects features {list(range(data.n_features))}")'''


def _mfsef_sections(panel) -> list[str]:
    if panel.selected is None:
        return [_MFSEF_SCORES]
    return [_MFSEF_SCORES,
            _MFSEF_ORIGINAL if panel.selected_method == "Original" else _MFSEF_SELECTED]


def _mfsef_values(panel) -> dict:
    settings = panel._settings()
    return {"dataset": panel.dataset.value, "k": settings.k, "ratios": settings.ratios,
            "n_experts": settings.n_experts, "experts": settings.experts,
            "methods": settings.methods, "counts": panel._counts(),
            "max_features": panel.checked(panel.max_features),
            "method": panel.selected_method}


MFSEF = Recipe(
    sections=_mfsef_sections, values=_mfsef_values,
    charts=lambda panel: {"expert-view": panel.expert_chart, "curves": panel.curves_chart},
    tables=lambda panel: {"scores": panel.score_table if panel.scores is not None else None,
                          "selected-features": panel.selected},
)


# -- TwoViewMIC ----------------------------------------------------------------------------------
_TWOVIEW_PROBLEM = '''\
from milab_widgets.evaluation.clustering_scores import clustering_accuracy
from milab_widgets.experiments import twoview as experiment

problem = experiment.ProblemCache(experiment.load_problem($dataset), experiment.Settings())
labels = problem.data.labels'''

_TWOVIEW_LABELLED = '''\
# the labelled bags: a fraction of each class, drawn with the seed
y_partial = experiment.partial_labels(labels, $fraction, $seed)'''

_TWOVIEW_UNLABELLED = '''\
y_partial = None  # no labels: the unsupervised model (P = Q = I)'''

_TWOVIEW_FIT = '''\
def fit(method, **params):
    return experiment.fit_method(method, problem, $generator, y_partial, experiment.Settings(),
                                 $seed, views=$views, **params)


method, model_params = $method, {"alpha": $alpha, "beta": $beta, "max_iter": $max_iter}
model = fit(method, **model_params)
print(f"ACC {clustering_accuracy(labels, model.labels_):.1%} ({method}, "
      f"{model.n_iter_} iterations)")
for baseline in $baselines:
    params = model_params if baseline.startswith("unKer") else {}
    accuracy = clustering_accuracy(labels, fit(baseline, **params).labels_)
    print(f"{baseline}: ACC {accuracy:.1%}")'''


def _twoview_sections(panel) -> list[str]:
    labels = _TWOVIEW_LABELLED if panel.fraction.value > 0 else _TWOVIEW_UNLABELLED
    return [_TWOVIEW_PROBLEM, labels, _TWOVIEW_FIT]


def _twoview_values(panel) -> dict:
    from milab_widgets.widgets.twoview import BASELINES

    labelled = panel.fraction.value > 0
    baselines = [name for name in BASELINES if labelled or name != "BAMIC-intH"]
    return {"dataset": panel.dataset.value, "generator": panel.generator.value,
            "views": panel.views.value, "fraction": panel.fraction.value,
            "seed": panel.checked(panel.seed), "alpha": panel.alpha.value,
            "beta": panel.beta.value, "max_iter": panel.max_iter.value,
            "method": panel._method(not labelled),
            "baselines": baselines + ([panel._method(True)] if labelled else [])}


TWOVIEW = Recipe(
    sections=_twoview_sections, values=_twoview_values,
    charts=lambda panel: {"objective": panel.curve_chart, "confusion": panel.confusion_chart},
    tables=lambda panel: {"accuracy": panel.baseline_scores, "confusion": panel.confusion,
                          "cell-bags": panel.cell_bags},
)


# -- LSkMDDM -------------------------------------------------------------------------------------
_LSKMDDM_RUN = '''\
from milab_widgets.data import load_dataset
from milab_widgets.experiments.lskmddm import (
    SEED_METRICS,
    evaluate_embedding,
    embed,
    held_out_partition,
    split_labels,
)

data = load_dataset($dataset)
# random training rows, up to $n_test held out; labels constant on the training rows dropped
train, test = held_out_partition(len(data), $n_train, $n_test, $seed)
X_train, Y_train, X_test, Y_test, _ = split_labels(data, train, test)
method = $method
embed_train, embed_test = embed(method, X_train, Y_train, X_test, $eta, dimension=$dimension)
scores = evaluate_embedding(embed_train, embed_test, Y_train, Y_test)
print(f"{method}, dimension $dimension, ML-kNN (k = 10) on the held-out rows:")
for metric in SEED_METRICS:
    print(f"{metric} {scores[metric]:.4f}")'''


def _lskmddm_values(panel) -> dict:
    from milab_widgets.widgets.lskmddm import HELD_OUT, SPLIT_SEED

    return {"dataset": panel.dataset.value, "n_train": panel.n_train, "n_test": HELD_OUT,
            "seed": SPLIT_SEED, "method": panel.method.value, "eta": panel.eta.value,
            "dimension": panel.dimension.value}


LSKMDDM = Recipe(
    sections=lambda panel: [_LSKMDDM_RUN], values=_lskmddm_values,
    charts=lambda panel: {"embedding": panel.scatter_view.chart},
    tables=lambda panel: {"metrics": panel.metrics_table if panel.scores is not None else None,
                          "brushed-labels": panel.selection_stats,
                          "solver-times": panel.solver_times},
)
