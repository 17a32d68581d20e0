"""LSkMDDM's claims (seed 004; ../../papers/LSkMDDM.md): every claim the paper makes, and
their rows.

Where: §1 (contributions: kMDDM as least squares solved by conjugate gradients, its
effectiveness, regularisation "to improve generalisation"), §4.2 (Table 2), §4.3 (Tables
3-7, the text after them), §4.4 (Figs. 1-3), §4.5 (Fig. 4) and §5 (conclusions: "the
iterative conjugate-gradient solution lowers kMDDM's cost significantly", "l2
regularisation significantly improves generalisation").

How the cases are tested. Tables 3-6 use the paper's 10 random partitions of each Yahoo
pool (4000 training / 1000 test rows): re-splits of one pool, whose training sets
overlap, so a data set's case is Nadeau & Bengio's corrected resampled t over the
partitions with n_test / n_train = 1000 / 4000 (the interval is sqrt(1 + 10 x 0.25) = 1.87
times the plain paired t's). With one partition (a quick run, RCV1's one 3000 / 3000
split) a case is the paired bootstrap over its test instances
(:func:`~milab_widgets.experiments.lskmddm.bootstrap_case`; F1s and AUC are not instance
means). Timings: one value per data set, the geometric mean of its repeated, interleaved
CPU-time ratios at the largest size both solvers ran; never the repeats pooled.

Scopes and margins:

* "similar performance" (Table 2, kMDDM against LSkMDDM) and "quite similar AUC"
  (rLSkMDDM against OLSkMDDM): equivalence within 0.01 (one point of AUC or F1). The
  paper's tables print four decimals and call differences of this size "similar"; 0.01 is
  also about the spread of one method over the 10 partitions (AUC std 0.005-0.015 in our
  runs), so a smaller margin could not be met by any method against itself.
* "on all data sets" (rLSkMDDM's micro-F1; rLSkMDDM / OLSkMDDM's macro-F1): every case over
  the Yahoo sets, by intersection-union.
* "better than" without a quantifier (HSIC methods against KPCA and KCCA, the KPCA / KCCA
  trade-off, regularisation): on average over the Yahoo sets (Wilcoxon).
* the speed claims are about the paper's iterative solvers (block LSQR and CG) and
  kMDDM-ifp (an inverse-free eigen-solver; ours: LOBPCG): faster than kMDDM's dense
  eigen-solver (one ratio per data set), and a scaling exponent that grows more slowly.
  The project's direct (Cholesky) least-squares solver is the project's. A solver that
  Fig. 4's run did not time (``Settings.timing_solvers``) leaves its claims untested.
* "at n = 500 all methods take about the same time" (§4.5, Fig. 4): equivalence of the
  slowest and the fastest of the paper's methods within a factor of 2 (a margin of log 2
  on the log time ratio). Fig. 4 sets this against kMDDM's time growing far faster up to
  n = 2000 (a cubic cost grows 64-fold from 500 to 2000); on a plot spanning that range
  two curves a factor of 2 apart at its left end look alike, while a stricter margin (the
  0.8-1.25 of bioequivalence) would ask of a glance at a plot what the paper never
  measured. The per-data-set value is log(slowest / fastest) of the geometric-mean CPU
  times over the interleaved repeats at n = 500 (or at the smallest size timed, named in
  the row, when 500 is not one of them).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from milab_widgets.claims.catalogue import (
    Claim,
    claim_row,
    claims_table,
    exact_claim_row,
    untested,
)
from milab_widgets.claims.scopes import equivalent, every_case, faster, on_average
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, paired_case

__all__ = ["ALIKE_MARGIN", "CASE_COLUMNS", "CATALOGUE", "SIMILAR_MARGIN", "claim_cases",
           "claims", "oriented_margin"]

#: "Similar": within one point of AUC or F1 (see the module notes).
SIMILAR_MARGIN = 0.01
HIGHER = ("macroAUC", "macroF1", "microF1", "AP")
TABLE3_METRICS = ("macroAUC", "macroF1", "microF1")
EIG = "kMDDM (eig)"
PAPER_SOLVERS = ("LSkMDDM (block LSQR)", "LSkMDDM (block CG)")
IFP = "kMDDM-ifp (lobpcg)"
DIRECT = "LSkMDDM (direct)"
#: "About the same time" at n = 500: within a factor of 2 (see the module notes).
ALIKE_MARGIN = float(np.log(2.0))
ALIKE_SIZE = 500
#: Table 2's partitions: 2/3 of a data set for training, the other 1/3 for testing.
TABLE2_TEST_TRAIN = 0.5
#: Largest principal angle (radians) at which a solver counts as reaching kMDDM's subspace.
SUBSPACE_TOLERANCE = 0.05
#: A case: the data set and what is compared on it.
CASE_COLUMNS = ["dataset", "setting"]

#: (id, statement, source, scope, ours, rivals, metric, how ours and rivals combine)
#: for the method claims tested per data set; "best": max of ours minus max of rivals;
#: "both": min of ours minus max of rivals; "a-b": ours[0] minus rivals[0].
METHOD_CLAIMS = (
    ("microF1-best-everywhere", "rLSkMDDM has the highest micro-F1 on every data set, "
     "whatever the data set", "§4.3, Tables 3-4", "every case", ("rLSkMDDM",),
     ("ML-kNN", "KPCA", "KCCA", "LSkMDDM", "OLSkMDDM"), "microF1", "best"),
    ("macroF1-best-everywhere", "rLSkMDDM has the highest macro-F1 on 9 data sets and "
     "OLSkMDDM on the other 2: the best macro-F1 is always one of theirs", "§4.3, Tables 3-4",
     "every case", ("rLSkMDDM", "OLSkMDDM"), ("ML-kNN", "KPCA", "KCCA", "LSkMDDM"),
     "macroF1", "best"),
    *((f"hsic-beats-baselines-{metric}", f"kMDDM (LSkMDDM) and rLSkMDDM, which rely on HSIC, "
       f"are better than KPCA and KCCA ({metric})", "§4.3, Tables 3-4", "on average",
       ("LSkMDDM", "rLSkMDDM"), ("KPCA", "KCCA"), metric, "both") for metric in TABLE3_METRICS),
    ("kpca-beats-kcca-auc", "KPCA has a higher AUC than KCCA", "§4.3, Tables 3-4",
     "on average", ("KPCA",), ("KCCA",), "macroAUC", "a-b"),
    *((f"kcca-beats-kpca-{metric}", f"KCCA is better than KPCA on {metric}",
       "§4.3, Tables 3-4", "on average", ("KCCA",), ("KPCA",), metric, "a-b")
      for metric in ("macroF1", "microF1")),
    *((f"regularisation-helps-{metric}", f"The l2 regularisation improves generalisation: "
       f"rLSkMDDM is better than LSkMDDM ({metric})", "§1 (third contribution); §4.3; §5",
       "on average", ("rLSkMDDM",), ("LSkMDDM",), metric, "a-b") for metric in TABLE3_METRICS),
)


def _catalogue() -> tuple[Claim, ...]:
    claims = [
        Claim("table2-similar", "kMDDM and LSkMDDM (the paper's LSQR) perform alike on scene "
              "and yeast (AUC, macro-F1, micro-F1)", "§4.2, Table 2", "equivalent",
              "2 data sets x 3 partitions (mean of the 3 metrics)", margin=SIMILAR_MARGIN),
        *(Claim(cid, statement, source, scope, f"Yahoo sets x {metric}")
          for cid, statement, source, scope, *_, metric, _how in METHOD_CLAIMS),
        Claim("auc-similar", "rLSkMDDM and OLSkMDDM reach quite similar AUC on all data sets",
              "§4.3, Tables 3-4", "equivalent", "Yahoo sets (one difference each)",
              margin=SIMILAR_MARGIN),
        Claim("tables5-6-best-on-eight", "rLSkMDDM performs best on eight data sets whatever "
              "the criterion (RL, one-error, coverage, AP)", "§4.3, Tables 5-6", "exact",
              "Yahoo sets x 4 ranking metrics (count of data sets)"),
        Claim("table7-rcv1", "On RCV1 rLSkMDDM is better in RL, coverage and AP", "§4.3, "
              "Table 7", "every case", "RCV1 x 3 metrics"),
        Claim("table7-pascal07", "OLSkMDDM performs best on pascal07", "§4.3, Table 7",
              "every case", "pascal07"),
        Claim("figs1-3-grow-with-dimension", "As the embedding dimension grows, every method "
              "performs better", "§4.4, Figs. 1-3", "on average",
              "4 data sets x 5 methods x 3 metrics"),
        Claim("figs1-3-ours-lead", "rLSkMDDM and OLSkMDDM tend to perform better than the other "
              "methods across dimensions", "§4.4, Figs. 1-3", "on average",
              "4 data sets x 3 metrics"),
        *(Claim(f"faster-{solver}", f"{solver} costs far less than kMDDM as the training set "
                "grows", "§1; §4.5, Fig. 4; §5", "faster", "4 data sets (largest shared n)")
          for solver in PAPER_SOLVERS),
        Claim(f"faster-{IFP}", "kMDDM-ifp (the inverse-free eigen-solver) costs far less than "
              "kMDDM as the training set grows", "§4.5, Fig. 4", "faster",
              "4 data sets (largest shared n)"),
        Claim("fig4-alike-at-500", "At a training size of 500 all methods (kMDDM, kMDDM-ifp, "
              "LSkMDDM) take about the same time", "§4.5, Fig. 4", "equivalent",
              "4 data sets (log of the slowest over the fastest of the paper's solvers)",
              margin=ALIKE_MARGIN),
        *(Claim(f"slower-growth-{solver}", f"{solver}'s time grows more slowly with n than "
                "kMDDM's", "§2 (cost 2Tcn^2 against the eigenproblem); §4.5, Fig. 4",
                "grows more slowly", "4 data sets, sizes both ran")
          for solver in PAPER_SOLVERS),
        Claim(f"slower-growth-{IFP}", "kMDDM-ifp's time grows more slowly with n than "
              "kMDDM's", "§4.5, Fig. 4; §5", "grows more slowly", "4 data sets, sizes both ran"),
        Claim(f"faster-{DIRECT}", f"{DIRECT} is faster than kMDDM", "project (Fig. 4)",
              "faster", "4 data sets", origin="project"),
        Claim("table2-subspace", "Every least-squares solver of Table 2 reaches kMDDM's "
              "subspace (largest principal angle <= 0.05 rad)", "project (Table 2, Theorem 1)",
              "exact", "2 data sets x 2 solvers", origin="project"),
    ]
    return tuple(claims)


#: Every claim of the paper, then the project's.
CATALOGUE = _catalogue()


def _sign(metric: str) -> float:
    return 1.0 if metric in HIGHER else -1.0


def oriented_margin(values, ours, rivals, how: str = "best"):
    """The margin of ``ours`` over ``rivals`` in ``values`` (method -> number or array, a
    higher value better): "best", the best of ours minus the best rival; "both", the worse
    of ours minus the best rival; "a-b", ours[0] minus rivals[0]."""
    if how == "best":
        return np.max([values[m] for m in ours], axis=0) - np.max([values[m] for m in rivals],
                                                                   axis=0)
    if how == "both":
        return np.min([values[m] for m in ours], axis=0) - np.max([values[m] for m in rivals],
                                                                   axis=0)
    return np.asarray(values[ours[0]]) - np.asarray(values[rivals[0]])


def claim_cases(runs: pd.DataFrame, outcomes: dict, settings, bootstrap) -> pd.DataFrame:
    """Per data set and method claim: with several partitions the corrected resampled t
    over them (n_test / n_train of ``settings``), with one the paired ``bootstrap``
    (``bootstrap(packed, metric, ours, rivals)`` -> a case dict) over its test instances."""
    rows = []
    ratio = settings.yahoo_test / settings.yahoo_train
    if runs.empty:
        return pd.DataFrame(rows, columns=CLAIM_COLUMNS + CASE_COLUMNS)
    for dataset, group in runs[~runs.dataset.str.startswith("rcv1")].groupby("dataset",
                                                                              sort=False):
        by_rep = group.pivot(index="rep", columns="method", values=list(TABLE3_METRICS))
        for cid, _statement, _source, _scope, ours, rivals, metric, how in METHOD_CLAIMS:
            keys = {"claim": cid, "dataset": dataset,
                    "setting": f"{metric}: {' / '.join(ours)} vs {', '.join(rivals)}"}
            if len(by_rep) > 1:
                margins = oriented_margin(by_rep[metric], ours, rivals, how)
                result = paired_case(margins, method="corrected_t", test_train_ratio=ratio)
            elif how == "both":  # min of ours: the worse of the two against the better rival
                result = min((bootstrap(outcomes[dataset, int(by_rep.index[0])], metric,
                                        (m,), rivals) for m in ours), key=lambda r: r["effect"])
            else:
                result = bootstrap(outcomes[dataset, int(by_rep.index[0])], metric,
                                   ours if how == "best" else (ours[0],),
                                   rivals if how == "best" else (rivals[0],))
            rows.append({**result, **keys})
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS + CASE_COLUMNS)


def claims(summary: pd.DataFrame, cases: pd.DataFrame, table2: pd.DataFrame,
           timing: pd.DataFrame, dimensions: pd.DataFrame, exponent_gap,
           repetitions: int) -> pd.DataFrame:
    """``claims.csv``: one row per claim of :data:`CATALOGUE` from the experiment's tables
    (``summary``: mean per dataset, method, metric; ``cases``: :func:`claim_cases`;
    ``timing``: Fig. 4's CPU timings; ``exponent_gap(timing, slower, faster)`` the
    experiment's test of two scaling exponents)."""
    by_id = {claim.id: claim for claim in CATALOGUE}
    noise = (f"{repetitions} random re-splits of each pool (corrected resampled t over the "
             "partitions)" if repetitions > 1 else
             "the test instances of one random partition (paired bootstrap); no training-set "
             "replicate")
    rows = []
    rows.append(_table2_row(by_id["table2-similar"], table2))
    for cid, *_rest, metric, how in METHOD_CLAIMS:
        claim, own = by_id[cid], cases[cases.claim == cid]
        if own.empty:
            rows.append(untested(claim, "the Yahoo sets' runs (none available)"))
        elif claim.scope == "every case":
            rows.append(claim_row(claim, every_case(own), noise=noise, cases=own))
        else:
            rows.append(claim_row(claim, on_average(own.effect.to_numpy()),
                                  noise=f"the Yahoo sets (Wilcoxon over one effect each); per "
                                        f"set: {noise}", cases=own))
    yahoo = summary[~summary.dataset.str.startswith("rcv1")]
    rows.append(_auc_similar_row(by_id["auc-similar"], yahoo))
    rows.append(_best_on_eight_row(by_id["tables5-6-best-on-eight"], yahoo))
    rows.append(_rcv1_row(by_id["table7-rcv1"], summary))
    rows.append(untested(by_id["table7-pascal07"], "pascal07 is not obtainable here (no copy "
                                                   "of the Pascal VOC 2007 features)"))
    rows += _dimension_rows(by_id, dimensions)
    for solver in (*PAPER_SOLVERS, IFP, DIRECT):
        rows.append(_faster_row(by_id[f"faster-{solver}"], timing, solver))
    rows.append(_alike_row(by_id["fig4-alike-at-500"], timing))
    for solver in (*PAPER_SOLVERS, IFP):
        rows.append(_growth_row(by_id[f"slower-growth-{solver}"], timing, solver, exponent_gap))
    rows.append(_subspace_row(by_id["table2-subspace"], table2))
    return claims_table(rows, CATALOGUE)


def _table2_row(claim: Claim, table2: pd.DataFrame) -> dict:
    if table2.empty:
        return untested(claim, "scene and yeast (Table 2's data sets) are missing")
    values = table2.assign(score=table2[list(TABLE3_METRICS)].mean(axis=1)).pivot_table(
        index=["dataset", "rep"], columns="method", values="score")
    differences = (values["LSkMDDM (block LSQR)"] - values[EIG]).to_numpy()
    if len(differences) < 2:
        return untested(claim, "Table 2 needs at least two partitions for an interval")
    if values.index.get_level_values("rep").nunique() > 1:  # re-splits of each data set
        result = equivalent(differences, claim.margin, test_train_ratio=TABLE2_TEST_TRAIN)
        noise = ("the random 2/3 : 1/3 re-splits of scene and yeast (one difference each; "
                 "corrected resampled t with n_test / n_train = 1/2, conservative across "
                 "the two data sets, whose partitions do not overlap)")
    else:
        result = equivalent(differences, claim.margin)
        noise = "one partition of each data set (one difference each; plain t)"
    return claim_row(claim, result, noise=noise)


def _auc_similar_row(claim: Claim, summary: pd.DataFrame) -> dict:
    auc = summary[summary.metric == "macroAUC"].pivot(index="dataset", columns="method",
                                                      values="mean")
    if len(auc) < 2:
        return untested(claim, "fewer than two Yahoo sets")
    differences = (auc["rLSkMDDM"] - auc["OLSkMDDM"]).to_numpy()
    return claim_row(claim, equivalent(differences, claim.margin),
                     noise="the Yahoo sets (one mean difference over the partitions each)",
                     cases=pd.DataFrame({"effect": differences, "verdict": "inconclusive"}))


def _best_on_eight_row(claim: Claim, summary: pd.DataFrame) -> dict:
    ranking = summary[summary.metric.isin(["RL", "OE", "CV", "AP"])]
    if ranking.empty:
        return untested(claim, "the Yahoo sets' runs (none available)")
    best = ranking.assign(oriented=ranking["mean"] * ranking.metric.map(_sign))
    winners = best.loc[best.groupby(["dataset", "metric"]).oriented.idxmax()]
    everywhere = winners.groupby("dataset").method.apply(lambda m: (m == "rLSkMDDM").all())
    count = int(everywhere.sum())
    return exact_claim_row(claim, count - 8, "data sets where rLSkMDDM is best on all four, "
                           f"minus 8 ({count} of {len(everywhere)})", len(everywhere),
                           noise="none: a count of the mean results (no interval)")


def _rcv1_row(claim: Claim, summary: pd.DataFrame) -> dict:
    rcv1 = summary[summary.dataset.str.startswith("rcv1")]
    if rcv1.empty:
        return untested(claim, "RCV1 (rcv1subset1) is missing: milab fetch rcv1subset1")
    values = rcv1.pivot(index="metric", columns="method", values="mean")
    oriented = {m: _sign(m) * values.loc[m] for m in ("RL", "CV", "AP")}
    margins = [row["rLSkMDDM"] - row.drop("rLSkMDDM").max() for row in oriented.values()]
    return exact_claim_row(claim, min(margins), "rLSkMDDM's smallest margin over the best "
                           "other method on RL, coverage, AP", 3,
                           noise="none: one partition's values (no per-instance test of RL, "
                                 "coverage and AP is stored)")


def _dimension_rows(by_id: dict, dimensions: pd.DataFrame) -> list[dict]:
    grow, lead = by_id["figs1-3-grow-with-dimension"], by_id["figs1-3-ours-lead"]
    if dimensions.empty:
        reason = "Figs. 1-3's data sets (arts, business, computers, education) are missing"
        return [untested(grow, reason), untested(lead, reason)]
    long = dimensions.melt(id_vars=["dataset", "method", "dimension"],
                           value_vars=list(TABLE3_METRICS), var_name="metric")
    slopes = [np.polyfit(np.log(g.dimension), g.value, 1)[0]
              for _, g in long.groupby(["dataset", "method", "metric"]) if len(g) > 1]
    leads = []
    for (_dataset, _metric), g in long.groupby(["dataset", "metric"]):
        table = g.pivot(index="dimension", columns="method", values="value").dropna()
        leads.append(float(oriented_margin(table, ("rLSkMDDM", "OLSkMDDM"), [
            m for m in table.columns if m not in ("rLSkMDDM", "OLSkMDDM")], "best").mean()))
    note = "curves of one partition (the nested dimensions are not replicates)"
    return [claim_row(grow, on_average(slopes), noise=f"the (data set, method, metric) "
                      f"curves: Wilcoxon over each curve's slope on log dimension; {note}"),
            claim_row(lead, on_average(leads), noise=f"the (data set, metric) curves: "
                      f"Wilcoxon over the mean margin of the better of the two; {note}")]


def _largest_shared(timing: pd.DataFrame, solver: str) -> dict:
    """data set -> (eig's, solver's) CPU times at the largest n both ran."""
    pair = timing[timing.solver.isin([EIG, solver])]
    shared = pair.groupby(["dataset", "n"]).solver.transform("nunique") == 2
    pair = pair[shared]
    out = {}
    for dataset, group in pair.groupby("dataset"):
        largest = group[group.n == group.n.max()].pivot(index="repeat", columns="solver",
                                                        values="seconds")
        out[dataset] = (largest[EIG].to_numpy(), largest[solver].to_numpy())
    return out


def _faster_row(claim: Claim, timing: pd.DataFrame, solver: str) -> dict:
    if timing.empty or solver not in set(timing.solver):
        return untested(claim, f"{solver} is not among Fig. 4's timed solvers (add it to "
                               "Settings.timing_solvers)")
    times = _largest_shared(timing, solver)
    if not times:
        return untested(claim, f"Fig. 4's timings of kMDDM (eig) and {solver} at a shared size")
    result = faster({d: t[1] for d, t in times.items()}, {d: t[0] for d, t in times.items()})
    ratios = [float(np.exp(np.mean(np.log(t[0]) - np.log(t[1])))) for t in times.values()]
    return claim_row(claim, result, noise="one value per data set: the geometric mean of its "
                                          "repeated, interleaved CPU-time ratios",
                     cases=pd.DataFrame({"effect": ratios, "verdict": "inconclusive"}))


def _alike_row(claim: Claim, timing: pd.DataFrame) -> dict:
    """"At n = 500 all methods take about the same time": per data set, the log of the
    slowest over the fastest geometric-mean CPU time of the paper's solvers timed at
    :data:`ALIKE_SIZE` (or the smallest size timed), equivalent to 0 within log 2; with
    one data set, one such log ratio per interleaved repeat."""
    solvers = [EIG, *PAPER_SOLVERS, IFP]
    pair = timing[timing.solver.isin(solvers)] if len(timing) else timing
    if pair.empty or pair.solver.nunique() < 2:
        return untested(claim, "Fig. 4's timings of kMDDM (eig) and a least-squares solver")
    size = ALIKE_SIZE if ALIKE_SIZE in set(pair.n) else int(pair.n.min())
    at_size = pair[pair.n == size]
    log_times = np.log(at_size.pivot_table(index=["dataset", "repeat"], columns="solver",
                                           values="seconds")).dropna(axis=1)
    if log_times.shape[1] < 2:
        return untested(claim, f"two of the paper's solvers timed at n = {size}")
    names = ", ".join(log_times.columns)
    if log_times.index.get_level_values("dataset").nunique() > 1:
        per_set = log_times.groupby(level="dataset").mean()
        spreads = (per_set.max(axis=1) - per_set.min(axis=1)).to_numpy()
        noise = (f"the {len(spreads)} data sets at n = {size} (one log ratio of geometric-mean "
                 f"CPU times over the interleaved repeats each; solvers: {names})")
    else:
        spreads = (log_times.max(axis=1) - log_times.min(axis=1)).to_numpy()
        noise = (f"the interleaved timing repeats of one data set at n = {size} (the repeats "
                 f"are all there is; solvers: {names})")
    if len(spreads) < 2:
        return untested(claim, f"at least two data sets or repeats timed at n = {size}")
    return claim_row(claim, equivalent(spreads, claim.margin), noise=noise,
                     cases=pd.DataFrame({"effect": spreads, "verdict": "inconclusive"}))


def _growth_row(claim: Claim, timing: pd.DataFrame, solver: str, exponent_gap) -> dict:
    pair = timing[timing.solver.isin([EIG, solver])] if len(timing) else timing
    if pair.empty or pair.n.nunique() < 2:
        return untested(claim, f"Fig. 4's timings of kMDDM (eig) and {solver} at two sizes")
    shared = pair[pair.groupby(["dataset", "n"]).solver.transform("nunique") == 2]
    per_dataset = pd.DataFrame([{**exponent_gap(rows, EIG, solver), "dataset": dataset}
                                for dataset, rows in shared.groupby("dataset", sort=False)
                                if rows.n.nunique() >= 2])
    if len(per_dataset) < 2:
        return untested(claim, f"two data sets with kMDDM (eig) and {solver} timed at two "
                               "sizes or more")
    result = {**paired_case(per_dataset.effect.to_numpy(), method="t"),
              "test": f"t over {len(per_dataset)} data sets' exponent gaps (one least-squares "
                      "gap of log time on log n per data set)"}
    return claim_row(claim, result, cases=per_dataset,
                     noise="the data sets (one exponent gap each; the timing repeats only "
                           "fit each data set's gap, never count as samples)")


def _subspace_row(claim: Claim, table2: pd.DataFrame) -> dict:
    if table2.empty:
        return untested(claim, "scene and yeast (Table 2's data sets) are missing")
    worst = float(table2[table2.method != EIG].angle_to_eig.max())
    return exact_claim_row(claim, SUBSPACE_TOLERANCE - worst,
                           f"{SUBSPACE_TOLERANCE} rad minus the largest principal angle "
                           f"({worst:.1e} rad)", int((table2.method != EIG).sum()),
                           noise="none: a deterministic angle")
