"""The MFSEF paper's experiments: MFSEF against five multi-label feature-selection baselines.

Regenerates, as tidy DataFrames:
- Tables 2-5: AP, HL, RL, OE of ML-kNN (k = 10, s = 1) on the features chosen by Original
  (all features), MDDMspc, MDDMproj, PMU, MFSLS and MFSEF on the seven Yahoo sets of the
  seed, each method's rank per dataset and its average rank;
- Fig. 4: every metric as the number of selected features grows;
- Fig. 5: Friedman test and Nemenyi critical-difference data per metric (alpha = 0.05);
- Figs. 1-2: the feature values behind the "waterfall" plots;
- the stability of each selector's choice (the paper's "better stability than the compared
  algorithms", §4): the table's feature count selected again on ``stability_resamples``
  bootstrap samples of each training set, and Nogueira's Φ̂ of those subsets with its
  interval (:func:`stability_estimates`);
- the paper's claims, each at its own scope (:mod:`milab_widgets.claims.mfsef`: the
  catalogue and its rows, from these tables, the per-instance values at the tables' size
  and, for Fig. 4, at the curve's sizes up to 50 features on Arts).

Protocol: the Yahoo sets' fixed split (2000 train / 3000 test). Selectors are fitted on the
training part only (discretisation: 2 equal-width bins fitted there); ML-kNN is trained on
the selected columns of the raw training features and scored on the test part. The paper
does not say how many features its tables use: we use one rule for every method and
dataset, ``table_fraction`` x d features (10 %, fixed before any run), and show the curves
of Fig. 4 over 2 %..30 % of d to judge that choice. Everything but the stability
resamples is deterministic; those are drawn from ``seed`` (bootstrap sample b of every data
set from ``numpy.random.default_rng([seed, b])``, the same for every selector, so the
selectors' stabilities are compared on the same samples).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from milab_widgets.claims import mfsef as mfsef_claims
from milab_widgets.claims.mfsef import FIG4_DATASET, FIG4_MAX_FEATURES, PAPER_MFSEF_RANKS
from milab_widgets.claims.rejudge import quick_run_claims
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.grid import GridTask, ProgressOption, run_grid
from milab_widgets.evaluation.ranking_stats import (
    friedman_test,
    nemenyi_cd,
    rank_methods,
)
from milab_widgets.evaluation.selection_stability import nogueira_stability, selection_matrix
from milab_widgets.exceptions import InputError
from milab_widgets.experiments.tables import (
    concat_or_empty,
    load_available,
    write_tables,
)
from milab_widgets.multilabel import MFSEF, MFSLS, PMU, MDDMRanking, MLkNN, metrics
from milab_widgets.multilabel.mlknn import decide
from milab_widgets.papers.mfsef import METHODS, SPEC, TABLE_METRICS

__all__ = [
    "Settings", "feature_count", "Results", "make_selector", "fit_selectors",
    "evaluate_columns", "predict_columns", "run", "curve_instances", "stability_estimates",
    "resampled_selections", "bootstrap_rows", "dataset_scores", "dataset_records",
    "instance_values", "table_scores", "metric_table", "ranked_table", "rank_summary",
    "ranks_by_size", "best_by_size", "stability_table", "paper_comparison", "curves",
    "waterfall_samples", "waterfall_overview", "save_tables",
]

#: The paper's seven Yahoo sets, in its order ("Artificial" is Arts), from its record.
TABLE_DATASETS = SPEC.datasets["tables"]
SELECTORS = METHODS[1:]
SCORE_COLUMNS = ["dataset", "method", "n_features", "metric", "value", "fraction", "in_table"]
TIMING_COLUMNS = ["dataset", "method", "n_features", "seconds"]
INSTANCE_COLUMNS = ["dataset", "method", "metric", "instance", "value"]
#: Fig. 4's per-instance values also name their feature count.
CURVE_INSTANCE_COLUMNS = [*INSTANCE_COLUMNS, "n_features"]
SUMMARY_COLUMNS = ["metric", "method", "average_rank", "mean_value", "friedman_chi2",
                   "friedman_p", "cd", "n_datasets"]
#: Seed's Figs. 1-2: the 600th and 601st samples (1-based) of the Arts ("Artificial") data.
WATERFALL_SAMPLES = (599, 600)
#: Bootstrap samples of each training set behind the stability claim, in a full run and in
#: quick mode (see :func:`stability_estimates`; the full run's count is set by its cost).
STABILITY_RESAMPLES = 30
QUICK_STABILITY_RESAMPLES = 3
#: One row per data set and selector: Nogueira's Φ̂ of its B subsets of ``n_features`` of
#: the ``d`` features, its variance estimate and 95 % interval.
STABILITY_COLUMNS = ["dataset", "method", "n_features", "d", "resamples", "stability",
                     "variance", "ci_low", "ci_high"]


@dataclass(frozen=True)
class Settings:
    """Everything that defines a run. ``experts`` (feature indices) replaces MFSEF's automatic
    top-MI experts; ``methods`` are the selectors compared with Original."""

    quick: bool = False
    seed: int = 0
    k: int = 10
    s: float = 1.0
    n_bins: int = 2
    n_experts: int = 4
    ratios: tuple = (0.6, 0.3, 0.1)
    mu: float = 0.5
    experts: tuple | None = None
    methods: tuple = SELECTORS
    table_fraction: float = 0.10
    curve_fractions: tuple = tuple(np.round(np.arange(0.02, 0.301, 0.02), 2).tolist())
    curve_datasets: tuple = TABLE_DATASETS
    stability_resamples: int = STABILITY_RESAMPLES

    @classmethod
    def for_mode(cls, quick: bool, seed: int = 0) -> Settings:
        """Quick mode keeps the tables' protocol, shrinks Fig. 4 to 3 sizes on Arts and
        draws :data:`QUICK_STABILITY_RESAMPLES` bootstrap samples per data set."""
        if quick:
            return cls(True, seed, curve_fractions=(0.05, 0.10, 0.20), curve_datasets=("arts",),
                       stability_resamples=QUICK_STABILITY_RESAMPLES)
        return cls(False, seed)

    def counts(self, name: str, n_features: int) -> list[int]:
        """Feature counts evaluated on a dataset: the table's, plus the curve's."""
        fractions = (self.table_fraction,) + (self.curve_fractions if name in self.curve_datasets
                                              else ())
        return sorted({feature_count(f, n_features) for f in fractions})


def feature_count(fraction: float, n_features: int) -> int:
    """round(fraction * d), at least 1."""
    return max(1, round(fraction * n_features))


@dataclass
class Results:
    """``scores``: one row per dataset, method, feature count and metric (long format);
    ``instances``: the table metrics per test instance at the table's size (see
    :func:`instance_values`), behind the per-dataset claim tests; ``curve_instances`` the
    same at Fig. 4's sizes up to 50 features on Arts (:func:`curve_instances`);
    ``stability`` each selector's Nogueira Φ̂ per data set (:func:`stability_estimates`)."""

    settings: Settings
    scores: pd.DataFrame
    timings: pd.DataFrame
    skipped: dict = field(default_factory=dict)
    instances: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=INSTANCE_COLUMNS))
    curve_instances: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=CURVE_INSTANCE_COLUMNS))
    stability: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=STABILITY_COLUMNS))

    @property
    def claim_cases(self) -> pd.DataFrame:
        """The per-case tests (``claim_cases.csv``): the tables' and Fig. 4's cases."""
        return mfsef_claims.claim_cases(concat_or_empty(
            [table for table in (self.instances, self.curve_instances) if len(table)],
            CURVE_INSTANCE_COLUMNS))

    @property
    def claims(self) -> pd.DataFrame:
        """``claims.csv``: one row per claim of the paper's catalogue
        (:data:`milab_widgets.claims.mfsef.CATALOGUE`)."""
        table = mfsef_claims.claims(self.scores, self.timings, self.claim_cases,
                                    self.stability)
        return quick_run_claims(table, mfsef_claims.CATALOGUE, self.settings.quick)


