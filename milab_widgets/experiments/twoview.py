"""The TwoViewMIC paper's experiments: semi-supervised two-view multi-instance clustering.

Regenerates, as tidy DataFrames:
- Tables 1-2: clustering accuracy (mean ± std over the runs) of BAMIC1-3, BAMIC-intH (our
  extension), unKer1, unKer2, Ker1, Ker2 per dataset and second-view bag generator, with 5 %
  of each class labelled and alpha = beta = 0.01;
- Figs. 1-2: accuracy of Ker1 / Ker2 over the alpha x beta grid {1e-4, ..., 1000}^2 on a
  two-class subset;
- Figs. 3-4: the objective over the iterations (convergence), for the paper's H rule and ours;
- the paper's claims, each at its own scope, and the project's checks (among them the
  fit time of Ker1 through its mixture factor against the dense kernel), from
  :mod:`milab_widgets.claims.twoview`; and the paper's quoted margins beside ours.

Data (NUS-WIDE is not obtainable; :mod:`milab_widgets.data.image_bags`): "digits-a" and
"digits-b" (real handwritten digits as two-view bags), "synthetic", or the folder of a
user's own two-view bags (:mod:`milab_widgets.data.twoview_files`).

Protocol choices where the paper is silent (all in :class:`Settings`):
- each run r draws its own labelled 5 % per class and its own initialisation (seed + r);
- BAMIC sees both views: the sum of each view's Hausdorff matrix divided by its mean
  off-diagonal entry (so neither view dominates), k-medoids from random medoids;
- kernels are cosine-normalised (:mod:`milab_widgets.mil.kernels`);
- all numerics run with one BLAS thread: the updates' products have c = 6 columns and are
  memory-bound, and on a shared 2-core machine one thread measured 3-4x faster than two.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import cached_property, partial
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from milab_widgets.claims.rejudge import quick_run_claims
from milab_widgets.claims.twoview import CATALOGUE, claims_and_cases
from milab_widgets.data.image_bags import DIGIT_SUBSETS, digits_two_view
from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
from milab_widgets.data.twoview_files import TwoViewBags, read_two_view_folder
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.clustering_scores import clustering_accuracy
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.exceptions import DataFormatError, InputError
from milab_widgets.experiments.tables import concat_or_empty, write_tables
from milab_widgets.mil.bamic import BAMIC
from milab_widgets.mil.distances import bag_distances
from milab_widgets.mil.kernels import bag_kernel_factors, bag_kernel_matrices
from milab_widgets.mil.twoview import TwoViewMIClustering
from milab_widgets.papers.twoview import SPEC

__all__ = [
    "Settings", "Results", "run", "load_problem", "partial_labels", "ProblemCache",
    "fit_method", "table_runs", "grid_runs", "convergence_runs", "grid_problem", "summarise",
    "accuracy_table", "grid_means", "paper_comparison", "fit_time_runs", "save_tables",
]

TABLE_DATASETS = SPEC.datasets["tables"]
#: What every TwoViewMIC verdict rests on, said under it (notebook and ``milab rejudge``).
STAND_IN_NOTE = ("Data: handwritten digits as two-view bags, a stand-in for NUS-WIDE, so every "
                 "claim of the paper is reported beside its evidence (basis: stand-in data), "
                 "none in its tallies; the quoted NUS-WIDE1 margins and levels (4.17 / 5.91 / "
                 "4.07 points, 65 %, 75 %) are reported, not decided; the paper's own tables "
                 "were lost.")
#: Method -> (family, setting): BAMIC metric, or (kernel, unsupervised); in the record's
#: order of the methods (milab_widgets.papers.twoview).
_IMPLEMENTATIONS = {
    "BAMIC1": ("bamic", "min"), "BAMIC2": ("bamic", "max"), "BAMIC3": ("bamic", "average"),
    "BAMIC-intH": ("bamic", "integrated"),
    "unKer1": ("model", ("mixture", True)), "unKer2": ("model", ("minimax", True)),
    "Ker1": ("model", ("mixture", False)), "Ker2": ("model", ("minimax", False)),
}
METHODS = {name: _IMPLEMENTATIONS[name] for name in SPEC.vocabulary["method"]}
KERNEL_NAMES = SPEC.vocabulary["kernel"]
GRID = (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0)
#: The paper's reported margins (NUS-WIDE1, §3.3): accuracy points by which its best model
#: beat every other model's average accuracy, per bag generator. Its tables were lost.
PAPER_MARGINS = pd.DataFrame({
    "generator": ["kmeansseg", "lbp", "sift"], "paper_best": ["Ker1", "Ker2", "Ker1"],
    "paper_margin_points": [4.17, 5.91, 4.07],
})


@dataclass(frozen=True)
class Settings:
    """Everything that defines a run; quick mode shrinks the protocol, not the data.

    The full run is the paper's protocol: ``runs`` = 10 random initialisations per table
    cell, and Figs. 1-2 over the full 8 x 8 (alpha, beta) grid (``grid_alphas=None``: the
    alpha values are ``grid``, as beta) with ``grid_runs`` = 10 runs per cell."""

    quick: bool = False
    seed: int = 0
    runs: int = 10
    alpha: float = 0.01
    beta: float = 0.01
    labelled_fraction: float = 0.05
    max_iter: int = 300
    tol: float = 1e-5
    n_components: int = 100
    normalize: bool = True
    grid: tuple = GRID
    #: The alpha values of Figs. 1-2 (None: ``grid``, as beta).
    grid_alphas: tuple | None = None
    grid_runs: int = 10
    grid_dataset: str = "digits-a"
    grid_classes: tuple = ("3", "5")
    convergence_iter: int = 300
    convergence_betas: tuple = (0.01, 100.0)
    timing_repeats: int = 5
    timing_iterations: int = 100

    @classmethod
    def for_mode(cls, quick: bool, seed: int = 0) -> Settings:
        if quick:
            return cls(True, seed, runs=2, max_iter=100, grid=(1e-4, 1e-2, 1.0, 100.0),
                       grid_alphas=None, grid_runs=1, convergence_iter=100, timing_repeats=3,
                       timing_iterations=20)
        return cls(False, seed)


@dataclass
class Results:
    settings: Settings
    runs: pd.DataFrame
    grid: pd.DataFrame
    convergence: pd.DataFrame
    skipped: dict = field(default_factory=dict)
    #: Ker1's fit times, factored against dense (:func:`fit_time_runs`).
    timing: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def summary(self) -> pd.DataFrame:
        return summarise(self.runs)

    @cached_property
    def _claims_and_cases(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return claims_and_cases(self.runs, self.grid, self.convergence, self.timing)

    @property
    def claims(self) -> pd.DataFrame:
        """One row per claim of the paper's catalogue and the project's checks
        (:mod:`milab_widgets.claims.twoview`): ``claims.csv``."""
        return quick_run_claims(self._claims_and_cases[0], CATALOGUE, self.settings.quick)

    @property
    def claim_cases(self) -> pd.DataFrame:
        """The claims' cases with their own tests: ``claim_cases.csv``."""
        return self._claims_and_cases[1]


