"""The intH paper's experiments: integrated Hausdorff distance for neighbour bag classifiers.

Regenerates, as tidy DataFrames:
- Table 3: accuracy (mean ± std over the outer folds) of the 10 methods
  {Citation-KNN, KNN} x {minH, maxH, intH, aveH, adaH} on Musk1, Musk2, Elephant, Fox, Tiger;
- Table 4: the same on MILWEB — only user 1 is obtainable here, without the official
  75/38 train/test split, so it is evaluated with the same nested cross-validation
  (a documented deviation);
- Figs. 1-4: accuracy of Citation-KNN+intH and KNN+intH as references/K and sigma vary;
- the paper's claims, each at the scope the paper words it (every case, on average, ...),
  from the catalogue :mod:`milab_widgets.claims.inth` (per case the corrected resampled
  t-test on the outer folds);
- the speed of the alpha search (the claim "NCA + golden-section search optimises alpha
  quickly"): per classifier and outer fold, the CPU time of one NCA search (the paper's
  claim) and of the fold's 51 NCA searches (our reading of the route) against choosing
  alpha by the inner cross-validation over a grid of alphas (:func:`alpha_search_timings`,
  kept in records of its own).

Protocol (the paper's §2): 10-fold outer cross-validation; inside each training fold a 5-fold
cross-validation picks references/K from {1, 3, 5, 7} and, for intH, sigma from
{0.1, ..., 100} with alpha tuned by NCA + golden-section search; citers = references + 2.
Folds are stratified and shuffled with ``seed``. The paper does not state a feature scaling:
``scale`` is a parameter ("none" = raw features, the default of our tables).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import LeaveOneOut
from sklearn.preprocessing import StandardScaler

from milab_widgets.claims import inth as catalogue
from milab_widgets.claims.rejudge import quick_run_claims
from milab_widgets.claims.text import claims_markdown
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.fixed_params import fold_accuracies
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.evaluation.neighbors_cv import (
    ALPHA_GRID,
    K_GRID,
    SIGMA_GRID,
    alpha_by_cv_grid,
    fixed_alpha_accuracy,
    fold_table,
    grid_accuracies,
    inner_folds_of,
    nca_alphas,
    nested_cv_tasks,
    training_bags,
)
from milab_widgets.evaluation.splits import stratified_splits
from milab_widgets.evaluation.timing import alternating_cpu_seconds
from milab_widgets.experiments.tables import concat_or_empty, load_available, write_tables
from milab_widgets.mil.distances import bag_distances
from milab_widgets.mil.neighbors import CitationKNN
from milab_widgets.papers.inth import SPEC

__all__ = [
    "Settings", "Results", "run", "published_setting", "DistanceSource",
    "alpha_search_timings", "alpha_timing_record", "alpha_search_table", "summarise",
    "accuracy_table", "verdict_text", "sweep_curves", "parameter_curves", "paper_comparison",
    "save_tables",
]

#: The paper's data sets, classifiers and distances (code -> name), from its record.
TABLE3_DATASETS = SPEC.datasets["table3"]
MILWEB_DATASETS = SPEC.datasets["milweb"]
CLASSIFIERS = SPEC.vocabulary["classifier"]
#: One row of ``Results.folds``: an outer fold of one method, its selected parameters, accuracy.
FOLD_COLUMNS = ("classifier", "metric", "fold", "k", "sigma", "alpha", "inner_accuracy", "accuracy",
                "n_test", "seconds", "dataset")
METRICS = SPEC.vocabulary["distance"]
#: One row of ``Results.alpha_timing``: an outer fold of intH with one classifier, the CPU
#: seconds of its alpha searches and the comparator's choice (:func:`alpha_timing_record`).
ALPHA_TIMING_COLUMNS = ("dataset", "classifier", "fold", "nca_searches", "nca_seconds",
                        "one_search_seconds", "grid_seconds", "grid_k", "grid_alpha",
                        "grid_inner_accuracy", "grid_accuracy", "n_test")

#: Citation-KNN with minimal Hausdorff, R = 2, C = 4, as published by Wang & Zucker (ICML 2000).
#: The paper's own Tables 3-4 were lost when its text was extracted.
PUBLISHED_CITATION_KNN = pd.DataFrame(
    {"dataset": ["musk1", "musk2"], "published_accuracy": [0.924, 0.863],
     "source": ["Wang & Zucker 2000"] * 2}
)


@dataclass(frozen=True)
class Settings:
    """Everything that defines a run; quick mode shrinks the protocol, not the data."""

    quick: bool = False
    seed: int = 0
    scale: str = "none"
    outer_folds: int = 10
    inner_folds: int = 5
    k_grid: tuple = K_GRID
    sigma_grid: tuple = SIGMA_GRID

    @classmethod
    def for_mode(cls, quick: bool, seed: int = 0, scale: str = "none") -> Settings:
        if quick:
            return cls(True, seed, scale, outer_folds=5, inner_folds=3, k_grid=(1, 3, 5),
                       sigma_grid=(0.5, 5.0, 50.0))
        return cls(False, seed, scale)


@dataclass
class Results:
    """The run's tables. ``folds`` holds every outer fold of every method."""

    settings: Settings
    folds: pd.DataFrame
    sweep: pd.DataFrame
    published_setting: pd.DataFrame
    skipped: dict = field(default_factory=dict)
    alpha_timing: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=ALPHA_TIMING_COLUMNS))

    @property
    def summary(self) -> pd.DataFrame:
        return summarise(self.folds)

    @property
    def claim_cases(self) -> pd.DataFrame:
        """Every pairwise case behind the claims (``claim_cases.csv``)."""
        return catalogue.claim_cases(self.folds)

    @property
    def claims(self) -> pd.DataFrame:
        """One row per claim of the catalogue (``claims.csv``)."""
        table = catalogue.claims(self.folds, parameter_curves(self.sweep, self.folds),
                                 self.skipped, alpha_timing=self.alpha_timing)
        return quick_run_claims(table, catalogue.CATALOGUE, self.settings.quick)

    @property
    def alpha_search(self) -> pd.DataFrame:
        """Per data set, the alpha search by NCA against the CV grid
        (:func:`alpha_search_table`)."""
        return alpha_search_table(self.alpha_timing, self.folds)


