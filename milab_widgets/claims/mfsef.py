"""MFSEF's claims (seed 001; ../../papers/MFSEF.md): every claim the paper makes, and their rows.

Where the paper makes its claims: §1 (the contributions and the motivation: PMU is slow,
"our algorithm is better than the common multi-label feature selection algorithms on 4
metrics over 7 data sets", confirmed by statistical tests), §2.2 (choosing the expert
features first avoids repeated computation and speeds selection up), §3.2 (the text after
Tables 2-5, items 1-4, and the text on Fig. 4), §3.3 (Fig. 5, Nemenyi at 5 %) and §4
(conclusions: an advantage over the compared algorithms and good stability). A claim made
in several places is one row, with every place in its ``source``.

How each scope is tested here (the protocol is one fixed 2000 / 3000 split per data set;
only the stability claim resamples the training part):

* **per case** (MFSEF against one method, on one data set, one metric, one feature count):
  the paired t over the 3000 test instances of the per-instance metric difference
  (:func:`claim_cases`). The four table metrics are means over instances, so the metric
  difference is the mean of independent per-instance differences, which the t interval
  fits; with n = 3000 it equals the paired bootstrap's percentile interval to ~1 % of its
  width (measured: [-0.00391, +0.01032] against [-0.00399, +0.01032]) at a thousandth of
  its cost (7 s per bootstrap case, 140 table cases). The interval covers the test sample's
  noise only: the one fixed training split has no replicate.
* **best rank** (Tables 2-5 text, Fig. 5 "first on all four metrics"): Friedman + Nemenyi
  over the 7 data sets (:func:`~milab_widgets.claims.scopes.best_rank`); "reproduced" is
  "no" whenever another method has a better average rank.
* **every case** ("best on every data set but Business", "within the first 50 features
  better on all four metrics"): intersection-union over the cases.
* **Fig. 5's significance statements**: "above threshold": each named rival's average
  rank trails MFSEF's by more than the critical difference (margin: the paper's
  CD = 2.850 for 6 methods over 7 data sets; the test uses the CD of the data sets
  present). A case's effect is its rank gap (interval gap ± CD, so "supported" is exactly
  "significant"); ``reproduced`` reads whether the gap exceeds the CD.
* **faster**: one fit time per data set (the selectors are fitted once per data set),
  the geometric-mean ratio over the data sets.
* **stable** (§1: statistical tests "confirm the rationality and stability"; §4: "a certain
  advantage and better stability than the compared multi-label feature selection
  algorithms"): the paper names no measure. We read it in the field's standard sense: a
  selector is stable when the subset it selects changes little as the training data are
  resampled (Kalousis et al. 2007; Nogueira, Sechidis & Brown 2018, JMLR 18(174)). The
  measure is Nogueira et al.'s Φ̂
  (:func:`~milab_widgets.evaluation.selection_stability.nogueira_stability`) of the
  subsets of the table's feature count that a selector keeps on B bootstrap samples of a
  data set's training part (the experiment's ``stability`` table; B = 30 in a full run).
  "Better than the compared algorithms" is one case per rival selector (MDDMspc,
  MDDMproj, PMU, MFSLS; Original selects every feature, so has no subset to compare):
  MFSEF's Φ̂ minus the rival's per data set, Wilcoxon over the 7 data sets; the claim
  holds only against every rival (*every case*: intersection-union over the rivals).
  §3.2's "effective and robust" sums up items 1-4 (MFSEF first on most data sets on
  every metric): that reading of "robust" is the ``first-on-sets`` rows, not a row of its
  own.

The project's own checks (origin "project"): MFSEF better than each method on each metric
on average over the data sets, the Wilcoxon signed-rank test (20 tests, Holm within them).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from milab_widgets.claims.catalogue import (
    Claim,
    claim_row,
    claims_table,
    exact_claim_row,
    untested,
)
from milab_widgets.claims.rejudge import rejudged
from milab_widgets.claims.scopes import best_rank, every_case, faster, on_average
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, paired_case, rank_gap_case
from milab_widgets.evaluation.ranking_stats import nemenyi_cd, rank_methods
from milab_widgets.multilabel.metrics import LOWER_IS_BETTER
from milab_widgets.papers.mfsef import SPEC

__all__ = ["CATALOGUE", "CASE_COLUMNS", "FIG4_DATASET", "FIG4_MAX_FEATURES", "FIG5_PANELS",
           "PAPER_CD", "PAPER_MFSEF_RANKS", "PAPER_SIGNIFICANT", "claim_cases", "claims",
           "rejudge"]

#: The paper's seven Yahoo sets ("Artificial" is Arts) and its four table metrics.
DATASETS = SPEC.datasets["tables"]
METRICS = tuple(SPEC.vocabulary["metric"])
NAMES = {"AP": "average precision", "HL": "Hamming loss", "RL": "ranking loss",
         "OE": "one-error"}
RIVALS = ("Original", "MDDMspc", "MDDMproj", "PMU", "MFSLS")
#: §3.2 items 1-4: MFSEF's rank where it is not first (1 on every other data set).
PAPER_MFSEF_RANKS = {
    "AP": {"business": 2},
    "HL": {"business": 2, "arts": 2},
    "RL": {"health": 2, "business": 3},
    "OE": {"entertainment": 3, "business": 2},
}
#: Fig. 5 (§3.3): the methods MFSEF beats significantly (Nemenyi, alpha = 0.05).
PAPER_SIGNIFICANT = {
    "AP": ("MDDMspc", "PMU", "MDDMproj"), "RL": ("MDDMspc", "PMU", "MDDMproj"),
    "OE": ("MDDMspc", "PMU", "MDDMproj"), "HL": ("MDDMproj", "MDDMspc"),
}
#: Fig. 5's critical difference (6 methods, 7 data sets, alpha = 0.05), and the share of
#: MFSEF's 20 comparisons the paper calls not significant (9 of 20).
PAPER_CD = 2.850
PAPER_NOT_SIGNIFICANT_SHARE = 0.45
#: Fig. 5's panel of each metric (seed 001 L103: "AP, RL, HL, OE", (a), (b), (d) for AP,
#: RL, OE and (c) for HL).
FIG5_PANELS = {"AP": "a", "RL": "b", "HL": "c", "OE": "d"}
#: Fig. 4: the data set shown and "about the first 50 features".
FIG4_DATASET = "arts"
FIG4_MAX_FEATURES = 50
#: What names a case in ``claim_cases.csv``, and the two values behind its effect.
CASE_COLUMNS = ["dataset", "metric", "rival", "n_features", "MFSEF", "rival_value"]

#: The selectors whose stability MFSEF's is compared with (Original keeps every feature).
STABILITY_RIVALS = RIVALS[1:]

PER_INSTANCE_NOISE = ("test instances of the one fixed 2000/3000 split (paired t over the "
                      "per-instance differences); no training-set replicate")
RANK_NOISE = ("the data sets: Friedman + Nemenyi on the methods' ranks over the data sets "
              "(each data set's test-set noise is not in it)")
TIMING_NOISE = "one fit time per data set (each selector fitted once per data set)"


def _first_on(metric: str) -> tuple[str, ...]:
    return tuple(d for d in DATASETS if d not in PAPER_MFSEF_RANKS[metric])


def _catalogue() -> tuple[Claim, ...]:
    claims = []
    for metric in METRICS:
        claims.append(Claim(
            f"best-rank-{metric}", f"MFSEF has the best average rank on {NAMES[metric]} "
            "over the 7 data sets", "§1; §3.2 text after Tables 2-5; §3.3 Fig. 5 (first on "
            "all four metrics); §4", "best rank", "6 methods x 7 data sets"))
    for metric, number in zip(METRICS, ("①", "②", "③", "④"), strict=True):
        first = _first_on(metric)
        elsewhere = ", ".join(f"{rank}. on {name}" for name, rank in
                              PAPER_MFSEF_RANKS[metric].items())
        claims.append(Claim(
            f"first-on-sets-{metric}", f"MFSEF has the best {NAMES[metric]} of the 6 methods "
            f"on {len(first)} of the 7 data sets ({', '.join(first)}; {elsewhere})",
            f"§3.2 item {number}, Table {METRICS.index(metric) + 2} (items 1-4 sum up as "
            "'effective and robust')", "every case",
            f"{len(first)} data sets x 5 rivals"))
    for metric in METRICS:
        rivals = PAPER_SIGNIFICANT[metric]
        claims.append(Claim(
            f"fig5-significant-{metric}", f"MFSEF is significantly better than "
            f"{', '.join(rivals)} on {NAMES[metric]} (Nemenyi, 5 %)",
            f"§3.3, Fig. 5({FIG5_PANELS[metric]})", "above threshold",
            f"{len(rivals)} rivals (average-rank gaps over the CD)", margin=PAPER_CD))
    claims += [
        Claim("fig5-not-significant-share", "MFSEF is not significantly different from the "
              "other methods in 45 % of its comparisons (9 of 4 metrics x 5 methods)",
              "§3.3, after Fig. 5", "exact", "20 Nemenyi comparisons"),
        Claim("fig5-cd", "The Nemenyi critical difference is CD = 2.8500 (6 methods, 7 data "
              "sets, alpha = 0.05)", "§3.3, Fig. 5", "exact", "1 value"),
        Claim("fig4-first-50", "On Arts, within about the first 50 selected features, MFSEF "
              "is clearly better than the other four selectors on all four metrics",
              "§3.2, Fig. 4", "every case",
              "Arts: 4 metrics x 4 selectors x the curve's sizes <= 50"),
        Claim("fig4-other-sets", "On the data sets Fig. 4 does not show, MFSEF's curves also "
              "mostly lead", "§3.2, after Fig. 4", "on average",
              "6 data sets (share of curve points won on Fig. 4's AP, HL, RL and OE)"),
        Claim("faster-than-pmu", "MFSEF selects features faster than PMU, which takes very "
              "long on large data sets", "§1 (motivation)", "faster", "7 data sets",
              basis="our reading",
              basis_reason="the paper reports no timing: §1 says PMU runs very long on large "
                           "data sets as motivation; timing one fit of our implementations "
                           "per data set is our comparison"),
        Claim("experts-speed-up", "Taking the expert features first avoids repeated "
              "computation and speeds feature selection up (MFSEF against MFSLS, the same "
              "subspace selection without experts)", "§2.2, on Fig. 2", "faster",
              "7 data sets"),
        Claim("stable", "MFSEF's selection is more stable than that of each compared "
              "selector: the subset it selects changes less when the training data are "
              "resampled (Nogueira's stability)", "§1 (statistical tests confirm its "
              "stability); §4 (better stability than the compared algorithms)",
              "every case", f"{len(STABILITY_RIVALS)} rivals ({', '.join(STABILITY_RIVALS)}), "
              "each over the 7 data sets", basis="our reading",
              basis_reason="the paper names no stability measure and reports none; "
                           "Nogueira et al.'s Φ̂ over bootstrap resamples of the training "
                           "part is our reading of 'stability'"),
    ]
    for metric in METRICS:
        claims += [Claim(f"better-than-{rival}-{metric}", f"MFSEF is better than {rival} on "
                         f"{NAMES[metric]} on average over the data sets", "project check "
                         "(Tables 2-5)", "on average", "7 data sets", origin="project")
                   for rival in RIVALS]
    return tuple(claims)


#: Every claim of the paper (its abstract-like §1, §2.2, §3 and §4), then the project's.
CATALOGUE = _catalogue()


# -- cases -----------------------------------------------------------------------------------
def claim_cases(instances: pd.DataFrame) -> pd.DataFrame:
    """"MFSEF is better than X on a metric" per data set (and, where ``instances`` has an
    ``n_features`` column, per feature count), tested over the test instances of the fixed
    split: the paired t on the per-instance differences (oriented: positive favours MFSEF;
    instances a metric leaves out are dropped). Their mean is the difference of the two
    table values."""
    keys = ["dataset", "metric"] + (["n_features"] if "n_features" in instances else [])
    rows = []
    # dropna=False: the tables' instances have no feature count (NaN) beside Fig. 4's
    for key, group in instances.groupby(keys, sort=False, dropna=False):
        values = group.pivot(index="instance", columns="method", values="value").dropna()
        if "MFSEF" not in values:
            continue
        named = dict(zip(keys, key, strict=True))
        count = named.get("n_features", np.nan)
        size = "" if pd.isna(count) else f" at {count:g} features"
        for rival in [m for m in ("Original", *RIVALS[1:]) if m in values]:
            differences = _sign(named["metric"]) * (values["MFSEF"] - values[rival])
            rows.append({"claim": f"MFSEF better than {rival} on {named['metric']}{size}",
                         **paired_case(differences.to_numpy(), method="t"),
                         "test": "paired t over test instances", "n_features": np.nan,
                         **named, "rival": rival, "MFSEF": values["MFSEF"].mean(),
                         "rival_value": values[rival].mean()})
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS + CASE_COLUMNS)


# -- rows ------------------------------------------------------------------------------------
def claims(scores: pd.DataFrame, timings: pd.DataFrame, cases: pd.DataFrame,
           stability: pd.DataFrame | None = None) -> pd.DataFrame:
    """``claims.csv``: one row per claim of :data:`CATALOGUE`. ``scores`` is the experiment's
    long table (dataset, method, n_features, metric, value, in_table), ``timings`` its
    selectors' fit times, ``cases`` :func:`claim_cases` of the table's and the Fig. 4
    per-instance values (the Fig. 4 cases carry ``n_features``) and ``stability`` each
    selector's Nogueira Φ̂ per data set (dataset, method, stability, resamples; none: the
    stability claim is not tested)."""
    table_cases = cases[cases.n_features.isna()]
    curve_cases = cases[cases.n_features.notna()]
    by_id = {claim.id: claim for claim in CATALOGUE}
    rows = []
    for metric in METRICS:
        values = _metric_table(scores, metric)
        rows.append(_best_rank_row(by_id[f"best-rank-{metric}"], values, metric))
        rows.append(_every_case_row(by_id[f"first-on-sets-{metric}"], table_cases[
            (table_cases.metric == metric) & table_cases.dataset.isin(_first_on(metric))]))
        rows.append(_significance_row(by_id[f"fig5-significant-{metric}"], values, metric))
        rows += [_pairwise_row(by_id[f"better-than-{rival}-{metric}"], values, metric, rival,
                               table_cases) for rival in RIVALS]
    rows.append(_not_significant_share_row(by_id["fig5-not-significant-share"], scores))
    cd = nemenyi_cd(6, 7)
    rows.append(exact_claim_row(by_id["fig5-cd"], 5e-4 - abs(cd - PAPER_CD),
                                f"5e-4 minus |CD - 2.850| (CD = {cd:.4f})",
                                noise="none (a constant of the test)"))
    rows.append(_every_case_row(by_id["fig4-first-50"], curve_cases[
        (curve_cases.dataset == FIG4_DATASET) & (curve_cases.n_features <= FIG4_MAX_FEATURES)],
        missing="the per-instance values of Arts's curve (Arts is missing or the run drew "
                "no curve on it)"))
    rows.append(_other_curves_row(by_id["fig4-other-sets"], scores))
    rows.append(_faster_row(by_id["faster-than-pmu"], timings, "PMU"))
    rows.append(_faster_row(by_id["experts-speed-up"], timings, "MFSLS"))
    rows.append(_stability_row(by_id["stable"], stability))
    return claims_table(rows, CATALOGUE)


def _metric_table(scores: pd.DataFrame, metric: str) -> pd.DataFrame:
    """data sets x methods values of ``metric`` at the table's feature count."""
    chosen = scores[scores.in_table.astype(bool) & (scores.metric == metric)]
    return chosen.pivot(index="dataset", columns="method", values="value")