def run(datasets: Iterable[str] = TABLE_DATASETS, quick: bool = False, seed: int = 0,
        cache_dir=None, progress: bool = False, settings: Settings | None = None,
        n_jobs: int | None = None) -> Results:
    """Tables 1-2 on every dataset, Figs. 1-4 on the grid dataset's two-class subset.

    ``datasets``: "digits-a", "digits-b", "synthetic" or folders in the two-view format; a
    folder that cannot be read is skipped and reported in ``Results.skipped``.
    ``n_jobs``: the tables' and Figs. 1-2's grids run through joblib
    (`milab_widgets.evaluation.grid`); None is serial unless a joblib backend is set.
    """
    settings = settings or Settings.for_mode(quick, seed)
    cache = ResultCache(cache_dir)
    tables, timings, loaded, skipped = [], [], {}, {}
    with threadpool_limits(limits=1, user_api="blas"):
        for name in datasets:
            try:
                loaded[name] = load_problem(name)
            except DataFormatError as error:
                skipped[name] = str(error)
                continue
            problem = ProblemCache(loaded[name], settings)
            tables.append(table_runs(loaded[name], settings, cache, progress, n_jobs, problem))
            timings.append(fit_time_runs(problem, settings, cache))
        grid, convergence = _figure_runs(settings, cache, progress, skipped,
                                         loaded.get(settings.grid_dataset), n_jobs)
    return Results(settings, concat_or_empty(tables), grid, convergence, skipped,
                   concat_or_empty(timings))