def run(datasets=TABLE3_DATASETS + MILWEB_DATASETS, quick: bool = False, seed: int = 0,
        scale: str = "none", cache_dir=None, progress: bool = False,
        n_jobs: int | None = None) -> Results:
    """Run the paper's protocol on every available dataset; unavailable ones are skipped and
    reported in ``Results.skipped`` (name -> how to get it). Each dataset's nested CV is a
    joblib grid (``n_jobs``; see `milab_widgets.evaluation.grid`)."""
    settings = Settings.for_mode(quick, seed, scale)
    cache = ResultCache(cache_dir)
    fold_tables, sweep_tables, baseline_tables, timing_tables = [], [], [], []
    available, skipped = load_available(datasets)
    for name, bags in available.items():
        source = DistanceSource(bags, scale)
        fold_tables.append(_dataset_folds(name, bags.labels, source, settings, cache, progress,
                                          n_jobs))
        timing_tables.append(alpha_search_timings(name, bags.labels, source, fold_tables[-1],
                                                  settings, cache, progress, n_jobs))
        sweep_tables.append(_dataset_sweep(name, bags.labels, source, settings))
        if name in set(PUBLISHED_CITATION_KNN.dataset):
            raw = source if scale == "none" else DistanceSource(bags, "none")
            baseline_tables.append(published_setting(name, bags.labels, raw(np.arange(len(bags))),
                                                     settings))
    return Results(settings, concat_or_empty(fold_tables, FOLD_COLUMNS),
                   concat_or_empty(sweep_tables), concat_or_empty(baseline_tables), skipped,
                   concat_or_empty(timing_tables, ALPHA_TIMING_COLUMNS))


def published_setting(name, y, matrices, settings) -> pd.DataFrame:
    """Citation-KNN+minH on raw features with Wang & Zucker's fixed R = 2, C = 4 (no search),
    by leave-one-out and by repeated stratified 10-fold CV (10 repetitions; 2 in quick mode):
    the published figures' setting, to separate the protocol's effect from the method's."""
    model = CitationKNN(references=2, citers=4, metric="min")
    repeats = 2 if settings.quick else 10
    ten_fold = [split for r in range(repeats) for split in stratified_splits(y, 10, settings.seed + r)]
    loo = list(LeaveOneOut().split(y))
    return pd.DataFrame({
        "dataset": name,
        "evaluation": ["leave-one-out", f"{repeats}x10-fold"],
        "accuracy": [fold_accuracies(model, matrices, y, loo).mean(),
                     fold_accuracies(model, matrices, y, ten_fold).mean()],
    })