def _too_few(claim: Claim, values: pd.DataFrame) -> dict | None:
    if len(values) < 2 or "MFSEF" not in values:
        return untested(claim, f"{len(values)} of the paper's 7 data sets are available; "
                               "the test over data sets needs at least 2")
    return None


def _rank_gaps(values: pd.DataFrame, metric: str) -> pd.Series:
    """Each rival's average rank minus MFSEF's (positive: MFSEF ranks better)."""
    ranks = rank_methods(values, metric in LOWER_IS_BETTER).mean()
    return (ranks.drop("MFSEF") - ranks["MFSEF"]).sort_values(kind="stable")


def _gap_cases(values: pd.DataFrame, metric: str, rivals) -> pd.DataFrame:
    gaps = _rank_gaps(values, metric)
    k, n = values.shape[1], values.shape[0]
    return pd.DataFrame([{**rank_gap_case(gaps[rival], k, n), "rival": rival}
                         for rival in rivals if rival in gaps])


def _best_rank_row(claim: Claim, values: pd.DataFrame, metric: str) -> dict:
    if (row := _too_few(claim, values)) is not None:
        return row
    result = best_rank(values, "MFSEF", lower_is_better=metric in LOWER_IS_BETTER)
    return claim_row(claim, result, noise=RANK_NOISE,
                     cases=_gap_cases(values, metric, values.columns.drop("MFSEF")))