def make_selector(method: str, n_features: int, settings: Settings):
    """An unfitted selector for ``method`` (one of :data:`SELECTORS`)."""
    if method == "MFSEF":
        return MFSEF(n_features, settings.n_experts, settings.experts, settings.ratios,
                     settings.n_bins)
    if method == "MFSLS":
        return MFSLS(n_features, settings.ratios, settings.n_bins)
    if method == "PMU":
        return PMU(n_features, settings.n_bins)
    if method in ("MDDMproj", "MDDMspc"):
        return MDDMRanking(n_features, variant=method.removeprefix("MDDM"), mu=settings.mu)
    raise InputError(f"method={method!r} is not one of {list(SELECTORS)}.")


def fit_selectors(train, methods, max_features: int, settings: Settings):
    """Fit every selector once (PMU greedy up to ``max_features``): method -> (selector,
    seconds)."""
    fitted = {}
    for method in methods:
        started = time.perf_counter()
        selector = make_selector(method, max_features, settings).fit(train.X, train.Y)
        fitted[method] = (selector, time.perf_counter() - started)
    return fitted


def evaluate_columns(train, test, columns, k: int = 10, s: float = 1.0) -> dict[str, float]:
    """Every metric of ML-kNN trained on ``columns`` of the training part, on the test part."""
    return metrics.evaluate(test.Y, *predict_columns(train, test, columns, k, s))


