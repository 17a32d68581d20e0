"""The LSkMDDM paper's experiments: kernel MDDM as least squares (LSkMDDM, rLSkMDDM, OLSkMDDM).

Regenerates, as tidy DataFrames (../../papers/LSkMDDM.md; the sizes of the default full run
are smaller than the paper's, see :class:`Settings`):
- Table 2: kMDDM (dense eigen-solver) vs LSkMDDM (block LSQR, and block CG) on scene and
  yeast, random 2/3 : 1/3 partitions: AUC, macro-F1, micro-F1, plus the principal angle
  between their test embeddings (they must agree);
- Tables 3-6: the compared methods on the 11 Yahoo sets, random training / test partitions
  (the paper: 4000 / the rest);
- Table 7: RCV1 (rcv1subset1, random partitions; the paper: 3000 / 3000); pascal07 is not
  obtainable here;
- Figs. 1-3: AUC, macro-F1, micro-F1 vs embedding dimension on Arts, Business, Computers,
  Education (first partition);
- Fig. 4: fit time (wall-clock and CPU) vs training size for the solvers of the speed claim,
  repeated and interleaved, with each solver's accuracy (largest principal angle of the
  held-out embedding to the exact one) and fitted scaling exponents;
- the paper's claims, each at its own scope (:mod:`milab_widgets.claims.lskmddm`: the
  catalogue and its rows, from these tables and, with one partition, the stored
  per-instance test outcomes behind :func:`bootstrap_case`).

Protocol: Gaussian kernel with the median pairwise distance as width; embed to dimension =
the rank of H Y (the number of labels c, or c - 1); then ML-kNN (k = 10, s = 1). Labels
with no positive (or no negative) training instance in a partition are dropped for it
(counted in ``labels_dropped``). Methods: ML-kNN on the raw features (reference), KPCA
(scikit-learn), least-squares KCCA, LSkMDDM (the exact least-squares solution, Theorem 1
with a Cholesky factorisation — equal to kMDDM's subspace, see Table 2), rLSkMDDM
(eta = ``ridge``, closed form) and OLSkMDDM (Stiefel solver). The paper's eta is not
recoverable (its formulas were lost); we use eta = 1 for rLSkMDDM and KCCA alike.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property, partial
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.linalg import subspace_angles
from sklearn.decomposition import KernelPCA
from threadpoolctl import threadpool_limits

from milab_widgets.claims import lskmddm as lskmddm_claims
from milab_widgets.claims.rejudge import quick_run_claims
from milab_widgets.claims.scopes import exponent_gap
from milab_widgets.data.multilabel_sources import YAHOO_NAMES
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.claim_tests import verdict
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.exceptions import InputError
from milab_widgets.experiments.tables import concat_or_empty, load_available, write_tables
from milab_widgets.multilabel import MLkNN, metrics
from milab_widgets.multilabel.kcca import LeastSquaresKCCA
from milab_widgets.multilabel.kernel_mddm import KernelMDDM
from milab_widgets.multilabel.kernel_operators import median_distance
from milab_widgets.papers.lskmddm import METHODS, SPEC

__all__ = [
    "Settings", "Results", "run", "table2_runs", "method_runs", "embed", "make_method",
    "timing_runs", "interleaved_timings", "time_solvers", "cpu_timing", "median_timing",
    "speed_table", "summarise", "metric_table", "bootstrap_case", "resampled_metric",
    "save_tables", "evaluate_embedding", "split_labels", "varying_labels",
    "embedding_dimension", "held_out_partition", "random_partition", "pack_outcomes",
    "unpack_outcomes",
]

#: The paper's data sets, from its record.
TABLE2_DATASETS = SPEC.datasets["table2"]
FIGURE_DATASETS = SPEC.datasets["fig4"]
(RCV1,) = SPEC.datasets["table7"]
#: Short metric names of milab_widgets.multilabel.metrics in the paper's order.
SEED_METRICS = ("macroAUC", "macroF1", "microF1", "RL", "OE", "CV", "AP")
#: Fig. 4's solvers: name -> (KernelMDDM parameters, reference solver for its accuracy).
TIMING_SOLVERS = {
    "kMDDM (eig)": ({"solver": "eig"}, "kMDDM (eig)"),
    "kMDDM-ifp (inverse-free Krylov)": ({"solver": "ifp", "max_iter": 400}, "kMDDM (eig)"),
    "kMDDM (LOBPCG)": ({"solver": "lobpcg", "tol": 1e-4, "max_iter": 50}, "kMDDM (eig)"),
    "LSkMDDM (block LSQR)": ({"solver": "lsqr", "max_iter": 500}, "kMDDM (eig)"),
    "LSkMDDM (block CG)": ({"solver": "lsqr", "krylov": "cg"}, "kMDDM (eig)"),
    "LSkMDDM (direct)": ({"solver": "direct"}, "kMDDM (eig)"),
    "rLSkMDDM (block LSQR)": ({"solver": "lsqr", "ridge": 1.0}, "rLSkMDDM (direct)"),
    "rLSkMDDM (direct)": ({"solver": "direct", "ridge": 1.0}, "rLSkMDDM (direct)"),
    "rLSkMDDM (Nystrom 1000, LSQR)": ({"solver": "lsqr", "ridge": 1.0, "kernel_approx": "nystroem",
                                       "n_landmarks": 1000}, "rLSkMDDM (direct)"),
    "OLSkMDDM (Stiefel)": ({"solver": "orthogonal", "tol": 1e-3, "max_iter": 200},
                           "OLSkMDDM (Stiefel)"),
}
#: Held-out rows on which Fig. 4 measures the embedding accuracy.
TIMING_HELD_OUT = 500
#: The kMDDM reference every speed claim compares with, and the least-squares solvers claimed
#: faster.
EIG = "kMDDM (eig)"
LS_SOLVERS = ("LSkMDDM (block LSQR)", "LSkMDDM (block CG)", "LSkMDDM (direct)")
#: Fig. 4's solvers in a full run: the paper's three (kMDDM's dense eigen-solver, kMDDM-ifp
#: and the least-squares solvers of the speed claims), the project's direct solver and the
#: ridge variant's closed form (the others: benchmarks/bench_lskmddm.py).
CLAIM_SOLVERS = (EIG, lskmddm_claims.IFP, *LS_SOLVERS, "rLSkMDDM (direct)")


@dataclass(frozen=True)
class Settings:
    """Everything that defines a run; quick mode shrinks the protocol and the data.

    The full run is the paper's protocol at the paper's data sizes: ``repetitions`` = 10
    random Yahoo partitions (4000 training / 1000 test rows; RCV1 subset 1: 3000 / 3000;
    Table 2: 10 partitions of scene and yeast, as seed 004 L28 reads). The claims' per-set intervals come from the
    corrected resampled t over the partitions (random re-splits of one pool;
    :func:`milab_widgets.claims.lskmddm.claim_cases`); with one partition
    (``repetitions=1``) from a paired bootstrap over its test instances
    (:func:`bootstrap_case`), which covers only the test-sample noise of that one
    training set. Fig. 4 times ``timing_solvers`` (kMDDM (eig) and the solvers
    of the speed claims, kMDDM-ifp among them) on the paper's four sets at sizes 250-2000, ``timing_repeats`` = 5
    interleaved CPU times per size with one BLAS thread; a solver stops growing once its
    fastest fit at one size exceeds ``timing_budget`` = 2 CPU seconds."""

    quick: bool = False
    seed: int = 0
    repetitions: int = 10
    ridge: float = 1.0
    yahoo: tuple = YAHOO_NAMES
    yahoo_train: int = 4000
    yahoo_test: int = 1000
    table2_repetitions: int = lskmddm_claims.TABLE2_PAPER_PARTITIONS
    table2_max_train: int | None = None
    rcv1_train: int = 3000
    dimensions: tuple = (2, 5, 10, 15, 20, 25, 30, 40)
    timing_sizes: tuple = (250, 500, 1000, 2000)
    timing_datasets: tuple = FIGURE_DATASETS
    timing_solvers: tuple = CLAIM_SOLVERS
    timing_repeats: int = 5
    timing_budget: float = 2.0

    @classmethod
    def for_mode(cls, quick: bool, seed: int = 0, repetitions: int | None = None) -> Settings:
        if quick:
            return cls(True, seed, 1, yahoo=("arts", "business"), yahoo_train=800,
                       yahoo_test=400, table2_repetitions=1, table2_max_train=400,
                       rcv1_train=600, dimensions=(2, 5, 10, 20), timing_sizes=(300, 600),
                       timing_datasets=("arts",), timing_budget=10.0)
        return cls(False, seed, cls.repetitions if repetitions is None else repetitions)


@dataclass
class Results:
    settings: Settings
    table2: pd.DataFrame
    runs: pd.DataFrame
    dimensions: pd.DataFrame
    timing: pd.DataFrame
    skipped: dict = field(default_factory=dict)
    #: (dataset, partition) -> packed per-instance test outcomes (:func:`unpack_outcomes`).
    outcomes: dict = field(default_factory=dict)

    @property
    def summary(self) -> pd.DataFrame:
        return summarise(self.runs)

    @cached_property
    def claim_cases(self) -> pd.DataFrame:
        """The per-set tests of the method claims (``claim_cases.csv``; computed once: with
        one partition they are bootstraps)."""
        cases = lskmddm_claims.claim_cases(self.runs, self.outcomes, self.settings,
                                           partial(bootstrap_case, seed=self.settings.seed))
        if self.runs.empty:
            return cases
        similar = lskmddm_claims.auc_similar_cases(self.runs, self._test_train_ratio)
        return pd.concat([cases, similar], ignore_index=True) if len(similar) else cases

    @property
    def _test_train_ratio(self) -> float:
        return self.settings.yahoo_test / self.settings.yahoo_train

    @property
    def claims(self) -> pd.DataFrame:
        """``claims.csv``: one row per claim of the paper's catalogue
        (:data:`milab_widgets.claims.lskmddm.CATALOGUE`)."""
        table = lskmddm_claims.claims(self.summary, self.claim_cases, self.table2,
                                      cpu_timing(self.timing), self.dimensions, exponent_gap,
                                      self.settings.repetitions, self.runs,
                                      self._test_train_ratio)
        return quick_run_claims(table, lskmddm_claims.CATALOGUE, self.settings.quick)


def run(quick: bool = False, seed: int = 0, repetitions: int | None = None, cache_dir=None,
        progress: bool = False, n_jobs: int | None = None,
        settings: Settings | None = None) -> Results:
    """Run every experiment on the available datasets; missing ones go to ``skipped``.
    ``settings`` (e.g. the paper's full protocol) replaces quick, seed and repetitions.

    Table 2's and Tables 3-7's (dataset x partition) grids run through joblib (``n_jobs``;
    see `milab_widgets.evaluation.grid`). Fig. 4's timings always run serially: fit times
    measured beside other work would not be comparable."""
    settings = settings or Settings.for_mode(quick, seed, repetitions)
    cache = ResultCache(cache_dir)
    data, skipped = load_available(dict.fromkeys([*TABLE2_DATASETS, *settings.yahoo, RCV1]))
    table2 = table2_runs([data[name] for name in TABLE2_DATASETS if name in data], settings,
                         cache, n_jobs, progress)
    methods = method_runs([data[name] for name in [*settings.yahoo, RCV1] if name in data],
                          settings, cache, n_jobs, progress)
    timing = _concat([timing_runs(data[name], settings, cache, progress)
                      for name in settings.timing_datasets if name in data])
    skipped["pascal07"] = "not obtainable here (no copy of the Pascal VOC 2007 features)"
    return Results(settings, table2, methods["runs"], methods["dimensions"], timing, skipped,
                   methods["outcomes"])


# -- Table 2 ---------------------------------------------------------------------------------
#: Table 2's solvers: kMDDM (eig) against LSkMDDM (block LSQR and block CG, tol 1e-3 rad).
TABLE2_SOLVERS = {"kMDDM (eig)": {"solver": "eig"},
                  "LSkMDDM (block LSQR)": {"solver": "lsqr", "tol": 1e-3, "max_iter": 1500},
                  "LSkMDDM (block CG)": {"solver": "lsqr", "krylov": "cg", "tol": 1e-3}}


def table2_runs(datasets, settings: Settings, cache: ResultCache, n_jobs: int | None = None,
                progress: bool = False) -> pd.DataFrame:
    """TABLE2_SOLVERS on random 2/3 : 1/3 partitions of each dataset (the paper's protocol
    for scene and yeast), one joblib task and cached record per (dataset, partition)."""
    tasks = []
    for dataset in datasets:
        for rep in range(settings.table2_repetitions):
            train, test = random_partition(len(dataset), 2 * len(dataset) // 3, None,
                                           settings.seed + rep, settings.table2_max_train)
            tasks.append(GridTask({"experiment": "table2", "dataset": dataset.name, "rep": rep,
                                   "quick": settings.quick, "seed": settings.seed,
                                   "max_train": settings.table2_max_train},
                                  partial(_table2_record, dataset, train, test)))
    records = run_grid(tasks, cache, n_jobs, progress, desc="Table 2")
    return pd.DataFrame([{"dataset": task.parts["dataset"], "rep": task.parts["rep"], **row}
                         for task, record in zip(tasks, records, strict=True)
                         for row in record["records"]])


def _table2_record(dataset, train, test) -> dict:
    X_train, Y_train, X_test, Y_test, dropped = split_labels(dataset, train, test)
    width = median_distance(X_train)  # once per partition, shared by every solver
    embeddings, records = {}, []
    for name, params in TABLE2_SOLVERS.items():
        started = time.perf_counter()
        model = KernelMDDM(kernel_width=width, **params).fit(X_train, Y_train)
        seconds = time.perf_counter() - started
        embeddings[name] = (model.transform(X_train), model.transform(X_test))
        records.append({"method": name, "seconds": seconds, "iterations": model.n_iter_,
                        "labels_dropped": dropped,
                        **evaluate_embedding(*embeddings[name], Y_train, Y_test)})
    reference = embeddings["kMDDM (eig)"][1]
    for record in records:
        record["angle_to_eig"] = _angle(embeddings[record["method"]][1], reference)
    return {"records": records}


# -- Tables 3-7, Figs. 1-3 -------------------------------------------------------------------
def method_runs(datasets, settings: Settings, cache: ResultCache, n_jobs: int | None = None,
                progress: bool = False) -> dict:
    """Every method on each dataset's random partitions (one joblib task and cached record
    per dataset x partition); on the first partition of Figs. 1-3's datasets also the metrics
    of the leading 2, 5, ... embedding dimensions. Returns {"runs": ..., "dimensions": ...,
    "outcomes": {(dataset, rep): packed per-instance test outcomes (see
    :func:`unpack_outcomes`)}}."""
    per_dataset = [_method_tasks(dataset, settings) for dataset in datasets]
    # partition by partition, so that an interrupted run has whole partitions cached
    tasks = sorted((task for tasks in per_dataset for task in tasks),
                   key=lambda task: task.parts["rep"])
    records = run_grid(tasks, cache, n_jobs, progress, desc="methods")
    tables = {"outcomes": {(task.parts["dataset"], task.parts["rep"]): record["outcomes"]
                           for task, record in zip(tasks, records, strict=True)}}
    for table in ("runs", "dimensions"):
        tables[table] = pd.DataFrame([
            {"dataset": task.parts["dataset"], "rep": task.parts["rep"], **row}
            for task, record in zip(tasks, records, strict=True) for row in record[table]])
    return tables


def _method_tasks(dataset, settings: Settings) -> list[GridTask]:
    is_rcv1 = dataset.name.startswith("rcv1")
    n_train = settings.rcv1_train if is_rcv1 else settings.yahoo_train
    n_test = settings.rcv1_train if is_rcv1 else settings.yahoo_test
    tasks = []
    for rep in range(1 if is_rcv1 else settings.repetitions):
        train, test = random_partition(len(dataset), n_train, n_test, settings.seed + rep)
        with_dimensions = rep == 0 and dataset.name in FIGURE_DATASETS
        tasks.append(GridTask({"experiment": "methods", "dataset": dataset.name, "rep": rep,
                               "dimensions": list(settings.dimensions) if with_dimensions else [],
                               "outcomes": OUTCOMES_FORMAT, **_key(settings)},
                              partial(_method_record, dataset, train, test, settings,
                                      with_dimensions)))
    return tasks


def _method_record(dataset, train, test, settings, with_dimensions: bool) -> dict:
    X_train, Y_train, X_test, Y_test, dropped = split_labels(dataset, train, test)
    width = median_distance(X_train)  # once per partition, shared by every kernel method
    runs, dims, outcomes = [], [], {}
    for method in METHODS:
        started = time.perf_counter()
        embed_train, embed_test = embed(method, X_train, Y_train, X_test, settings.ridge, width)
        seconds = time.perf_counter() - started
        model = MLkNN(k=10, s=1.0).fit(embed_train, Y_train)
        posterior, predicted = model.predict_proba(embed_test), model.predict(embed_test)
        scores = metrics.evaluate(Y_test, posterior, predicted)
        outcomes[method] = (posterior, predicted)
        runs.append({"method": method, "seconds": seconds, "dimension": embed_train.shape[1],
                     "labels_dropped": dropped, **scores})
        if with_dimensions and method != "ML-kNN":
            for size in [d for d in settings.dimensions if d < embed_train.shape[1]]:
                dims.append({"method": method, "dimension": size, **evaluate_embedding(
                    embed_train[:, :size], embed_test[:, :size], Y_train, Y_test)})
            dims.append({"method": method, "dimension": embed_train.shape[1], **scores})
    return {"runs": runs, "dimensions": dims, "outcomes": pack_outcomes(Y_test, outcomes)}


def embed(method, X_train, Y_train, X_test, ridge, width=None, dimension=None):
    """Training and test embeddings of ``method`` fitted on the training rows, their first
    ``dimension`` columns (None: all); the raw features for ML-kNN."""
    if method == "ML-kNN":
        return X_train, X_test
    model = make_method(method, ridge, X_train, Y_train, width)
    return model.transform(X_train)[:, :dimension], model.transform(X_test)[:, :dimension]


def make_method(method: str, ridge: float, X_train, Y_train, width: float | None = None):
    """A fitted embedding of ``method`` (one of METHODS except ML-kNN, or "kMDDM") with
    Gaussian kernel width ``width`` (None: the median pairwise distance of X_train)."""
    width = median_distance(X_train) if width is None else float(width)
    if method == "KPCA":  # as many components as kernel MDDM's embedding: the rank of H Y
        return KernelPCA(embedding_dimension(Y_train), kernel="rbf", gamma=0.5 / width**2, eigen_solver="arpack",
                         random_state=0).fit(X_train)
    if method == "KCCA":
        return LeastSquaresKCCA(ridge=ridge, kernel_width=width).fit(X_train, Y_train)
    params = {"kMDDM": {"solver": "eig"}, "LSkMDDM": {"solver": "direct"},
              "rLSkMDDM": {"solver": "direct", "ridge": ridge},
              "OLSkMDDM": {"solver": "orthogonal", "tol": 1e-3, "max_iter": 200}}[method]
    return KernelMDDM(kernel_width=width, **params).fit(X_train, Y_train)


# -- Fig. 4 ----------------------------------------------------------------------------------
def timing_runs(dataset, settings: Settings, cache: ResultCache, progress=False) -> pd.DataFrame:
    """Fit time of every solver of ``settings.timing_solvers`` as the training size grows,
    ``settings.timing_repeats`` times per size, and the largest principal angle between its
    held-out embedding and its reference solver's. A solver stops growing once its fastest
    fit at one size takes more than ``settings.timing_budget`` CPU seconds (CPU time, not
    wall-clock time, so that the sizes reached do not depend on the machine's load)."""
    order = np.random.default_rng(settings.seed).permutation(len(dataset))
    held_out, pool = order[:TIMING_HELD_OUT], order[TIMING_HELD_OUT:]
    sizes = [size for size in settings.timing_sizes if size <= len(pool)]
    rows, running = [], list(settings.timing_solvers)
    for size in sizes:
        _say(progress, f"timing on {dataset.name}, n = {size}")
        parts = {"experiment": "timing", "dataset": dataset.name, "n": size,
                 "solvers": sorted(running), "repeats": settings.timing_repeats,
                 "clocks": ["wall", "cpu"], "blas_threads": 1, **_key(settings)}
        solvers = {name: TIMING_SOLVERS[name] for name in running}
        record = cache.get_or_compute(parts, partial(
            _timing_record, dataset, pool[:size], held_out, solvers, settings.timing_repeats))
        rows += [{"dataset": dataset.name, "n": size, **row} for row in record["rows"]]
        fastest = pd.DataFrame(record["rows"]).groupby("solver").cpu_seconds.min()
        running = [name for name in running if fastest[name] <= settings.timing_budget]
    return pd.DataFrame(rows)


def _timing_record(dataset, train, held_out, solvers, repeats) -> dict:
    """Fig. 4's timings of one size, with one BLAS thread: on a loaded machine OpenBLAS's
    idle threads spin, and their spinning would count as CPU time of the fits."""
    X_train, Y_train, X_test, _, _ = split_labels(dataset, train, held_out)
    with threadpool_limits(limits=1, user_api="blas"):
        return {"rows": interleaved_timings(X_train, Y_train, X_test, solvers, repeats)}


def interleaved_timings(X_train, Y_train, X_test, solvers, repeats: int) -> list[dict]:
    """:func:`time_solvers` ``repeats`` times, the solvers' order rotated by one each time
    (A B C, B C A, C A B), so that a change of the machine's load during the measurement
    falls on every solver alike; each row carries its ``repeat``."""
    names = list(solvers)
    rows = []
    for repeat in range(repeats):
        shift = repeat % len(names)
        order = {name: solvers[name] for name in names[shift:] + names[:shift]}
        rows += [{**row, "repeat": repeat} for row in time_solvers(X_train, Y_train, X_test, order)]
    return rows


def time_solvers(X_train, Y_train, X_test, solvers=None, Y_test=None,
                 embeddings: dict | None = None, progress=None) -> list[dict]:
    """Fit every solver of ``solvers`` (default TIMING_SOLVERS: name -> (parameters,
    reference)); rows with its fit time (wall-clock ``seconds`` and the process's
    ``cpu_seconds``, all threads), iterations, kernel passes, convergence and the
    largest principal angle of its X_test embedding to its reference solver's. With
    ``Y_test`` also the paper's metrics of ML-kNN on each embedding. A dict passed as
    ``embeddings`` receives every solver's X_test embedding (name -> array). ``progress``,
    when given, is called as ``progress(done, total, "solvers")`` before each solver and
    after the last (the lab's bar and Stop)."""
    solvers = TIMING_SOLVERS if solvers is None else solvers
    embeddings = {} if embeddings is None else embeddings
    report = progress or (lambda done, total, what: None)
    rows = []
    for done, (name, (params, _)) in enumerate(solvers.items()):
        report(done, len(solvers), "solvers")
        started, cpu_started = time.perf_counter(), time.process_time()
        model = KernelMDDM(random_state=0, **params).fit(X_train, Y_train)
        seconds = time.perf_counter() - started
        cpu_seconds = time.process_time() - cpu_started
        embeddings[name] = model.transform(X_test)
        row = {"solver": name, "seconds": seconds, "cpu_seconds": cpu_seconds,
               "iterations": model.n_iter_,
               "kernel_passes": model.kernel_passes_, "converged": bool(model.converged_)}
        if Y_test is not None:
            row.update(evaluate_embedding(model.transform(X_train), embeddings[name], Y_train,
                                          Y_test))
        rows.append(row)
    report(len(solvers), len(solvers), "solvers")
    for row in rows:
        reference = solvers[row["solver"]][1]
        row["reference"] = reference
        row["angle"] = (_angle(embeddings[row["solver"]], embeddings[reference])
                        if reference in embeddings else np.nan)
    return rows


def cpu_timing(timing: pd.DataFrame) -> pd.DataFrame:
    """``timing`` with ``seconds`` = the fits' CPU seconds (when recorded): the clock of the
    speed claims and of Fig. 4, far less disturbed by other jobs than wall-clock time."""
    return timing.assign(seconds=timing.cpu_seconds) if "cpu_seconds" in timing else timing


def median_timing(timing: pd.DataFrame) -> pd.DataFrame:
    """One row per dataset, n and solver: the median fit time over the repeats (and the
    first repeat's angle, iterations and convergence, which do not vary)."""
    if timing.empty:
        return timing
    keys = ["dataset", "n", "solver"]
    first = timing.drop(columns=["seconds", "repeat"], errors="ignore").groupby(keys).first()
    return first.join(timing.groupby(keys).seconds.median()).reset_index()


def speed_table(timing: pd.DataFrame) -> pd.DataFrame:
    """At the largest n where kMDDM (eig) ran: every solver's median time, speed-up over
    eig's median time and accuracy (angle to its reference), per dataset."""
    rows = []
    timing = median_timing(timing)
    for dataset, group in (timing.groupby("dataset") if len(timing) else ()):
        eig = group[group.solver == "kMDDM (eig)"]
        common = group[group.n == eig.n.max()]
        eig_seconds = float(eig[eig.n == eig.n.max()].seconds.iloc[0])
        rows += [{"dataset": dataset, "n": int(row.n), "solver": row.solver,
                  "seconds": row.seconds, "speedup_vs_eig": eig_seconds / row.seconds,
                  "angle": row.angle, "reference": row.reference, "converged": row.converged}
                 for row in common.itertuples()]
    return pd.DataFrame(rows, columns=["dataset", "n", "solver", "seconds", "speedup_vs_eig",
                                       "angle", "reference", "converged"])


# -- summaries and claims --------------------------------------------------------------------
def summarise(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over partitions of every metric, per dataset and method (tidy)."""
    if runs.empty:
        return pd.DataFrame(columns=["dataset", "method", "metric", "mean", "std", "runs"])
    long = runs.melt(id_vars=["dataset", "method", "rep"], value_vars=list(SEED_METRICS),
                     var_name="metric", value_name="value")
    return (long.groupby(["dataset", "method", "metric"], sort=False)["value"]
            .agg(mean="mean", std="std", runs="count").reset_index())


def metric_table(summary: pd.DataFrame, metric_names, datasets) -> pd.DataFrame:
    """The paper's layout: rows = dataset x metric, columns = methods, "mean ± std"."""
    chosen = summary[summary.metric.isin(metric_names) & summary.dataset.isin(datasets)]
    cells = chosen.assign(cell=[f"{m:.4f} ± {0 if np.isnan(s) else s:.4f}"
                                for m, s in zip(chosen["mean"], chosen["std"], strict=True)])
    table = cells.pivot(index=["dataset", "metric"], columns="method", values="cell")
    return table.reindex(columns=[m for m in METHODS if m in table.columns])


#: Bootstrap resamples of the test instances behind each method claim of one partition.
BOOTSTRAP_RESAMPLES = 1000


def bootstrap_case(packed: dict, metric: str, ours, rivals, n_resamples: int = BOOTSTRAP_RESAMPLES,
                   seed: int = 0, confidence: float = 0.95) -> dict:
    """Claim test of the margin max_ours(metric) - max_rivals(metric) on one test set by a
    paired bootstrap over its instances: every resample (n rows drawn with replacement,
    the same rows for every method) recomputes each method's metric from its stored
    posteriors / predictions (``packed``, :func:`unpack_outcomes`; the resamples as row
    counts, :func:`resampled_metric`). Effect = the margin on the test set itself (from the
    stored float32 posteriors: an AUC may differ from the recorded one by ~1e-5);
    interval = the percentile interval of the resampled margins;
    p = min(1, 2 min(#(m* <= 0) + 1, #(m* >= 0) + 1) / (B + 1)), which inverts it."""
    Y, methods = unpack_outcomes(packed)
    function, uses_predictions = metrics.METRICS[metric]
    chosen = {m: methods[m][1 if uses_predictions else 0] for m in (*ours, *rivals)}
    observed = lskmddm_claims.oriented_margin(
        {m: function(Y, values) for m, values in chosen.items()}, ours, rivals)
    counts = np.random.default_rng(seed).multinomial(len(Y), np.full(len(Y), 1 / len(Y)),
                                                     size=n_resamples)
    resampled = lskmddm_claims.oriented_margin(
        {m: resampled_metric(metric, Y, values, counts) for m, values in chosen.items()},
        ours, rivals)
    low, high = np.quantile(resampled, [(1 - confidence) / 2, (1 + confidence) / 2])
    tail = min(np.sum(resampled <= 0), np.sum(resampled >= 0))
    p = min(1.0, 2.0 * (tail + 1) / (n_resamples + 1))
    return {"effect": float(observed), "ci_low": float(low), "ci_high": float(high),
            "p_value": p, "verdict": verdict(low, high),
            "test": f"paired bootstrap over {len(Y)} test instances ({n_resamples} resamples)",
            "n": len(Y)}


def resampled_metric(metric: str, Y, values, counts) -> np.ndarray:
    """``metric`` ("microF1", "macroF1" or "macroAUC", as in
    `milab_widgets.multilabel.metrics`) of every resample at once: row b of ``counts``
    (B x n) says how often each test row is drawn, so resample b is the test set with row
    i repeated counts[b, i] times. ``values``: 0/1 predictions for the F1s, scores for AUC."""
    Y, values, counts = np.asarray(Y), np.asarray(values), np.asarray(counts, dtype=float)
    if metric == "macroAUC":
        return _resampled_macro_auc(Y, values, counts)
    tp, fp, fn = (Y == 1) & (values == 1), (Y == 0) & (values == 1), (Y == 1) & (values == 0)
    if metric == "microF1":
        tp, fp, fn = (part.sum(axis=1) for part in (tp, fp, fn))
    elif metric != "macroF1":
        raise ValueError(f"resampled_metric supports microF1, macroF1 and macroAUC, not {metric!r}.")
    tp, fp, fn = (counts @ part for part in (tp, fp, fn))
    denominator = 2 * tp + fp + fn
    f1 = np.divide(2 * tp, denominator, out=np.zeros_like(tp), where=denominator > 0)
    return f1 if metric == "microF1" else f1.mean(axis=1)


def _resampled_macro_auc(Y, scores, counts) -> np.ndarray:
    """Mann-Whitney AUC per label with the rows weighted by ``counts`` (ties count 1/2),
    averaged over the labels with both classes in the resample (NaN when none has)."""
    aucs = np.full((len(counts), Y.shape[1]), np.nan)
    rows = np.arange(len(Y))
    for label in range(Y.shape[1]):
        # group[i]: rank of row i's score among the distinct scores (ties share a group)
        distinct, group = np.unique(scores[:, label], return_inverse=True)
        positive = Y[:, label] == 1
        one_hot = sparse.csr_matrix((np.ones(len(Y)), (rows, group)), shape=(len(Y), len(distinct)))
        pos = (one_hot[positive].T @ counts[:, positive].T).T  # weight of positives per score
        neg = (one_hot[~positive].T @ counts[:, ~positive].T).T
        below = np.cumsum(neg, axis=1) - neg  # negatives scored strictly lower
        n_pos, n_neg = pos.sum(axis=1), neg.sum(axis=1)
        both = (n_pos > 0) & (n_neg > 0)
        aucs[both, label] = ((pos * (below + neg / 2)).sum(axis=1)[both]
                             / (n_pos[both] * n_neg[both]))
    valid = ~np.isnan(aucs)
    return np.where(valid.any(axis=1), np.nansum(aucs, axis=1) / np.maximum(valid.sum(axis=1), 1),
                    np.nan)


def save_tables(results: Results, folder) -> list[Path]:
    """Write every table as CSV (and the settings as JSON) into ``folder``."""
    summary, cases = results.summary, results.claim_cases
    yahoo = [d for d in results.settings.yahoo if d in set(summary.dataset)]
    tables = {
        "runs": results.runs, "summary": summary,
        "table3_4_auc_f1": metric_table(summary, SEED_METRICS[:3], yahoo).reset_index(),
        "table5_6_ranking": metric_table(summary, SEED_METRICS[3:], yahoo).reset_index(),
        "table7_rcv1": metric_table(summary, SEED_METRICS, [RCV1]).reset_index(),
        "figs1_3_dimensions": results.dimensions,
        **table2_and_fig4_tables(results.table2, results.timing),
        "claims": results.claims,
        "claim_cases": cases,
    }
    return write_tables(folder, tables, asdict(results.settings), results.skipped)


def table2_and_fig4_tables(table2: pd.DataFrame, timing: pd.DataFrame) -> dict:
    """Table 2's and Fig. 4's tables by file name (without ``.csv``)."""
    return {"table2": table2, "fig4_timing": timing,
            "fig4_exponents": lskmddm_claims.fig4_exponents(cpu_timing(timing)),
            "fig4_speed": speed_table(cpu_timing(timing))}


#: What :func:`rerun_table2_and_fig4` says it did (the report's run line quotes it).
RERUN_NOTE = ("Table 2 and Fig. 4 re-run at today's protocol (Table 2: {partitions} partitions; "
              "Fig. 4: {solvers}); Tables 3-7 and Figs. 1-3, and the executed notebook, are "
              "the run's own")


def rerun_table2_and_fig4(folder, cache_dir=None, progress: bool = False
                          ) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Re-run Table 2 and Fig. 4 of the full run committed in ``folder`` at today's protocol
    (:class:`Settings`' Table 2 partitions and Fig. 4 solvers; the run's seed, sizes and
    data sets), keeping its Tables 3-7 (hours of compute that these changes do not touch).
    Writes their tables and ``settings.json``; returns (Table 2, Fig. 4's timings, the note
    that the claims record carries). A quick run's folder is refused: its tables come from
    another protocol."""
    folder = Path(folder)
    saved = json.loads((folder / "settings.json").read_text())
    if saved.get("quick"):
        raise InputError(f"{folder} holds a quick run; re-run it whole with milab reproduce.")
    skipped = saved.pop("skipped", {})
    today = Settings()
    settings = replace(Settings(**{key: tuple(value) if isinstance(value, list) else value
                                   for key, value in saved.items()}),
                       table2_repetitions=today.table2_repetitions,
                       timing_solvers=today.timing_solvers)
    cache = ResultCache(cache_dir)
    data, _ = load_available(dict.fromkeys([*TABLE2_DATASETS, *settings.timing_datasets]))
    table2 = table2_runs([data[name] for name in TABLE2_DATASETS if name in data], settings,
                         cache, None, progress)
    timing = _concat([timing_runs(data[name], settings, cache, progress)
                      for name in settings.timing_datasets if name in data])
    write_tables(folder, table2_and_fig4_tables(table2, timing), asdict(settings), skipped)
    return table2, timing, RERUN_NOTE.format(partitions=settings.table2_repetitions,
                                             solvers=", ".join(settings.timing_solvers))


# -- helpers ---------------------------------------------------------------------------------
def evaluate_embedding(embed_train, embed_test, Y_train, Y_test) -> dict:
    """ML-kNN (k = 10, s = 1) on the embedding, then the paper's seven metrics (and HL)."""
    model = MLkNN(k=10, s=1.0).fit(embed_train, Y_train)
    return metrics.evaluate(Y_test, model.predict_proba(embed_test), model.predict(embed_test))


def split_labels(dataset, train, test):
    """Train/test arrays with the labels that are constant on the training part dropped."""
    keep = varying_labels(dataset.Y[train])
    return (dataset.X[train], dataset.Y[train][:, keep], dataset.X[test],
            dataset.Y[test][:, keep], int((~keep).sum()))


def varying_labels(Y_train) -> np.ndarray:
    """Mask of the labels that are neither absent from nor carried by every training row
    (a constant label has no dependence for MDDM to maximise)."""
    positives = np.asarray(Y_train).sum(axis=0)
    return (positives > 0) & (positives < len(Y_train))


def embedding_dimension(Y_train) -> int:
    """rank(H Y), H the centring matrix: the number of nonzero eigenvalues of kernel MDDM's
    problem (its K H Y Y^T H has at most this rank), so the largest useful embedding."""
    Y_train = np.asarray(Y_train, dtype=float)
    return int(np.linalg.matrix_rank(Y_train - Y_train.mean(axis=0)))


def held_out_partition(n_rows: int, n_train: int, n_test: int, seed: int):
    """The lab's partition of one data set: ``n_train`` random training rows (at most two
    thirds of the rows, so some are left to hold out), then ``n_test`` held out."""
    return random_partition(n_rows, n_train, n_test, seed, max_train=2 * n_rows // 3)


def random_partition(n, n_train, n_test, seed, max_train=None):
    """A random partition: ``n_train`` rows (capped by ``max_train``), then ``n_test`` (all
    the rest when None)."""
    order = np.random.default_rng(seed).permutation(n)
    n_train = n_train if max_train is None else min(n_train, max_train)
    test = order[n_train:] if n_test is None else order[n_train:n_train + n_test]
    return order[:n_train], test


#: Bump when the per-instance outcomes stored in the methods' records change.
OUTCOMES_FORMAT = 1


def pack_outcomes(Y, outcomes: dict) -> dict:
    """A JSON-ready record of test labels ``Y`` and ``outcomes`` (method -> (posteriors,
    0/1 predictions)): labels and predictions as packed bits, posteriors as float32."""
    return {"Y": _pack_bits(Y), **{method: {"scores": _pack_floats(scores),
                                            "predicted": _pack_bits(predicted)}
                                   for method, (scores, predicted) in outcomes.items()}}


def unpack_outcomes(packed: dict) -> tuple[np.ndarray, dict]:
    """(Y_test, {method: (posteriors, 0/1 predictions)}) from a methods record's
    ``outcomes`` (labels and predictions as packed bits, posteriors as float32)."""
    Y = _unpack_bits(packed["Y"])
    return Y, {method: (_unpack_floats(part["scores"]), _unpack_bits(part["predicted"]))
               for method, part in packed.items() if method != "Y"}


def _pack_bits(matrix) -> dict:
    matrix = np.asarray(matrix, dtype=bool)
    return {"shape": list(matrix.shape),
            "bits": base64.b64encode(np.packbits(matrix, axis=None).tobytes()).decode()}


def _unpack_bits(packed: dict) -> np.ndarray:
    size = int(np.prod(packed["shape"]))
    bits = np.unpackbits(np.frombuffer(base64.b64decode(packed["bits"]), np.uint8))[:size]
    return bits.reshape(packed["shape"]).astype(np.int64)


def _pack_floats(matrix) -> dict:
    matrix = np.asarray(matrix, dtype=np.float32)
    return {"shape": list(matrix.shape), "float32": base64.b64encode(matrix.tobytes()).decode()}


def _unpack_floats(packed: dict) -> np.ndarray:
    values = np.frombuffer(base64.b64decode(packed["float32"]), np.float32)
    return values.reshape(packed["shape"]).astype(np.float64)


def _angle(A, B) -> float:
    return float(np.max(subspace_angles(A, B)))


def _key(settings: Settings) -> dict:
    """The settings a methods or timing record depends on (besides its own parts)."""
    return {"quick": settings.quick, "seed": settings.seed, "ridge": settings.ridge,
            "train": settings.yahoo_train, "test": settings.yahoo_test,
            "rcv1_train": settings.rcv1_train}


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, flush=True)


def _concat(tables) -> pd.DataFrame:
    return concat_or_empty([table for table in tables if len(table)])