def load_problem(name: str) -> TwoViewBags:
    """A dataset by name ("digits-a", "digits-b", "synthetic") or a two-view folder path."""
    if name in DIGIT_SUBSETS:
        return digits_two_view(name)
    if name == "synthetic":
        return synthetic_two_view_bags(n_clusters=6, bags_per_cluster=60, seed=0)
    if not Path(name).is_dir():
        raise DataFormatError(
            f"{name!r} is neither a dataset ({[*DIGIT_SUBSETS, 'synthetic']}) nor a folder "
            "of two-view bags (see milab_widgets.data.twoview_files for the format)."
        )
    return read_two_view_folder(name)


def partial_labels(y, fraction: float, seed: int) -> np.ndarray:
    """y with all but a random ``fraction`` of each class set to -1 (at least one per class)."""
    if not 0.0 < fraction <= 1.0:
        raise InputError(f"fraction must lie in (0, 1], got {fraction!r}.")
    y = np.asarray(y)
    rng = np.random.default_rng(seed)
    partial = np.full(len(y), -1, dtype=np.int64)
    for label in np.unique(y):
        members = np.flatnonzero(y == label)
        chosen = rng.choice(members, max(1, round(fraction * len(members))), replace=False)
        partial[chosen] = label
    return partial


#: View selections: both views (the paper), or one of them (an ablation the panel offers).
VIEW_CHOICES = ("both", "first", "second")


class ProblemCache:
    """The kernels and BAMIC distances of one dataset's views, computed on first use and
    kept per view (the first view's are shared by every generator)."""

    def __init__(self, data: TwoViewBags, settings: Settings):
        self.data, self.settings = data, settings
        self._kernels: dict = {}
        self._distances: dict = {}

    def view_names(self, generator: str, views: str = "both") -> list[str]:
        """Names of the chosen views: "first" and/or the generator's second view."""
        self.data.views(generator)  # checks the generator
        names = {"both": ["first", generator], "first": ["first"], "second": [generator]}
        if views not in names:
            raise InputError(f"views={views!r} is not one of {list(VIEW_CHOICES)}.")
        return names[views]

    def kernels(self, generator: str, kernel: str, views: str = "both",
                progress=None) -> tuple[str, list]:
        """("factored", factors) for the mixture kernel, ("precomputed", matrices) else.

        ``progress``, when given, is called as ``progress(done, total, "kernels of the
        views")`` before each view and after the last (the lab's bar and Stop)."""
        names = self.view_names(generator, views)
        report = progress or (lambda done, total, what: None)
        for done, name in enumerate(names):
            report(done, len(names), "kernels of the views")
            if (name, kernel) not in self._kernels:
                self._kernels[name, kernel] = self._view_kernel(self._view(name), kernel)
        report(len(names), len(names), "kernels of the views")
        form = "factored" if kernel == "mixture" else "precomputed"
        return form, [self._kernels[name, kernel] for name in names]

    def distances(self, generator: str, views: str = "both") -> dict:
        """The chosen views' min/max/average Hausdorff matrices, each divided by its mean
        off-diagonal entry, summed over the views."""
        names = self.view_names(generator, views)
        for name in names:
            if name not in self._distances:
                self._distances[name] = {kind: _mean_scaled(matrix) for kind, matrix
                                         in bag_distances(self._view(name)).items()}
        return {kind: sum(self._distances[name][kind] for name in names)
                for kind in self._distances[names[0]]}

    def _view(self, name: str):
        return self.data.first if name == "first" else self.data.second[name]

    def _view_kernel(self, view, kernel: str) -> np.ndarray:
        params = {"normalize": self.settings.normalize, "random_state": self.settings.seed}
        if kernel == "mixture":
            return bag_kernel_factors([view], n_components=self.settings.n_components,
                                      **params)[0]
        return bag_kernel_matrices([view], kernel, **params)[0]