def _significance_row(claim: Claim, values: pd.DataFrame, metric: str) -> dict:
    """Fig. 5: every named rival trails by more than the CD; the cases' effects handed to
    ``reproduced`` are the gaps minus the CD (on the claim's side when > 0)."""
    if (row := _too_few(claim, values)) is not None:
        return row
    cases = _gap_cases(values, metric, PAPER_SIGNIFICANT[metric])
    cd = nemenyi_cd(*values.shape[::-1])
    result = {**every_case(cases), "test": f"Nemenyi (CD = {cd:.3f}), intersection-union "
                                           f"over {len(cases)} rivals (worst shown)"}
    return claim_row(claim, result, noise=RANK_NOISE,
                     cases=cases.assign(effect=cases.effect - cd))


def _every_case_row(claim: Claim, cases: pd.DataFrame, missing: str = "the per-instance "
                    "values of the data sets the claim names (none available)") -> dict:
    if cases.empty:
        return untested(claim, missing)
    return claim_row(claim, every_case(cases), noise=PER_INSTANCE_NOISE, cases=cases)


def _pairwise_row(claim: Claim, values: pd.DataFrame, metric: str, rival: str,
                  table_cases: pd.DataFrame) -> dict:
    if (row := _too_few(claim, values)) is not None:
        return row
    effects = _sign(metric) * (values["MFSEF"] - values[rival])
    cases = table_cases[(table_cases.metric == metric) & (table_cases.rival == rival)]
    return claim_row(claim, on_average(effects.to_numpy()),
                     noise="the data sets (Wilcoxon over one difference per data set); the "
                           "per-data-set counts from the paired t over test instances",
                     cases=cases if len(cases) else None)


