"""The CDVSE paper's claims (seed 002: selective ensemble of SVDDs by correntropy and
distance variance), each at the scope the paper words it, and their rows of ``claims.csv``.

Where the paper makes them: the abstract, the introduction's summary of results, §4.1 (the
artificial sets, Figs. 2-3), §4.2 (Table 2 and the text on Tables 3-4, with the three
"advantages") and the conclusions.

**The design, and the test that fits it.** On a UCI set the paper's 20 repetitions are
random re-splits of one data set (70 % of the normal samples and 0.5 % of the outliers to
train, the rest to test): the training sets overlap and the test sets too, so the
repetitions are not independent and the plain paired t is too narrow. Each case (data set x
rival) is Nadeau & Bengio's corrected resampled t (Machine Learning 52:239-281, 2003) on
the per-repetition differences, the variance factor 1/n + n_test/n_train with that data
set's own split sizes (n_test/n_train is 0.8-4 here: the test sets hold nearly all the
outliers), which widens the interval by sqrt(1 + n n_test/n_train), 4-9x at n = 20. On the
artificial sets every repetition draws a new data set, so their test sets are independent
and the plain paired t fits.

**Scopes.**

* The abstract ("better classification performance than SVDD, Bagging and AdaBoost") and
  §4.2 on Table 4 ("taking the test accuracy and its standard deviation together, better
  than ...") are average claims: per rival, Wilcoxon over the data sets.
* The conclusions ("on the standard data sets CDVSE achieves [均] better performance than
  the related methods") and Table 4, where CDVSE is best on all 13 sets, make it universal:
  every case, 12 data sets x 3 rivals, by the intersection-union rule.
* The introduction: "accuracy not lower than, even higher than, the ensemble of all base
  classifiers" is non-inferiority to Bagging (the same M bootstrap SVDDs, all kept) on each
  data set: above the threshold CDVSE - Bagging > -1 g-mean point. The margin of 1 point
  lies below the paper's own repetition standard deviations (1.4-4.7 points in Table 4)
  and is about the largest CDVSE-Bagging gap of Table 4 (Hepatitis 1.12, Housing 1.00), so
  a loss within it is what the paper itself reads as "not lower".
* §4.1 "better than a single SVDD on both artificial sets": every case (2 sets).
* Table 2 "effectively reduces the number of base classifiers": every case; a case's effect
  is the fraction of the M members dropped (1 - kept / M), null 0.
* Table 2 "so testing is faster": CDVSE's test-set prediction against Bagging's (all M
  members), one geometric-mean time ratio per data set (a separate timing record of a few
  repetitions per data set).
* The advantages (1) "a more compact boundary", (2) "more diverse members" and the
  conclusions' "σ, ζ and C affect the performance strongly" are catalogued as not tested:
  our runs do not measure them. Advantage (3) ("the l1 term drops the members that
  contribute little, improving the ensemble") is the Bagging comparison, listed with it.

The project's check: the every-case claim again at the paper's own Table 2 parameters (its
"C" read as nu), without selection.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from milab_widgets.claims.catalogue import Claim, claim_row, claims_table, untested
from milab_widgets.claims.scopes import every_case, faster, on_average
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, paired_case

__all__ = ["CASE_COLUMNS", "CATALOGUE", "NON_INFERIORITY_MARGIN", "claim_cases", "claims"]

RIVALS = {"svdd": "SVDD", "bagging": "Bagging", "adaboost": "AdaBoost"}
#: CDVSE - Bagging above this (a fraction of g-mean) is "not lower" (see the module notes).
NON_INFERIORITY_MARGIN = 0.01
#: The columns of ``claim_cases.csv`` after CLAIM_COLUMNS.
CASE_COLUMNS = ["id", "dataset", "rival", "parameters", "cdvse", "rival_value"]
RESPLIT_NOISE = ("random re-splits of each data set (corrected resampled t, "
                 "n_test/n_train of its split)")
UCI_CASES = "12 UCI data sets (Flare_solar cannot be rebuilt)"

CATALOGUE = (
    *(Claim(f"better-than-{rival}",
            f"CDVSE achieves a better test g-mean than {name}"
            + (" (its l1 term drops the members that contribute little and so improves the "
               "ensemble: advantage 3)" if rival == "bagging" else ""),
            "Abstract; §4.2, text on Table 4; conclusions"
            + ("; advantage (3)" if rival == "bagging" else ""), "on average", UCI_CASES)
      for rival, name in RIVALS.items()),
    Claim("best-on-every-set",
          "On the standard data sets CDVSE is better than SVDD, Bagging and AdaBoost on each "
          "(Table 4: best on all 13)", "§4.2, Table 4; conclusions", "every case",
          f"{UCI_CASES} x 3 rivals"),
    Claim("not-below-full-ensemble",
          "With fewer members, CDVSE's accuracy is not lower than, even higher than, the "
          "ensemble of all base classifiers (Bagging), within 1 g-mean point",
          "§1, summary of the results", "above threshold", UCI_CASES,
          margin=-NON_INFERIORITY_MARGIN),
    Claim("artificial-better-than-svdd",
          "On both artificial sets CDVSE beats a single SVDD (g-mean 0.8438 vs 0.7710 on "
          "Sine_noise, 0.8224 vs 0.7909 on Square_noise)", "§4.1, Figs. 2-3", "every case",
          "Sine_noise and Square_noise, fresh draws per repetition"),
    Claim("fewer-members",
          "CDVSE effectively reduces the number of base classifiers (Table 2: 2-31 of 50 "
          "kept; §4.1: 2 and 5 of 20)", "§4.2, Table 2; §4.1; abstract; conclusions",
          "every case", f"{UCI_CASES} and the 2 artificial sets"),
    Claim("faster-testing",
          "Keeping fewer base classifiers makes testing faster (than the ensemble of all of "
          "them)", "§4.2, on Table 2", "faster", UCI_CASES),
    Claim("compact-boundary",
          "Correntropy between the members' radii and the ensemble radius gives a more "
          "compact boundary", "Abstract; §4.2, advantage (1); Figs. 2-3", "on average",
          "the artificial and UCI sets"),
    Claim("diverse-members",
          "The distance variance raises the diversity of the base classifiers",
          "Abstract; §4.2, advantage (2)", "on average", "the ensembles' members"),
    Claim("parameters-matter",
          "σ, ζ and C affect the ensemble's performance strongly", "Conclusions",
          "on average", "the parameter grid"),
    Claim("replay-best-on-every-set",
          "At the paper's own Table 2 parameters (its C read as nu), CDVSE beats SVDD, "
          "Bagging and AdaBoost on each data set", "project check (the replay)",
          "every case", f"{UCI_CASES} x 3 rivals", origin="project"),
)
CLAIMS = {claim.id: claim for claim in CATALOGUE}
NOT_MEASURED = {
    "compact-boundary": "not measured: the runs keep one repetition's decision grid (Figs. "
                        "2-3), not the accepted volume over repetitions",
    "diverse-members": "not measured: neither the paper nor our runs report a diversity "
                       "measure of the members",
    "parameters-matter": "not measured: the runs keep the test g-mean at the selected and "
                         "the paper's parameters only, not over the grid",
}


# -- cases -----------------------------------------------------------------------------------
def resplit_cases(runs: pd.DataFrame, ratios: dict, claim_id: str, rivals=tuple(RIVALS),
                  shift: float = 0.0) -> pd.DataFrame:
    """One corrected-t case per (data set, rival): CDVSE's test g-mean minus the rival's
    over the re-splits of ``runs`` (one way of setting the parameters); ``ratios``: data set
    -> n_test / n_train. ``shift`` tests against the null -shift instead of 0 (the effect
    and interval stay CDVSE - rival)."""
    rows = []
    for dataset, group in runs.groupby("dataset", sort=False):
        scores = group.pivot(index="repetition", columns="method", values="test")
        for rival in rivals:
            case = paired_case(scores["cdvse"] - scores[rival] + shift, method="corrected_t",
                               test_train_ratio=ratios[dataset])
            case.update({key: case[key] - shift for key in ("effect", "ci_low", "ci_high")})
            rows.append(_case_row(claim_id, case, dataset, RIVALS[rival],
                                  group.parameters.iloc[0], scores["cdvse"].mean(),
                                  scores[rival].mean()))
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS + CASE_COLUMNS)


def artificial_cases(synthetic: pd.DataFrame) -> pd.DataFrame:
    """CDVSE minus SVDD per artificial set: the plain paired t (a fresh draw per
    repetition, so independent test sets)."""
    rows = []
    for dataset, group in synthetic.groupby("dataset", sort=False):
        scores = group.pivot(index="repetition", columns="method", values="g_mean")
        case = paired_case(scores["cdvse"] - scores["svdd"], method="t")
        rows.append(_case_row("artificial-better-than-svdd", case, dataset, "SVDD", "§4.1",
                              scores["cdvse"].mean(), scores["svdd"].mean()))
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS + CASE_COLUMNS)


def member_cases(runs: pd.DataFrame, synthetic: pd.DataFrame, ratios: dict,
                 synthetic_members: int) -> pd.DataFrame:
    """The fraction of the members CDVSE drops, per data set: on the UCI sets over the
    re-splits (M = Bagging's members), on the artificial sets over the draws."""
    rows = []
    for dataset, group in runs.groupby("dataset", sort=False):
        kept = group.pivot(index="repetition", columns="method", values="kept")
        dropped = 1.0 - kept["cdvse"] / kept["bagging"]
        case = paired_case(dropped, method="corrected_t", test_train_ratio=ratios[dataset])
        rows.append(_case_row("fewer-members", case, dataset, "all members",
                              group.parameters.iloc[0], kept["cdvse"].mean(),
                              kept["bagging"].mean()))
    for dataset, group in synthetic[synthetic.method == "cdvse"].groupby("dataset",
                                                                         sort=False):
        case = paired_case(1.0 - group.kept / synthetic_members, method="t")
        rows.append(_case_row("fewer-members", case, dataset, "all members", "§4.1",
                              group.kept.mean(), float(synthetic_members)))
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS + CASE_COLUMNS)