class DistanceSource:
    """Bag-distance matrices over all bags of a dataset, for a fold's training indices.

    With ``scale="none"`` the matrices are computed once; with "standard" the features are
    standardised with the mean/std of the training fold's instances (never the test fold's)
    and the matrices are computed per training fold (the inner folds reuse them).
    """

    def __init__(self, bags, scale: str):
        self.bags, self.scale = bags, scale
        # Computed here, so that grid workers receive the matrices instead of recomputing them.
        self._memo: dict = {None: bag_distances(bags)} if scale == "none" else {}

    def __call__(self, train_indices) -> dict:
        key = None if self.scale == "none" else tuple(np.asarray(train_indices).tolist())
        if key not in self._memo:
            self._memo = {key: bag_distances(self._scaled(train_indices))}
        return self._memo[key]

    def _scaled(self, train_indices):
        if self.scale == "none":
            return self.bags
        scaler = StandardScaler().fit(self.bags[np.asarray(train_indices)].instances)
        return self.bags.map_instances(scaler.transform)


def _dataset_folds(name, y, source, settings, cache, progress, n_jobs) -> pd.DataFrame:
    """Every method's nested CV on one dataset: a (classifier x metric x fold) joblib grid."""
    tasks = [task for classifier in CLASSIFIERS for metric in METRICS
             for task in nested_cv_tasks(
                 classifier, metric, source, y, outer_folds=settings.outer_folds,
                 inner_folds=settings.inner_folds, k_grid=settings.k_grid,
                 sigma_grid=settings.sigma_grid, seed=settings.seed,
                 cache_parts={"dataset": name, "scale": settings.scale})]
    records = run_grid(tasks, cache, n_jobs, progress, desc=name)
    return fold_table(tasks, records).assign(dataset=name)


def alpha_search_timings(name, y, source, folds, settings, cache, progress=False,
                         n_jobs=None) -> pd.DataFrame:
    """The claim "NCA + golden-section search optimises alpha quickly", timed on every outer
    fold (``folds``: the data set's fold table, whose sigma selected for intH with each
    classifier the records read): :func:`alpha_timing_record`, one cached record per (data
    set, outer fold), keyed apart from the folds' own records so that those stay valid.
    Returns one row per outer fold and classifier (:data:`ALPHA_TIMING_COLUMNS`)."""
    splits = stratified_splits(y, settings.outer_folds, settings.seed)
    protocol = {key: value for key, value in asdict(settings).items() if key != "quick"}
    integrated = folds[folds.metric == "integrated"]
    tasks = []
    for fold, rows in integrated.groupby("fold"):
        sigmas = {row.classifier: float(row.sigma) for row in rows.itertuples(index=False)}
        train, test = splits[int(fold)]
        tasks.append(GridTask(
            {"experiment": "inth-alpha-timing", "dataset": name, "fold": int(fold),
             "sigmas": sigmas, "alpha_grid": list(ALPHA_GRID), "clock": "thread_time",
             "blas_threads": 1, **protocol},
            partial(alpha_timing_record, source, y, train, test, sigmas, int(fold), settings)))
    records = run_grid(tasks, cache, n_jobs, progress, desc=f"{name}: alpha search timing")
    rows = [{"dataset": name, "classifier": classifier, "fold": task.parts["fold"], **row}
            for task, record in zip(tasks, records, strict=True)
            for classifier, row in record.items()]
    return pd.DataFrame(rows, columns=ALPHA_TIMING_COLUMNS)