def fit_method(method: str, problem: ProblemCache, generator: str, y_partial, settings,
               run_seed: int, views: str = "both", **model_params):
    """Fit one of :data:`METHODS` on a problem's chosen views; returns the fitted estimator."""
    family, setting = METHODS[method]
    n_clusters = problem.data.n_classes
    if family == "bamic":
        return BAMIC(n_clusters, metric=setting, random_state=run_seed).fit(
            problem.distances(generator, views), y_partial)
    kernel, unsupervised = setting
    form, kernels = problem.kernels(generator, kernel, views)
    params = {"alpha": settings.alpha, "beta": settings.beta, "max_iter": settings.max_iter,
              "tol": settings.tol, **model_params}
    model = TwoViewMIClustering(n_clusters, kernel=form, unsupervised=unsupervised,
                                random_state=run_seed, **params)
    return model.fit(kernels, y_partial)


def table_runs(data: TwoViewBags, settings: Settings, cache: ResultCache,
               progress: bool = False, n_jobs: int | None = None,
               problem: ProblemCache | None = None) -> pd.DataFrame:
    """Tables 1-2: one row per (generator, method, run) with the clustering accuracy.

    The (generator x method x run) grid runs through joblib (`evaluation.grid.run_grid`); on
    a parallel backend each worker builds the kernels its tasks need. ``problem``:
    ``data``'s ProblemCache, to share its kernels with other runs."""
    problem = problem or ProblemCache(data, settings)
    jobs = [(g, m, r) for g in data.generators for m in METHODS for r in range(settings.runs)]
    tasks = [GridTask({"table": data.name, "generator": g, "method": m, "run": settings.seed + r,
                       **_model_parts(settings)},
                      partial(_table_record, problem, g, m, settings.seed + r, settings))
             for g, m, r in jobs]
    records = run_grid(tasks, cache, n_jobs, progress, desc=data.name)
    return pd.DataFrame([{"dataset": data.name, "generator": g, "method": m, "run": r, **record}
                         for (g, m, r), record in zip(jobs, records, strict=True)])


def _table_record(problem: ProblemCache, generator, method, run_seed, settings) -> dict:
    data = problem.data
    y_partial = partial_labels(data.labels, settings.labelled_fraction, run_seed)
    model = fit_method(method, problem, generator, y_partial, settings, run_seed)
    return {"accuracy": clustering_accuracy(data.labels, model.labels_),
            "n_iter": int(model.n_iter_)}


def grid_runs(data: TwoViewBags, settings: Settings, cache: ResultCache,
              progress: bool = False, problem: ProblemCache | None = None,
              n_jobs: int | None = None) -> pd.DataFrame:
    """Figs. 1-2: accuracy of Ker1 and Ker2 for every (alpha, beta) of the grid, a joblib
    grid like `table_runs`.

    ``problem``: ``data``'s ProblemCache, to share its kernels with other runs."""
    problem = problem or ProblemCache(data, settings)
    jobs = [(g, k, a, b) for g in data.generators for k in KERNEL_NAMES
            for a in settings.grid_alphas or settings.grid for b in settings.grid]
    tasks = [GridTask({**_model_parts(settings), "grid": data.name, "generator": g, "kernel": k,
                       "alpha": a, "beta": b, "runs": settings.grid_runs},
                      partial(_grid_record, problem, g, k, a, b, settings))
             for g, k, a, b in jobs]
    records = run_grid(tasks, cache, n_jobs, progress, desc="grid")
    return pd.DataFrame([
        {"dataset": data.name, "generator": g, "kernel": k, "method": KERNEL_NAMES[k],
         "alpha": a, "beta": b, "run": r, "accuracy": accuracy}
        for (g, k, a, b), record in zip(jobs, records, strict=True)
        for r, accuracy in enumerate(record["accuracies"])
    ])


def _grid_record(problem: ProblemCache, generator, kernel, alpha, beta, settings) -> dict:
    data, accuracies = problem.data, []
    for r in range(settings.grid_runs):
        y_partial = partial_labels(data.labels, settings.labelled_fraction, settings.seed + r)
        model = fit_method(KERNEL_NAMES[kernel], problem, generator, y_partial, settings,
                           settings.seed + r, alpha=alpha, beta=beta)
        accuracies.append(clustering_accuracy(data.labels, model.labels_))
    return {"accuracies": accuracies}