def claim_cases(all_runs: pd.DataFrame, synthetic: pd.DataFrame, ratios: dict, *,
                criterion: str, paper_parameters: str, synthetic_members: int
                ) -> pd.DataFrame:
    """Every case behind the claims (``claim_cases.csv``): ``all_runs`` (the experiment's
    rows, its ``parameters`` column naming the criterion or ``paper_parameters``)."""
    selected = all_runs[all_runs.parameters == criterion]
    replay = all_runs[all_runs.parameters == paper_parameters]
    parts = [*(resplit_cases(selected, ratios, f"better-than-{rival}", (rival,))
               for rival in RIVALS),
             resplit_cases(selected, ratios, "best-on-every-set"),
             resplit_cases(selected, ratios, "not-below-full-ensemble", ("bagging",),
                           shift=NON_INFERIORITY_MARGIN),
             artificial_cases(synthetic),
             member_cases(selected, synthetic, ratios, synthetic_members),
             resplit_cases(replay, ratios, "replay-best-on-every-set")]
    cases = pd.concat([part for part in parts if not part.empty] or parts[:1],
                      ignore_index=True)
    numbers = ["effect", "ci_low", "ci_high", "p_value"]
    return cases.astype(dict.fromkeys(numbers, float))


def _case_row(claim_id, case, dataset, rival, parameters, cdvse, rival_value) -> dict:
    return {"claim": CLAIMS[claim_id].statement, **case, "id": claim_id, "dataset": dataset,
            "rival": rival, "parameters": parameters, "cdvse": cdvse,
            "rival_value": rival_value}