def predict_columns(train, test, columns, k: int = 10, s: float = 1.0):
    """ML-kNN trained on ``columns`` of the training part: its label scores and 0/1 labels
    on the test part (one neighbour search: the labels are the posteriors thresholded by
    ML-kNN's rule)."""
    columns = np.asarray(columns, dtype=np.int64)
    model = MLkNN(k=k, s=s).fit(train.X[:, columns], train.Y)
    scores = model.predict_proba(test.X[:, columns])
    return scores, decide(scores)


def run(datasets=TABLE_DATASETS, quick: bool = False, seed: int = 0, cache_dir=None,
        progress: ProgressOption = False, n_jobs: int | None = None) -> Results:
    """Run the protocol on every available dataset; unavailable ones are skipped and listed
    in ``Results.skipped`` (name -> how to get it). Each dataset's methods run as a joblib
    grid (``n_jobs``; see `milab_widgets.evaluation.grid`)."""
    settings = Settings.for_mode(quick, seed)
    cache = ResultCache(cache_dir)
    score_tables, timing_tables, instance_tables, stability_tables = [], [], [], []
    available, skipped = load_available(datasets)
    for name, data in available.items():
        scores, timings, instances = dataset_records(name, data, settings, cache,
                                                     n_jobs=n_jobs, progress=progress)
        score_tables.append(scores)
        timing_tables.append(timings)
        instance_tables.append(instances)
        stability_tables.append(stability_estimates(name, data, settings, cache, n_jobs,
                                                    progress))
    curve = (curve_instances(FIG4_DATASET, available[FIG4_DATASET], settings, cache, n_jobs,
                             progress)
             if FIG4_DATASET in available and FIG4_DATASET in settings.curve_datasets
             else None)
    return Results(settings, concat_or_empty(score_tables, SCORE_COLUMNS),
                   concat_or_empty(timing_tables, TIMING_COLUMNS), skipped,
                   concat_or_empty(instance_tables, INSTANCE_COLUMNS),
                   concat_or_empty([] if curve is None else [curve], CURVE_INSTANCE_COLUMNS),
                   concat_or_empty(stability_tables, STABILITY_COLUMNS))


def curve_instances(name, data, settings: Settings, cache: ResultCache,
                    n_jobs: int | None = None, progress: ProgressOption = False) -> pd.DataFrame:
    """Fig. 4's claim ("within about the first 50 features MFSEF is clearly better"): every
    selector's table metrics per test instance at each curve size up to
    :data:`~milab_widgets.claims.mfsef.FIG4_MAX_FEATURES` features on ``name``. One cached
    record per selector (experiment "mfsef-fig4-instances"), apart from the tables'
    records, whose keys stay as they were. A selector's first c features do not depend on
    how far it was fitted (greedy picks, rankings, MFSEF's fixed subspaces), so one fit up
    to the largest size gives the curve's selections."""
    train, test = data.train_test()
    counts = [count for count in settings.counts(name, data.n_features)
              if count <= FIG4_MAX_FEATURES]
    if not counts:
        return pd.DataFrame(columns=CURVE_INSTANCE_COLUMNS)
    tasks = [GridTask({**_record_parts(name, method, counts, settings),
                       "experiment": "mfsef-fig4-instances"},
                      partial(_curve_instances_record, train, test, method, counts, settings))
             for method in settings.methods]
    records = run_grid(tasks, cache, n_jobs, progress, desc=f"{name}, Fig. 4 per instance")
    return concat_or_empty([_instance_table(name, method, instances).assign(n_features=count)
                            for method, record in zip(settings.methods, records, strict=True)
                            for count, instances in zip(counts, record["instances"], strict=True)],
                           CURVE_INSTANCE_COLUMNS)