def alpha_timing_record(source, y, train, test, sigmas: dict, fold: int, settings) -> dict:
    """One outer fold's alpha search by NCA against the CV grid, per classifier, timed in one
    round of :func:`~milab_widgets.evaluation.timing.alternating_cpu_seconds` (forward on even
    folds, backward on odd ones).

    * NCA (the paper's route, as the protocol runs it): alpha by NCA + golden-section search
      for every sigma of the grid on every inner training part
      (:func:`~milab_widgets.evaluation.neighbors_cv.nca_alphas`; the same for both
      classifiers, timed once), then once more on the outer training bags at the sigma
      selected for the classifier (``sigmas``: classifier -> sigma). That last search is
      also reported alone (``one_search_seconds``: one search at a fixed sigma, which is
      what the paper's wording describes).
    * The grid (the comparator): (K, alpha) by the same inner folds over
      :data:`~milab_widgets.evaluation.neighbors_cv.ALPHA_GRID`
      (:func:`~milab_widgets.evaluation.neighbors_cv.alpha_by_cv_grid`), per classifier; its
      choice is scored on the fold's test bags, untimed.

    One search and one scoring run untimed first (numba's kernels loaded). Returns
    classifier -> its row of :data:`ALPHA_TIMING_COLUMNS` after dataset, classifier, fold.
    """
    matrices = source(train)
    fold_of = inner_folds_of(y, train, settings.inner_folds, settings.seed)
    inner_folds = range(settings.inner_folds)
    chosen = {}

    def inner_searches():
        for inner_fold in inner_folds:
            nca_alphas(matrices, y, training_bags(fold_of, inner_fold), settings.sigma_grid)

    def one_search(classifier):
        return lambda: nca_alphas(matrices, y, train, [sigmas[classifier]])

    def grid(classifier):
        return lambda: chosen.update({classifier: alpha_by_cv_grid(
            classifier, matrices, y, fold_of, inner_folds, settings.k_grid, ALPHA_GRID)})

    first = next(iter(sigmas))
    one_search(first)()
    fixed_alpha_accuracy(first, matrices, y, train, test, settings.k_grid[0], ALPHA_GRID[0])
    seconds = alternating_cpu_seconds(
        {"inner_searches": inner_searches,
         **{f"one_search {name}": one_search(name) for name in sigmas},
         **{f"grid {name}": grid(name) for name in sigmas}}, rounds=1, first_round=fold)
    return {name: {
        "nca_searches": len(inner_folds) * len(settings.sigma_grid) + 1,
        "nca_seconds": seconds["inner_searches"][0] + seconds[f"one_search {name}"][0],
        "one_search_seconds": seconds[f"one_search {name}"][0],
        "grid_seconds": seconds[f"grid {name}"][0],
        "grid_k": chosen[name]["k"], "grid_alpha": chosen[name]["alpha"],
        "grid_inner_accuracy": chosen[name]["inner_accuracy"],
        "grid_accuracy": fixed_alpha_accuracy(name, matrices, y, train, test,
                                              chosen[name]["k"], chosen[name]["alpha"]),
        "n_test": int(len(test))} for name in sigmas}


def alpha_search_table(alpha_timing: pd.DataFrame, folds: pd.DataFrame) -> pd.DataFrame:
    """Per data set: the NCA route's and the grid's median CPU milliseconds per outer fold,
    the geometric-mean ratios over the folds of both classifiers
    (:func:`~milab_widgets.claims.inth.time_ratios`) grid / one NCA search (the paper's
    claim's value per data set) and grid / NCA route (our reading's, beside it), and the
    mean outer-fold accuracy of intH with alpha from each route."""
    columns = ["dataset", "folds", "nca_searches", "nca_ms", "grid_ms", "grid_over_nca",
               "grid_over_one_search", "accuracy_nca", "accuracy_grid"]
    if alpha_timing.empty:
        return pd.DataFrame(columns=columns)
    by_set = alpha_timing.groupby("dataset", sort=False)
    nca_accuracy = folds[folds.metric == "integrated"].groupby("dataset").accuracy.mean()
    table = pd.DataFrame({
        "folds": by_set.size(), "nca_searches": by_set.nca_searches.first(),
        "nca_ms": 1e3 * by_set.nca_seconds.median(), "grid_ms": 1e3 * by_set.grid_seconds.median(),
        "grid_over_nca": catalogue.time_ratios(alpha_timing, "nca_seconds"),
        "grid_over_one_search": catalogue.time_ratios(alpha_timing, "one_search_seconds"),
        "accuracy_nca": nca_accuracy, "accuracy_grid": by_set.grid_accuracy.mean()},
        index=by_set.size().index)
    return table.rename_axis("dataset").reset_index()[columns]


def _dataset_sweep(name, y, source, settings) -> pd.DataFrame:
    """Figs. 1-4: outer-fold accuracy of every (K, sigma) for both classifiers with intH."""
    splits = stratified_splits(y, settings.outer_folds, settings.seed)
    tables = []
    for classifier in CLASSIFIERS:
        scores = pd.concat(
            grid_accuracies(classifier, "integrated", source(train), y, [(train, test)],
                            settings.k_grid, settings.sigma_grid).assign(split=number)
            for number, (train, test) in enumerate(splits)
        )
        tables.append(scores.assign(dataset=name, classifier=classifier))
    return pd.concat(tables, ignore_index=True)


def summarise(folds: pd.DataFrame) -> pd.DataFrame:
    """Mean and std of outer-fold accuracy per dataset and method (Tables 3-4, tidy)."""
    summary = (
        folds.groupby(["dataset", "classifier", "metric"], sort=False)["accuracy"]
        .agg(mean="mean", std="std", folds="count").reset_index()
    )
    summary["method"] = [
        f"{CLASSIFIERS[c]}+{METRICS[m]}"
        for c, m in zip(summary.classifier, summary.metric, strict=True)
    ]
    return summary