def _not_significant_share_row(claim: Claim, scores: pd.DataFrame) -> dict:
    """The share of the 20 (metric, rival) comparisons in which MFSEF does not trail the
    rival by more than the CD; it holds when it is at most the paper's 45 %."""
    tables = {metric: _metric_table(scores, metric) for metric in METRICS}
    for values in tables.values():
        if (row := _too_few(claim, values)) is not None:
            return row
    gaps = pd.concat([_rank_gaps(values, metric) - nemenyi_cd(*values.shape[::-1])
                      for metric, values in tables.items()])
    share = float((gaps <= 0).mean())
    return exact_claim_row(claim, PAPER_NOT_SIGNIFICANT_SHARE - share,
                           f"0.45 minus the share not significant ({share:.2f} of "
                           f"{len(gaps)})", len(gaps),
                           noise="none: a count of Nemenyi comparisons")


def _other_curves_row(claim: Claim, scores: pd.DataFrame) -> dict:
    """Per data set other than Arts with a curve: the share of its curve points (metric x
    selector x size) where MFSEF is better, minus 1/2; Wilcoxon over the data sets. The
    metrics are Fig. 4's four (AP, HL, RL, OE: seed 001 L98, "28 comparisons" = 7 data sets
    x 4 metrics per selector), not every metric the run records."""
    curve = scores[(scores.method != "Original") & (scores.dataset != FIG4_DATASET)
                   & scores.metric.isin(METRICS)]
    wins = {}
    for dataset, group in curve.groupby("dataset", sort=False):
        if group.n_features.nunique() < 2:
            continue  # the table's size only: no curve
        table = group.pivot_table(index=["metric", "n_features"], columns="method",
                                  values="value")
        signs = np.array([_sign(metric) for metric in table.index.get_level_values(0)])
        won = (signs[:, None] * (table[["MFSEF"]].to_numpy() - table.drop(columns="MFSEF")
                                 .to_numpy())) > 0
        wins[dataset] = float(won.mean()) - 0.5
    if len(wins) < 2:
        return untested(claim, "the curves of Fig. 4 on the other data sets (drawn in a full "
                               "run only)")
    return claim_row(claim, on_average(list(wins.values())),
                     noise="the data sets (Wilcoxon over one share of curve points won per "
                           "data set on AP, HL, RL and OE, minus 1/2); the nested curve "
                           "sizes are not replicates",
                     cases=pd.DataFrame({"effect": list(wins.values()),
                                         "verdict": "inconclusive"}))