def _curve_instances_record(train, test, method: str, counts, settings: Settings) -> dict:
    selector, _ = fit_selectors(train, [method], max(counts), settings)[method]
    return {"instances": [_scored(train, test, selector.selection(count), settings,
                                  True)["instances"] for count in counts]}


def stability_estimates(name, data, settings: Settings, cache: ResultCache,
                        n_jobs: int | None = None, progress: ProgressOption = False) -> pd.DataFrame:
    """How stable each selector's choice is on ``name`` (§4's "better stability"): Nogueira,
    Sechidis & Brown's Φ̂ with its variance and 95 % interval
    (:func:`~milab_widgets.evaluation.selection_stability.nogueira_stability`) of the
    subsets of the table's feature count that the selector keeps on B =
    ``settings.stability_resamples`` bootstrap samples of the training part (the same B
    samples for every selector; :func:`bootstrap_rows`). One row per selector."""
    count = feature_count(settings.table_fraction, data.n_features)
    rows = []
    for method, subsets in resampled_selections(name, data, settings, cache, n_jobs,
                                                progress).items():
        estimate = nogueira_stability(selection_matrix(subsets, data.n_features))
        rows.append({"dataset": name, "method": method, "n_features": count,
                     "d": data.n_features, "resamples": len(subsets),
                     "stability": estimate.stability, "variance": estimate.variance,
                     "ci_low": estimate.ci_low, "ci_high": estimate.ci_high})
    return pd.DataFrame(rows, columns=STABILITY_COLUMNS)


def resampled_selections(name, data, settings: Settings, cache: ResultCache,
                         n_jobs: int | None = None, progress: ProgressOption = False) -> dict:
    """method -> the B subsets (feature index lists, in selection order) of the table's
    feature count that each selector of ``settings.methods`` keeps on the bootstrap samples
    of ``name``'s training part. One cached record per selector (experiment
    "mfsef-stability", keyed also by B and the seed), apart from the tables' records, whose
    keys stay as they were."""
    train, _ = data.train_test()
    count = feature_count(settings.table_fraction, data.n_features)
    tasks = [GridTask({**_record_parts(name, method, [count], settings),
                       "experiment": "mfsef-stability",
                       "resamples": settings.stability_resamples, "seed": settings.seed},
                      partial(_resampled_record, train, method, count, settings))
             for method in settings.methods]
    records = run_grid(tasks, cache, n_jobs, progress, desc=f"{name}, stability resamples")
    return {method: record["selected"]
            for method, record in zip(settings.methods, records, strict=True)}


def _resampled_record(train, method: str, count: int, settings: Settings) -> dict:
    return {"selected": [
        make_selector(method, count, settings).fit(train.X[rows], train.Y[rows])
        .selected_.tolist()
        for rows in bootstrap_rows(train.n_samples, settings.stability_resamples,
                                   settings.seed)]}


def bootstrap_rows(n_samples: int, resamples: int, seed: int) -> list[np.ndarray]:
    """The row indices of ``resamples`` bootstrap samples of ``n_samples`` rows (n drawn
    with replacement): sample b from ``numpy.random.default_rng([seed, b])``, so sample b is
    the same for every selector and does not depend on how many are drawn."""
    if resamples < 2:
        raise InputError(f"stability needs at least 2 resamples, got {resamples}.")
    return [np.random.default_rng([seed, b]).integers(0, n_samples, n_samples)
            for b in range(resamples)]


def dataset_scores(name, data, settings: Settings, cache: ResultCache, counts=None,
                   n_jobs: int | None = None, progress: ProgressOption = False):
    """Long-format scores of Original and every method of ``settings.methods`` at each
    feature count (default ``settings.counts``) on one dataset's fixed split, and each
    selector's fit time (one fit up to the largest count).

    A joblib grid of one task per method: a task fits its selector once and scores every
    count; its record is cached per (dataset, method, counts, settings), so a rerun whose
    records are all cached fits nothing."""
    scores, timings, _ = dataset_records(name, data, settings, cache, counts, n_jobs, progress,
                                         per_instance=False)
    return scores, timings