def accuracy_table(summary: pd.DataFrame, datasets) -> pd.DataFrame:
    """The paper's layout: methods as rows, datasets as columns, "mean ± std" in percent."""
    chosen = summary[summary.dataset.isin(datasets)]
    cells = chosen.assign(cell=[f"{100 * m:.1f} ± {100 * s:.1f}"
                                for m, s in zip(chosen["mean"], chosen["std"], strict=True)])
    table = cells.pivot(index="method", columns="dataset", values="cell")
    order = [f"{CLASSIFIERS[c]}+{METRICS[m]}" for c in CLASSIFIERS for m in METRICS]
    return table.reindex(index=[m for m in order if m in table.index],
                         columns=[d for d in datasets if d in table.columns])


def verdict_text(claims: pd.DataFrame) -> str:
    """The verdict as Markdown, read from the claims table: the paper's claims, then the
    project's checks (:func:`~milab_widgets.claims.text.claims_markdown`)."""
    return ("Effects are accuracy differences in points (the sensitivity claim: MILWEB's "
            "accuracy range minus a set's); the two alpha-search rows' are ratios of CPU "
            "times, the grid's over one NCA search's (the paper's claim) and over the whole "
            "NCA route's (our reading, beside it).\n\n"
            + claims_markdown(claims, scale=100, unit=" points"))


def sweep_curves(sweep: pd.DataFrame, folds: pd.DataFrame, vary: str) -> pd.DataFrame:
    """Figs. 1-4 data: mean outer-fold accuracy as ``vary`` ("k" or "sigma") changes, the other
    parameter fixed at the value the nested cross-validation selected most often for that
    dataset and classifier (ties: the smaller value)."""
    fixed = "sigma" if vary == "k" else "k"
    chosen = (
        folds[folds.metric == "integrated"].groupby(["dataset", "classifier"])[fixed]
        .agg(lambda values: values.mode().min()).rename(f"fixed_{fixed}").reset_index()
    )
    merged = sweep.merge(chosen, on=["dataset", "classifier"])
    kept = merged[np.isclose(merged[fixed], merged[f"fixed_{fixed}"])]
    return (
        kept.groupby(["dataset", "classifier", vary, f"fixed_{fixed}"])["accuracy"]
        .agg(mean="mean", std="std").reset_index()
    )


def parameter_curves(sweep: pd.DataFrame, folds: pd.DataFrame) -> pd.DataFrame:
    """The curves of Figs. 1-4 in one table: :func:`sweep_curves` for K and for sigma, with
    the varied parameter in ``vary`` (empty when there was no sweep)."""
    columns = ["dataset", "classifier", "vary", "mean"]
    if sweep.empty or folds.empty:
        return pd.DataFrame(columns=columns)
    return pd.concat([sweep_curves(sweep, folds, vary).assign(vary=vary)[columns]
                      for vary in ("k", "sigma")], ignore_index=True)


def paper_comparison(summary: pd.DataFrame, published_setting: pd.DataFrame) -> pd.DataFrame:
    """Our Citation-KNN+minH accuracy beside Wang & Zucker's published figures: under the
    nested protocol (R selected per fold) and under their fixed R = 2, C = 4."""
    ours = summary[(summary.classifier == "citation-knn") & (summary.metric == "min")]
    nested = ours[["dataset", "mean"]].rename(columns={"mean": "accuracy"}).assign(
        evaluation="nested 10-fold CV (R selected)")
    table = PUBLISHED_CITATION_KNN.merge(pd.concat([nested, published_setting]), on="dataset")
    return table.assign(difference=table.accuracy - table.published_accuracy)


def save_tables(results: Results, folder) -> list[Path]:
    """Write every table as CSV (and the settings as JSON) into ``folder``."""
    summary = results.summary
    tables = {
        "folds": results.folds,
        "summary": summary,
        "table3": accuracy_table(summary, TABLE3_DATASETS).reset_index(),
        "table4_milweb": accuracy_table(summary, MILWEB_DATASETS).reset_index(),
        "claims": results.claims,
        "claim_cases": results.claim_cases,
        "sweep": results.sweep,
        "alpha_timing": results.alpha_timing,
        "alpha_search": results.alpha_search,
        "paper_comparison": paper_comparison(summary, results.published_setting),
    }
    return write_tables(folder, tables, asdict(results.settings), results.skipped)