def convergence_runs(data: TwoViewBags, settings: Settings,
                     problem: ProblemCache | None = None) -> pd.DataFrame:
    """Figs. 3-4: the objective after every iteration of Ker1 and Ker2, for the monotone
    and the paper's ("paper") H rule, at alpha = 0.01 and each of ``convergence_betas``.

    ``problem``: ``data``'s ProblemCache, to share its kernels with other runs."""
    problem = problem or ProblemCache(data, settings)
    y_partial = partial_labels(data.labels, settings.labelled_fraction, settings.seed)
    tables = []
    for generator in data.generators:
        for kernel, method in KERNEL_NAMES.items():
            for beta in settings.convergence_betas:
                for update in ("monotone", "paper"):
                    model = fit_method(method, problem, generator, y_partial, settings,
                                       settings.seed, beta=beta, update=update, tol=0.0,
                                       max_iter=settings.convergence_iter)
                    tables.append(pd.DataFrame({
                        "dataset": data.name, "generator": generator, "kernel": kernel,
                        "method": method, "beta": beta, "update": update,
                        "iteration": np.arange(len(model.objective_)),
                        "objective": model.objective_,
                    }))
    return pd.concat(tables, ignore_index=True)


def grid_problem(settings: Settings, data: TwoViewBags | None = None) -> TwoViewBags:
    """The two-class subset of Figs. 1-4 (the paper: "two classes of NUS-WIDE1") of
    ``data``, the grid dataset (loaded when not given)."""
    data = data if data is not None else load_problem(settings.grid_dataset)
    missing = [name for name in settings.grid_classes if name not in data.class_names]
    if missing:
        raise InputError(f"grid_classes {missing} are not classes of {data.name} "
                         f"({list(data.class_names)}).")
    return data.subset([data.class_names.index(name) for name in settings.grid_classes])