def dataset_records(name, data, settings: Settings, cache: ResultCache, counts=None,
                    n_jobs: int | None = None, progress: ProgressOption = False,
                    per_instance: bool = True):
    """:func:`dataset_scores` and, with ``per_instance``, every test instance's value of
    each table metric at the table's feature count (see :func:`instance_values`), long
    format: dataset, method, metric, instance, value (an empty table without)."""
    train, test = data.train_test()
    counts = sorted(set(counts)) if counts is not None else settings.counts(name, data.n_features)
    table_count = feature_count(settings.table_fraction, data.n_features) if per_instance \
        else None
    every_count = data.n_features if per_instance else None  # Original's table size
    tasks = [GridTask(_record_parts(name, "Original", [data.n_features], settings, every_count),
                      partial(_original_record, train, test, settings, per_instance))]
    tasks += [GridTask(_record_parts(name, method, counts, settings, table_count),
                       partial(_method_record, train, test, method, counts, settings,
                               table_count))
              for method in settings.methods]
    original, *methods = run_grid(tasks, cache, n_jobs, progress, desc=f"selectors on {name}")
    instances = concat_or_empty(
        [_instance_table(name, method, record["instances"])
         for method, record in zip(("Original", *settings.methods), (original, *methods),
                                   strict=True)
         if "instances" in record], INSTANCE_COLUMNS)
    rows = [{"dataset": name, "method": "Original", "n_features": data.n_features,
             **original["scores"][0]}]
    rows += [{"dataset": name, "method": method, "n_features": count, **scores}
             for method, record in zip(settings.methods, methods, strict=True)
             for count, scores in zip(counts, record["scores"], strict=True)]
    timings = pd.DataFrame([{"dataset": name, "method": method, "n_features": max(counts),
                             "seconds": record["seconds"]}
                            for method, record in zip(settings.methods, methods, strict=True)],
                           columns=TIMING_COLUMNS)
    table_count = feature_count(settings.table_fraction, data.n_features)
    scores = pd.DataFrame(rows).melt(id_vars=["dataset", "method", "n_features"],
                                     var_name="metric", value_name="value")
    scores["fraction"] = scores.n_features / data.n_features
    scores["in_table"] = (scores.method == "Original") | (scores.n_features == table_count)
    return scores, timings, instances


def _original_record(train, test, settings: Settings, per_instance: bool) -> dict:
    every_column = np.arange(train.X.shape[1])
    scored = _scored(train, test, every_column, settings, per_instance)
    return {"scores": [scored["scores"]], **_without_scores(scored)}


def _method_record(train, test, method: str, counts, settings: Settings,
                   table_count: int | None) -> dict:
    """Fit ``method`` once up to max(counts); score ML-kNN on its first c features, each c
    (and per test instance at ``table_count`` when given)."""
    selector, seconds = fit_selectors(train, [method], max(counts), settings)[method]
    scored = [_scored(train, test, selector.selection(count), settings, count == table_count)
              for count in counts]
    record = {"seconds": seconds, "scores": [item["scores"] for item in scored]}
    return {**record, **{key: value for item in scored for key, value in
                         _without_scores(item).items()}}


def _scored(train, test, columns, settings: Settings, per_instance: bool) -> dict:
    """ML-kNN on ``columns``: every metric, and (``per_instance``) the table metrics'
    values per test instance, NaN as JSON-safe None."""
    scores, predictions = predict_columns(train, test, columns, settings.k, settings.s)
    scored = {"scores": metrics.evaluate(test.Y, scores, predictions)}
    if per_instance:
        scored["instances"] = {metric: [None if np.isnan(v) else float(v) for v in values]
                               for metric, values in
                               instance_values(test.Y, scores, predictions).items()}
    return scored


def _without_scores(scored: dict) -> dict:
    return {key: value for key, value in scored.items() if key != "scores"}


def _instance_table(name, method, instances: dict) -> pd.DataFrame:
    return pd.DataFrame([{"dataset": name, "method": method, "metric": metric,
                          "instance": number, "value": np.nan if value is None else value}
                         for metric, values in instances.items()
                         for number, value in enumerate(values)], columns=INSTANCE_COLUMNS)


def instance_values(Y_true, scores, predictions) -> dict[str, np.ndarray]:
    """Each table metric (AP, HL, RL, OE) of every test instance alone
    (:func:`milab_widgets.multilabel.metrics.instance_values`: NaN where the metric leaves
    the instance out). Each metric over the test set is the mean of its non-NaN values."""
    values = metrics.instance_values(Y_true, scores, predictions)
    return {metric: values[metric] for metric in TABLE_METRICS}