# -- rows ------------------------------------------------------------------------------------
def claims(cases: pd.DataFrame, timings: pd.DataFrame, skipped: dict | None = None
           ) -> pd.DataFrame:
    """``claims.csv``: one row per claim of :data:`CATALOGUE` from :func:`claim_cases` and
    the timing table (``dataset``, ``repetition``, ``call``, ``method`` in {"bagging",
    "cdvse"}, ``seconds``); ``skipped``: missing data set -> why, for untested claims."""
    reason = "no UCI data set was run" + (f" ({'; '.join(f'{k}: {v}' for k, v in skipped.items())})"
                                          if skipped else "")
    rows = []
    for claim in CATALOGUE:
        own = cases[cases.id == claim.id]
        if claim.id in NOT_MEASURED:
            rows.append(untested(claim, NOT_MEASURED[claim.id]))
        elif claim.id == "faster-testing":
            rows.append(_timing_row(claim, timings, reason))
        elif own.empty:
            rows.append(untested(claim, reason if claim.id != "artificial-better-than-svdd"
                                 else "the artificial sets were not run (synthetic=False)"))
        elif claim.scope == "on average":
            rows.append(claim_row(claim, on_average(own.effect.to_numpy()),
                                  noise="data sets (each effect a mean over its "
                                        "re-splits)", cases=own))
        else:
            null = claim.margin if claim.scope == "above threshold" else 0.0
            rows.append(claim_row(claim, every_case(own, null=null), noise=_noise(own),
                                  cases=own))
    return claims_table(rows, CATALOGUE)


def _noise(cases: pd.DataFrame) -> str:
    artificial = cases.parameters == "§4.1"
    parts = [RESPLIT_NOISE] if (~artificial).any() else []
    if artificial.any():
        parts.append("fresh draws of the artificial sets (paired t)")
    return "; ".join(parts)


def _timing_row(claim: Claim, timings: pd.DataFrame | None, reason: str) -> dict:
    if timings is None or timings.empty:
        return untested(claim, reason)
    times = {method: {dataset: group.sort_values(["repetition", "call"]).seconds.to_numpy()
                      for dataset, group in timings[timings.method == method].groupby(
                          "dataset", sort=False)}
             for method in ("cdvse", "bagging")}
    result = faster(times["cdvse"], times["bagging"])
    per_dataset = [float(np.exp(np.mean(np.log(times["bagging"][name])
                                        - np.log(times["cdvse"][name]))))
                   for name in times["cdvse"]]
    return claim_row(claim, result, noise="data sets, one geometric-mean ratio each (its "
                     "timed repetitions and calls are not pooled across data sets)",
                     cases=pd.DataFrame({"effect": per_dataset, "verdict": "inconclusive"}))