def _figure_runs(settings, cache, progress, skipped, data=None,
                 n_jobs=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs. 1-4 on the grid dataset's subset (``data``: the grid dataset, if loaded),
    whose kernels both figures share."""
    try:
        pair = grid_problem(settings, data)
    except DataFormatError as error:
        skipped[f"Figs. 1-4 ({settings.grid_dataset})"] = str(error)
        return pd.DataFrame(), pd.DataFrame()
    problem = ProblemCache(pair, settings)
    return (grid_runs(pair, settings, cache, progress, problem, n_jobs),
            convergence_runs(pair, settings, problem))


def summarise(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and std of accuracy over the runs, per dataset, generator and method."""
    return (runs.groupby(["dataset", "generator", "method"], sort=False)["accuracy"]
            .agg(mean="mean", std="std", runs="count").reset_index())


def accuracy_table(summary: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """The paper's layout: methods as rows, generators (+ Avg) as columns, "mean ± std" %."""
    chosen = summary[summary.dataset == dataset]
    if chosen.empty:
        return pd.DataFrame()
    cells = chosen.assign(cell=[f"{100 * m:.1f} ± {100 * s:.1f}"
                                for m, s in zip(chosen["mean"], chosen["std"].fillna(0),
                                                strict=True)])
    table = cells.pivot(index="method", columns="generator", values="cell")
    average = chosen.groupby("method")["mean"].mean()
    table["Avg"] = [f"{100 * average[m]:.1f}" for m in table.index]
    order = [m for m in METHODS if m in table.index]
    return table.reindex(index=order, columns=[*dict.fromkeys(chosen.generator), "Avg"])


def grid_means(grid: pd.DataFrame) -> pd.DataFrame:
    """Figs. 1-2 data: mean accuracy over the runs per generator, kernel, alpha and beta."""
    return (grid.groupby(["dataset", "generator", "kernel", "method", "alpha", "beta"])
            ["accuracy"].mean().rename("accuracy").reset_index())


def paper_comparison(summary: pd.DataFrame, dataset: str = "digits-a") -> pd.DataFrame:
    """Per generator: our best model's margin over every other method beside the paper's
    (NUS-WIDE1; different data, so only the sign and size are comparable)."""
    rows = []
    for generator, group in summary[summary.dataset == dataset].groupby("generator", sort=False):
        accuracy = dict(zip(group.method, group["mean"], strict=True))
        best = max(("Ker1", "Ker2"), key=accuracy.get)
        rival = max((m for m in accuracy if m not in ("Ker1", "Ker2")), key=accuracy.get)
        rows.append({"generator": generator, "our_best": best, "best_other": rival,
                     "our_margin_points": 100 * (accuracy[best] - accuracy[rival])})
    ours = pd.DataFrame(rows, columns=["generator", "our_best", "best_other", "our_margin_points"])
    return PAPER_MARGINS.merge(ours, on="generator", how="right")


def fit_time_runs(problem: ProblemCache, settings: Settings, cache: ResultCache,
                  generator: str | None = None) -> pd.DataFrame:
    """Fit time of Ker1 (both views, the tables' alpha, beta, 5 % labelled) through its
    m x K mixture factor and on the dense m x m kernel F F^T with the same updates, for
    ``settings.timing_iterations`` iterations (tol = 0), ``settings.timing_repeats`` times,
    alternating which goes first. One cached record per dataset and generator."""
    data = problem.data
    generator = generator or data.generators[0]
    parts = {**_model_parts(settings), "fit_time": data.name, "generator": generator,
             "repeats": settings.timing_repeats, "iterations": settings.timing_iterations}
    record = cache.get_or_compute(parts, partial(_fit_time_record, problem, generator, settings))
    return pd.DataFrame([{"dataset": data.name, "generator": generator,
                          "iterations": settings.timing_iterations, **row}
                         for row in record["rows"]])


def _fit_time_record(problem: ProblemCache, generator: str, settings: Settings) -> dict:
    _, factors = problem.kernels(generator, "mixture")
    forms = {"factored": ("factored", factors),
             "dense": ("precomputed", [factor @ factor.T for factor in factors])}
    y_partial = partial_labels(problem.data.labels, settings.labelled_fraction, settings.seed)
    rows = []
    for repeat in range(settings.timing_repeats):
        order = list(forms) if repeat % 2 == 0 else list(forms)[::-1]
        labels = {}
        for form in order:
            kind, kernels = forms[form]
            model = TwoViewMIClustering(problem.data.n_classes, kernel=kind, alpha=settings.alpha,
                                        beta=settings.beta, max_iter=settings.timing_iterations,
                                        tol=0.0, random_state=settings.seed)
            started = time.perf_counter()
            model.fit(kernels, y_partial)
            seconds = time.perf_counter() - started
            labels[form] = model.labels_
            rows.append({"form": form, "repeat": repeat, "seconds": seconds})
        same = bool(np.array_equal(labels["factored"], labels["dense"]))
        for row in rows[-2:]:
            row["same_labels"] = same
    return {"rows": rows}


def save_tables(results: Results, folder) -> list[Path]:
    """Write every table as CSV (and the settings as JSON) into ``folder``."""
    summary = results.summary
    tables = {"runs": results.runs, "summary": summary, "grid": results.grid,
              "convergence": results.convergence, "fit_times": results.timing,
              "claims": results.claims, "claim_cases": results.claim_cases,
              "paper_comparison": paper_comparison(summary)}
    for number, dataset in enumerate(dict.fromkeys(results.runs.get("dataset", [])), start=1):
        tables[f"table{number}_{dataset}"] = accuracy_table(summary, dataset).reset_index()
    return write_tables(folder, tables, asdict(results.settings), results.skipped)


def _model_parts(settings: Settings) -> dict:
    """The settings a cached accuracy depends on (besides the run's own seed)."""
    keys = ("alpha", "beta", "labelled_fraction", "max_iter", "tol", "n_components",
            "normalize", "seed")
    return {key: getattr(settings, key) for key in keys}


def _mean_scaled(matrix: np.ndarray) -> np.ndarray:
    """matrix / its mean off-diagonal entry (1 if that mean is 0)."""
    n = len(matrix)
    mean = (matrix.sum() - np.trace(matrix)) / max(n * (n - 1), 1)
    return matrix / mean if mean > 0 else matrix