def _record_parts(name, method, counts, settings, per_instance_count=None) -> dict:
    """What a cached record depends on (the settings that change results, and the feature
    count whose per-instance values it keeps, if any)."""
    parts = {"experiment": "mfsef", "dataset": name, "method": method, "n_features": counts,
             **{key: value for key, value in asdict(settings).items()
                if key in ("k", "s", "n_bins", "n_experts", "experts", "ratios", "mu")}}
    return {**parts, "per_instance": per_instance_count} if per_instance_count else parts


# -- tables ------------------------------------------------------------------------------------
def table_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """The rows behind Tables 2-5 (the table's feature count, plus Original)."""
    return scores[scores.in_table.astype(bool)]


def metric_table(scores: pd.DataFrame, metric: str) -> pd.DataFrame:
    """datasets x methods values of ``metric`` at the table's feature count."""
    chosen = table_scores(scores)
    chosen = chosen[chosen.metric == metric]
    table = chosen.pivot(index="dataset", columns="method", values="value")
    return table.reindex(index=_in_paper_order(table.index),
                         columns=[m for m in METHODS if m in table.columns])


def _in_paper_order(datasets) -> list[str]:
    """The paper's data sets among ``datasets`` in its order, then any others."""
    return [d for d in TABLE_DATASETS if d in datasets] + \
        [d for d in datasets if d not in TABLE_DATASETS]