def _faster_row(claim: Claim, timings: pd.DataFrame, slower: str) -> dict:
    times = {method: {row.dataset: [row.seconds] for row in
                      timings[timings.method == method].itertuples()}
             for method in ("MFSEF", slower)}
    common = sorted(set(times["MFSEF"]) & set(times[slower]))
    if not common:
        return untested(claim, f"fit times of MFSEF and {slower} (none recorded)")
    result = faster({d: times["MFSEF"][d] for d in common}, {d: times[slower][d] for d in common})
    ratios = [times[slower][d][0] / times["MFSEF"][d][0] for d in common]
    return claim_row(claim, result, noise=TIMING_NOISE,
                     cases=pd.DataFrame({"effect": ratios, "verdict": "inconclusive"}))


def _stability_row(claim: Claim, stability: pd.DataFrame | None) -> dict:
    """Per rival: MFSEF's Φ̂ minus the rival's on each data set, Wilcoxon over the data
    sets; intersection-union over the rivals (each case's effect the Hodges-Lehmann
    estimate)."""
    values = (pd.DataFrame() if stability is None or stability.empty else
              stability.pivot(index="dataset", columns="method", values="stability"))
    rivals = [rival for rival in STABILITY_RIVALS if rival in values]
    if len(values) < 2 or "MFSEF" not in values or not rivals:
        return untested(claim, "the selectors' subsets on resampled training sets (run the "
                               "experiment on at least 2 of the paper's data sets)")
    cases = pd.DataFrame([{**on_average((values["MFSEF"] - values[rival]).to_numpy()),
                           "rival": rival} for rival in rivals])
    resamples = int(stability.resamples.min())
    result = {**every_case(cases), "test": f"Nogueira's stability over {resamples} bootstrap "
              f"samples per data set; per rival, Wilcoxon over {len(values)} data sets; "
              f"intersection-union over {len(rivals)} rivals (worst shown)"}
    return claim_row(claim, result, cases=cases,
                     noise=f"the data sets (Wilcoxon over one Φ̂ difference per data set and "
                           f"rival); each Φ̂ from {resamples} bootstrap samples of the training "
                           "part, whose own interval (stability.csv) is not in the row's")


def _sign(metric: str) -> float:
    """+1 where higher is better, -1 where lower is (so positive favours MFSEF)."""
    return -1.0 if metric in LOWER_IS_BETTER else 1.0


# -- judging a committed run again -----------------------------------------------------------
def rejudge(folder: Path) -> pd.DataFrame:
    """The claims of the committed run in ``folder`` (``reports/MFSEF``) under today's
    catalogue (:func:`~milab_widgets.claims.rejudge.rejudged`): ``fig4-other-sets``
    recomputed from ``scores.csv`` on Fig. 4's four metrics; every other row keeps its
    measurements and takes its wording, source and basis from :data:`CATALOGUE`."""
    folder = Path(folder)
    scores = pd.read_csv(folder / "scores.csv")
    claim = next(claim for claim in CATALOGUE if claim.id == "fig4-other-sets")
    return rejudged(pd.read_csv(folder / "claims.csv"), CATALOGUE,
                    [_other_curves_row(claim, scores)])