def ranked_table(scores: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The paper's layout: "value (rank)" per dataset and method, and the average-rank row."""
    values = metric_table(scores, metric)
    ranks = rank_methods(values, metric in metrics.LOWER_IS_BETTER)
    cells = values.map(lambda v: f"{v:.4f}") + " (" + ranks.map(lambda r: f"{r:g}") + ")"
    cells.loc["average rank"] = ranks.mean().map(lambda r: f"{r:.2f}")
    return cells


def rank_summary(scores: pd.DataFrame) -> pd.DataFrame:
    """Per metric and method: average rank, Friedman p-value, Nemenyi CD (tidy); empty with
    fewer than two datasets (nothing to rank over)."""
    rows = []
    for metric in TABLE_METRICS:
        values = metric_table(scores, metric)
        if len(values) < 2:
            continue
        test = friedman_test(values, metric in metrics.LOWER_IS_BETTER)
        cd = nemenyi_cd(values.shape[1], values.shape[0])
        for method, rank in test.average_ranks.items():
            rows.append({"metric": metric, "method": method, "average_rank": rank,
                         "mean_value": values[method].mean(), "friedman_chi2": test.statistic,
                         "friedman_p": test.pvalue, "cd": cd, "n_datasets": test.n_datasets})
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def ranks_by_size(scores: pd.DataFrame) -> pd.DataFrame:
    """Average rank of every method per metric at each size of the curve (fraction of d,
    rounded to 2 decimals, kept where every dataset has it); Original uses all features at
    every size. Shows whether a verdict depends on the tables' 10 % rule."""
    selectors = scores[scores.method != "Original"].assign(size=lambda t: t.fraction.round(2))
    original = scores[scores.method == "Original"]
    n_datasets = scores.dataset.nunique()
    rows = []
    for size, at_size in selectors.groupby("size"):
        if at_size.dataset.nunique() < max(n_datasets, 2):
            continue
        both = pd.concat([at_size, original]).assign(in_table=True)
        for metric in TABLE_METRICS:
            values = metric_table(both, metric)
            ranks = rank_methods(values, metric in metrics.LOWER_IS_BETTER).mean()
            rows += [{"fraction": size, "metric": metric, "method": method, "average_rank": rank}
                     for method, rank in ranks.items()]
    return pd.DataFrame(rows, columns=["fraction", "metric", "method", "average_rank"])


def best_by_size(by_size: pd.DataFrame) -> pd.DataFrame:
    """Per size and metric of :func:`ranks_by_size`: the best average rank, the method(s)
    holding it, and whether MFSEF is one of them (ties count as best)."""
    rows = []
    for (fraction, metric), group in by_size.groupby(["fraction", "metric"], sort=True):
        best = group.average_rank.min()
        leaders = group[np.isclose(group.average_rank, best)].method.tolist()
        rows.append({"fraction": fraction, "metric": metric, "best_rank": best,
                     "best_methods": " ".join(leaders), "MFSEF_best": "MFSEF" in leaders})
    return pd.DataFrame(rows, columns=["fraction", "metric", "best_rank", "best_methods",
                                       "MFSEF_best"])


def stability_table(stability: pd.DataFrame) -> pd.DataFrame:
    """data sets x selectors: "Φ̂ [low, high]" of :func:`stability_estimates` (the 95 %
    interval), in the paper's order of data sets and methods."""
    cells = stability.assign(cell=[f"{value:.3f} [{low:.2f}, {high:.2f}]" for value, low, high
                                   in zip(stability.stability, stability.ci_low,
                                          stability.ci_high, strict=True)])
    table = cells.pivot(index="dataset", columns="method", values="cell")
    return table.reindex(index=_in_paper_order(table.index),
                         columns=[m for m in SELECTORS if m in table.columns])


def paper_comparison(scores: pd.DataFrame) -> pd.DataFrame:
    """MFSEF's rank per dataset and metric: the paper's (from its text) next to ours."""
    rows = []
    for metric in TABLE_METRICS:
        values = metric_table(scores, metric)
        ranks = rank_methods(values, metric in metrics.LOWER_IS_BETTER)
        for dataset in values.index:
            rows.append({"metric": metric, "dataset": dataset,
                         "paper_MFSEF_rank": PAPER_MFSEF_RANKS[metric].get(dataset, 1),
                         "our_MFSEF_rank": ranks.loc[dataset, "MFSEF"],
                         "our_best_method": values.loc[dataset].idxmin()
                         if metric in metrics.LOWER_IS_BETTER else values.loc[dataset].idxmax()})
    return pd.DataFrame(rows, columns=["metric", "dataset", "paper_MFSEF_rank", "our_MFSEF_rank",
                                       "our_best_method"])


def curves(scores: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """Fig. 4 data for one dataset: every selector's metrics by feature count; Original is
    repeated at each count as a reference level."""
    chosen = scores[(scores.dataset == dataset) & (scores.method != "Original")]
    original = scores[(scores.dataset == dataset) & (scores.method == "Original")]
    levels = original.merge(chosen[["n_features"]].drop_duplicates(), how="cross",
                            suffixes=("_all", ""))
    return pd.concat([chosen, levels.drop(columns="n_features_all")], ignore_index=True)


# -- waterfall (Figs. 1-2) ----------------------------------------------------------------------
def waterfall_samples(data, samples=WATERFALL_SAMPLES) -> pd.DataFrame:
    """Fig. 1 data: the feature values of a few training samples (tidy)."""
    train, _ = data.train_test() if data.split is not None else (data, None)
    frames = [pd.DataFrame({"sample": int(i) + 1, "feature": np.arange(train.n_features),
                            "value": train.X[i]}) for i in samples]
    return pd.concat(frames, ignore_index=True)


def waterfall_overview(data, n_groups: int = 25) -> pd.DataFrame:
    """Fig. 2 data: every training sample's feature values, averaged over ``n_groups``
    consecutive blocks of samples (a heatmap of all samples would hold n x d cells)."""
    train, _ = data.train_test() if data.split is not None else (data, None)
    blocks = np.array_split(np.arange(train.n_samples), min(n_groups, train.n_samples))
    means = np.vstack([train.X[block].mean(axis=0) for block in blocks])
    return pd.DataFrame({
        "samples": np.repeat([f"{b[0] + 1}-{b[-1] + 1}" for b in blocks], train.n_features),
        "block": np.repeat(np.arange(len(blocks)), train.n_features),
        "feature": np.tile(np.arange(train.n_features), len(blocks)),
        "value": means.ravel(),
    })


def save_tables(results: Results, folder) -> list[Path]:
    """Write every table as CSV (and the settings as JSON) into ``folder``."""
    scores = results.scores
    cases = results.claim_cases
    tables = {"scores": scores, "summary": rank_summary(scores),
              "claims": mfsef_claims.claims(scores, results.timings, cases,
                                            results.stability),
              "stability": results.stability,
              "claim_cases": cases,
              "paper_comparison": paper_comparison(scores), "timings": results.timings,
              "ranks_by_size": ranks_by_size(scores)}
    for number, metric in enumerate(TABLE_METRICS, start=2):
        tables[f"table{number}_{metric}"] = ranked_table(scores, metric).reset_index()
    return write_tables(folder, tables, asdict(results.settings), results.skipped)
