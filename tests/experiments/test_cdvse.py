"""CDVSE's experiment module: split protocol, the replay at the paper's parameters (nu),
the selection criteria, the claims builder, a small run end to end, tables, cache."""

from dataclasses import asdict

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import MinMaxScaler

from milab_widgets.claims import CATALOGUE_COLUMNS
from milab_widgets.claims.cdvse import CATALOGUE
from milab_widgets.data.oneclass import OneClassDataset
from milab_widgets.data.synthetic_oneclass import square_noise
from milab_widgets.evaluation import g_mean
from milab_widgets.evaluation.oneclass_selection import (
    REFERENCES,
    artificial_outliers,
    make_folds,
    select_cdvse,
    select_cdvse_by,
    select_svdd,
    select_svdd_by,
)
from milab_widgets.exceptions import InputError
from milab_widgets.experiments import cdvse
from milab_widgets.experiments.cdvse_mechanisms import (
    COMPACTNESS_COLUMNS,
    DIVERSITY_COLUMNS,
    REFERENCE,
    REFERENCE_SIZE,
    SENSITIVITY_COLUMNS,
    CDVSEParameters,
    ablated_members,
    accepted_fraction,
    members_record,
    sensitivity_record,
)
from milab_widgets.oneclass import CDVSESVDD, SVDD, BaggingSVDD


def test_split_takes_70_percent_of_normals_and_half_a_percent_of_outliers():
    y = np.r_[np.ones(444), -np.ones(239)].astype(int)
    train, test = cdvse.split_train_test(y, np.random.default_rng(0))
    assert (y[train] == 1).sum() == round(0.7 * 444) and (y[train] == -1).sum() == 1
    assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == len(y)
    train2, _ = cdvse.split_train_test(y, np.random.default_rng(0))
    np.testing.assert_array_equal(train, train2)


def test_paper_tables_are_complete():
    assert len(cdvse.PAPER_TABLE2) == 13
    test = cdvse.PAPER_SCORES[cdvse.PAPER_SCORES.split == "test"]
    assert len(test) == 13 * 4
    row = test[(test.dataset == "sonar") & (test.method == "cdvse")].iloc[0]
    assert (row.paper_mean, row.paper_std) == pytest.approx((0.6064, 0.0469))


@pytest.mark.realdata
def test_small_run_end_to_end(require_dataset, tmp_path):
    require_dataset("thyroid")
    results = cdvse.run(["thyroid", "flare_solar"], quick=True, repetitions=1,
                        cache_dir=tmp_path / "cache")
    assert set(results.skipped) == {"flare_solar"}
    assert set(results.runs.method) == set(cdvse.METHODS) and len(results.runs) == 4
    assert results.runs[["train", "test"]].apply(lambda c: c.between(0, 1)).all().all()
    summary = results.summary
    assert summary["paper_mean"].notna().all()
    table = cdvse.score_table(summary, "test")
    assert list(table.index) == ["thyroid"] and "CDVSE (paper)" in table.columns
    assert table.loc["thyroid", "CDVSE (paper)"] == "94.23 ± 1.81"
    parameters = cdvse.parameter_table(results.runs)
    assert parameters.loc[0, "paper_kept"] == 31 and parameters.loc[0, "paper_nu"] == 0.06
    assert set(results.all_runs.parameters) == {"marginals", "box", "paper"}
    claims = results.claims
    assert list(claims.columns) == CATALOGUE_COLUMNS and len(claims) == len(CATALOGUE)
    assert results.test_train_ratios["thyroid"] == pytest.approx(109 / 106)  # (45 + 64) / (105 + 1)
    timings = results.timings  # quick: one timed repetition, TIMED_CALLS calls per method
    assert len(timings) == 2 * cdvse.TIMED_CALLS and (timings.seconds > 0).all()
    assert timings.kept.iloc[0] == results.runs.set_index("method").loc["cdvse", "kept"]
    # the mechanism claims' records: compactness and diversity in every repetition (and
    # compactness on the artificial sets), the parameter axes in the first
    assert set(results.compactness.dataset) == {"thyroid", "sine_noise", "square_noise"}
    assert list(results.diversity.ensemble) == ["cdvse", "ablated"]
    axes = results.sensitivity.groupby("parameter").size()
    settings = results.settings
    assert (axes["sigma"], axes["zeta"]) == (len(settings.sigma_grid), len(settings.zeta_grid))
    written = cdvse.save_tables(results, tmp_path / "out")
    assert all(path.exists() for path in written)
    for name in ("timings", "compactness", "diversity", "sensitivity", "compactness_summary",
                 "diversity_summary", "sensitivity_summary"):
        assert (tmp_path / "out" / f"{name}.csv").exists()
    replay = pd.read_csv(tmp_path / "out" / "table4_paper_parameters.csv")
    assert replay.loc[0, "CDVSE (paper)"] == "94.23 ± 1.81"
    again = cdvse.run(["thyroid"], quick=True, repetitions=1, cache_dir=tmp_path / "cache")
    pd.testing.assert_frame_equal(again.runs, results.runs)


def test_playground_fits_both_models_on_a_2d_set():
    result = cdvse.playground(square_noise(seed=0), C=0.2, zeta=3.0, n_estimators=8,
                              seed=0, grid_size=20)
    assert list(result.scores.method) == ["svdd", "cdvse"]
    assert len(result.weights) == 8 and len(result.objective) == 21
    assert len(result.boundaries) == 2 * 20 * 20
    assert set(result.points.role) == {"training", "test normal", "outlier"}
    assert (result.points.role == "training").sum() == 140


def test_run_without_the_synthetic_sets_gives_empty_tables_with_columns():
    results = cdvse.run([], quick=True, repetitions=1, synthetic=False)
    for table, columns in ((results.synthetic, cdvse.SYNTHETIC_COLUMNS),
                           (results.boundaries, cdvse.BOUNDARY_COLUMNS),
                           (results.points, cdvse.POINT_COLUMNS)):
        assert table.empty and list(table.columns) == list(columns)
    assert results.runs.empty and results.timings.empty
    for table, columns in ((results.compactness, COMPACTNESS_COLUMNS),
                           (results.diversity, DIVERSITY_COLUMNS),
                           (results.sensitivity, SENSITIVITY_COLUMNS)):
        assert table.empty and list(table.columns) == list(columns)
    assert (results.claims.reproduced == "not tested").all()  # every claim keeps its row
    assert "not tested" in cdvse.verdict(results.claims, results.all_runs)


def test_the_artificial_sets_alone_test_the_compactness_claim():
    # no UCI data (a fresh install): the artificial sets' compactness is all there is
    results = cdvse.run([], quick=True, repetitions=2)
    assert set(results.compactness.dataset) == {"sine_noise", "square_noise"}
    assert results.compactness.accepted.dtype == float
    rows = results.claims.set_index("id")
    assert rows.loc["compact-boundary", "n"] == 2
    assert rows.loc["compact-boundary", "reproduced"] != "not tested"
    assert rows.loc["diverse-members", "reproduced"] == "not tested"


def test_synthetic_columns_match_the_experiment():
    settings = cdvse.Settings.for_mode(True, repetitions=1)
    tables = cdvse.synthetic_experiment(settings, grid_size=5)
    columns = (cdvse.SYNTHETIC_COLUMNS, cdvse.BOUNDARY_COLUMNS, cdvse.POINT_COLUMNS,
               COMPACTNESS_COLUMNS)
    assert len(tables) == len(columns)
    for table, expected in zip(tables, columns, strict=True):
        assert list(table.columns) == list(expected)


def test_cache_key_ignores_the_number_of_repetitions(monkeypatch, tmp_path):
    def record(name, data, repetition, settings):
        return {"rows": [{"dataset": name, "repetition": repetition, "method": "svdd"}]}

    monkeypatch.setattr(cdvse, "repetition_record", record)
    cache = cdvse.ResultCache(tmp_path)
    cdvse.uci_runs({"toy": None}, cdvse.Settings.for_mode(True, repetitions=2), cache)
    runs = cdvse.uci_runs({"toy": None}, cdvse.Settings.for_mode(True, repetitions=3), cache)
    assert (cache.hits, cache.misses) == (2, 3) and list(runs.repetition) == [0, 1, 2]
    cdvse.uci_runs({"toy": None}, cdvse.Settings.for_mode(True, seed=1, repetitions=1), cache)
    assert cache.misses == 4  # the seed still is part of the key




# -- the replay at the paper's Table 2 parameters, "C" read as nu -------------------------------
def toy_thyroid(seed=0):
    """Random data under the name of a Table 2 row (thyroid: nu 0.06, zeta 0.06, sigma 1)."""
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (60, 3)), rng.normal(3, 1, (30, 3))])
    return OneClassDataset(X, np.r_[np.ones(60), -np.ones(30)], "thyroid")


def test_replay_fits_every_method_with_nu_the_papers_C():
    settings = cdvse.Settings.for_mode(True, repetitions=1, n_estimators=5)
    data = toy_thyroid()
    rows = pd.DataFrame(cdvse.repetition_record("thyroid", data, 0, settings)["rows"])
    paper = rows[rows.parameters == "paper"].set_index("method")
    assert set(rows.parameters) == {"marginals", "box", "paper"} and len(paper) == 4
    # the oracle: the same split and scaling, an SVDD fitted directly with nu = 0.06
    seed = cdvse._seed(settings.seed, "thyroid", 0)
    train, test = cdvse.split_train_test(data.y, np.random.default_rng(seed))
    scaler = MinMaxScaler().fit(data.X[train])
    model = SVDD(nu=0.06, gamma=0.06).fit(scaler.transform(data.X[train]))
    assert paper.loc["svdd", "test"] == pytest.approx(
        g_mean(data.y[test], model.predict(scaler.transform(data.X[test]))))
    np.testing.assert_allclose(paper.nu, 0.06)
    assert (paper.zeta == 0.06).all() and (paper.sigma == 1.0).all()
    np.testing.assert_allclose(paper.C, 1 / (0.06 * len(train)))


def hand_made_runs():
    """Two datasets x three repetitions x four methods, at the selected and the paper's
    parameters; g-means chosen so every cell of the tables is known."""
    rows = []
    for parameters, shift in (("marginals", 0.0), ("box", 0.05), ("paper", 0.02)):
        for dataset in ("cancer", "sonar"):
            for repetition in range(3):
                for k, method in enumerate(cdvse.METHODS):
                    value = 0.5 + 0.1 * k + shift + 0.01 * repetition
                    rows.append({"dataset": dataset, "repetition": repetition, "method": method,
                                 "C": 0.1, "nu": 0.05, "zeta": 1.0, "sigma": 0.3,
                                 "lam": 0.1, "gamma_l1": 10.0, "kept": 1,
                                 "train": value, "test": value, "parameters": parameters})
    return pd.DataFrame(rows)


def test_replay_table_has_the_replay_the_paper_and_the_selected_per_method():
    table = cdvse.parameters_table(hand_made_runs())
    assert list(table.columns) == [f"{name} ({side})" for name in cdvse.METHODS.values()
                                   for side in ("paper parameters", "paper", "selected")]
    assert list(table.index) == ["cancer", "sonar"]
    # SVDD (k = 0): repetitions 0.52, 0.53, 0.54 at the paper's parameters, 0.50-0.52 selected
    assert table.loc["cancer", "SVDD (paper parameters)"] == "53.00 ± 1.00"
    assert table.loc["cancer", "SVDD (selected)"] == "51.00 ± 1.00"
    assert table.loc["sonar", "CDVSE (paper)"] == "60.64 ± 4.69"


def test_criteria_table_has_one_column_per_criterion_and_the_paper():
    table = cdvse.criteria_table(hand_made_runs())
    assert list(table.columns[:3]) == ["SVDD (marginals)", "SVDD (box)", "SVDD (paper)"]
    assert table.loc["cancer", "SVDD (box)"] == "56.00 ± 1.00"


def test_table2_reports_the_selected_C_as_nu_beside_the_papers_nu():
    runs = hand_made_runs()
    runs = runs[runs.parameters == "marginals"].assign(C=0.1, nu=0.5)  # n_train = 20
    table = cdvse.parameter_table(runs).set_index("dataset")
    assert table.loc["cancer", "nu"] == pytest.approx(0.5)
    assert table.loc["cancer", "paper_nu"] == 0.07 and table.loc["sonar", "paper_nu"] == 0.4
    assert table.loc["cancer", "lam"] == 0.1 and table.loc["cancer", "gamma_l1"] == 10.0


# -- the selection criteria ---------------------------------------------------------------
def test_box_reference_is_uniform_in_the_bounding_box():
    X = np.random.default_rng(0).normal(size=(40, 3))
    points = artificial_outliers(X, 4000, np.random.default_rng(1), reference="box")
    assert (points >= X.min(axis=0)).all() and (points <= X.max(axis=0)).all()
    # uniform: the mean of each column is the box's midpoint (4000 draws: sd ~ range/220)
    np.testing.assert_allclose(points.mean(axis=0), (X.min(axis=0) + X.max(axis=0)) / 2,
                               atol=0.03 * np.ptp(X, axis=0).max())
    with pytest.raises(InputError, match="reference='ball'"):
        artificial_outliers(X, 5, np.random.default_rng(1), reference="ball")
    assert set(REFERENCES) == {"marginals", "box"}


def test_selection_under_several_criteria_equals_one_criterion_at_a_time():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(60, 2)), np.ones(60, dtype=int)
    fold_sets = {name: make_folds(X, y, 3, 40, seed=2, reference=name) for name in REFERENCES}
    choices, table = select_svdd_by(X, fold_sets, (0.05, 0.2), (0.5, 2.0))
    for name, folds in fold_sets.items():
        C, zeta, single = select_svdd(X, folds, (0.05, 0.2), (0.5, 2.0))
        assert choices[name] == (C, zeta)
        np.testing.assert_allclose(table[name], single["score"])
    weighting, table = select_cdvse_by(X, fold_sets, 0.2, 0.5, (0.1, 1.0), n_estimators=4,
                                       seed=1, lam_grid=(0.1, 1.0), gamma_l1_grid=(1.0, 10.0))
    for name, folds in fold_sets.items():
        single, scores = select_cdvse(X, folds, 0.2, 0.5, (0.1, 1.0), 4, seed=1,
                                      lam_grid=(0.1, 1.0), gamma_l1_grid=(1.0, 10.0))
        assert weighting[name] == single
        np.testing.assert_allclose(table[name], scores["score"])


def test_fold_sets_with_different_training_rows_are_refused():
    X, y = np.random.default_rng(0).normal(size=(30, 2)), np.ones(30, dtype=int)
    with pytest.raises(InputError, match="training rows"):
        select_svdd_by(X, {"a": make_folds(X, y, 3, 5, seed=0),
                           "b": make_folds(X, y, 3, 5, seed=1)}, (0.2,), (1.0,))


@pytest.mark.parametrize("options", [{"criterion": "ball"}, {"criteria": ("box",)},
                                     {"criteria": ("marginals", "ball")}])
def test_unknown_or_unrun_criterion_is_a_clear_error(options):
    with pytest.raises(InputError, match="criterion"):
        cdvse.Settings.for_mode(True, **options)


def test_the_criterion_picks_the_runs_of_its_rows(monkeypatch):
    monkeypatch.setattr(cdvse, "uci_runs", lambda *args: hand_made_runs())
    monkeypatch.setattr(cdvse, "load_available", lambda names, unavailable: ({}, {}))
    box = cdvse.run([], quick=True, synthetic=False, criterion="box")
    assert box.settings.criterion == "box" and box.runs.test.min() == pytest.approx(0.55)
    assert "parameters" not in box.runs.columns and len(box.all_runs) == 72


def test_nu_evidence_sets_the_papers_training_g_mean_beside_sqrt_one_minus_C():
    table = cdvse.nu_evidence().set_index("dataset")
    assert table.loc["pima", "sqrt_one_minus_C"] == pytest.approx(100 * np.sqrt(0.6), abs=0.005)
    assert table.loc["pima", "table3_svdd"] == 77.30
    assert (table.difference.abs() <= 2.6).sum() == 11  # all but Diabetes and Housing
    assert set(table.index[table.difference.abs() > 2.6]) == {"diabetes", "housing"}


def test_criteria_parameters_has_a_row_per_dataset_and_criterion():
    table = cdvse.criteria_parameters(hand_made_runs())
    assert list(table[["dataset", "parameters"]].itertuples(index=False, name=None)) == [
        ("cancer", "box"), ("cancer", "marginals"), ("sonar", "box"), ("sonar", "marginals")]
    # SVDD (k = 0): 0.50-0.52 with marginals, +0.05 with box; CDVSE (k = 3) 0.3 higher
    np.testing.assert_allclose(table.svdd_test, [0.56, 0.51, 0.56, 0.51])
    np.testing.assert_allclose(table.cdvse_test, [0.86, 0.81, 0.86, 0.81])


def test_criterion_differences_name_the_winner_the_interval_favours():
    runs = hand_made_runs()
    noise = np.random.default_rng(0).normal(0, 0.002, len(runs))
    runs = runs.assign(test=runs.test + noise)
    # make sonar's box rows worse than its marginals rows
    flip = (runs.dataset == "sonar") & (runs.parameters == "box")
    runs.loc[flip, "test"] -= 0.1
    table = cdvse.criterion_differences(runs).set_index("dataset")
    assert table.loc["cancer", "winner"] == "box" and table.loc["sonar", "winner"] == "marginals"
    assert table.loc["cancer", "effect"] == pytest.approx(0.05, abs=0.005)
    assert table.loc["sonar", "effect"] == pytest.approx(-0.05, abs=0.005)
    assert (table.n == 3).all() and (table.method == "cdvse").all()


def test_playground_accepts_nu_in_place_of_C():
    data = square_noise(seed=0)
    by_nu = cdvse.playground(data, zeta=3.0, n_estimators=5, nu=0.1, grid_size=None)
    by_C = cdvse.playground(data, C=1 / (0.1 * 140), zeta=3.0, n_estimators=5, grid_size=None)
    np.testing.assert_allclose(by_nu.weights, by_C.weights, atol=1e-10)
    pd.testing.assert_frame_equal(by_nu.scores, by_C.scores)


def test_table_cells_show_no_spread_for_a_single_repetition():
    from milab_widgets.experiments.cdvse import _cell

    assert _cell(0.8, 0.05) == "80.00 ± 5.00"
    assert _cell(0.8, float("nan")) == "80.00"  # one repetition: pandas' std is NaN
    assert _cell(float("nan"), float("nan")) == "—"


# -- the mechanism claims' measurements -----------------------------------------------------
class Disk:
    """A stand-in one-class model: accepts the disk of radius 1 around (1.5, 1.5)."""

    def predict(self, X):
        return np.where(((X - 1.5) ** 2).sum(axis=1) <= 1.0, 1, -1)


class Below:
    """A stand-in one-class model: accepts the points whose first feature is <= t."""

    def __init__(self, t):
        self.t = t

    def predict(self, X):
        return np.where(X[:, 0] <= self.t, 1, -1)


def test_the_grid_share_is_the_share_of_the_boxs_area():
    # a disk of area pi in the 3 x 3 box; the 90 x 90 grid (spacing 3/89) resolves it to
    # about half a spacing along the perimeter: 2 pi x 1.5/89 / 9 = 0.012
    assert accepted_fraction(Disk(), cdvse._grid(90)) == pytest.approx(np.pi / 9, abs=0.012)
    assert accepted_fraction(Below(1.0), cdvse._grid(90)) == pytest.approx(1 / 3, abs=0.012)


def test_the_uci_reference_follows_each_features_training_marginal():
    # a model accepting x_0 <= t accepts, of the product of the marginals, the training
    # share with x_0 <= t (up to the binomial noise of REFERENCE_SIZE draws: sd <= 0.011)
    X = np.random.default_rng(0).uniform(size=(80, 4)) ** 2
    reference = artificial_outliers(X, REFERENCE_SIZE, np.random.default_rng(1), REFERENCE)
    for t in (0.1, 0.3, 0.6):
        assert accepted_fraction(Below(t), reference) == pytest.approx(
            np.mean(X[:, 0] <= t), abs=0.045)


def toy_split(settings, seed=3):
    return cdvse.scaled_split(toy_thyroid(), seed, settings)


def test_members_record_against_models_fitted_directly():
    settings = cdvse.Settings.for_mode(True, repetitions=1, n_estimators=8)
    seed, (C, zeta, sigma, lam, gamma) = 3, (0.2, 1.0, 0.3, 0.5, 0.5)
    split = toy_split(settings, seed)
    X_train, _, X_test, y_test = split
    record = members_record(split, CDVSEParameters(C, zeta, sigma, lam, gamma), seed, settings)
    # the oracle: each model fitted on its own (CDVSE draws the same bootstrap samples)
    models = {"bagging": BaggingSVDD(8, C=C, gamma=zeta, random_state=seed).fit(X_train),
              "cdvse": CDVSESVDD(8, C=C, gamma=zeta, sigma=sigma, lam=lam, gamma_l1=gamma,
                                 max_iter=settings.max_iter, random_state=seed).fit(X_train)}
    reference = artificial_outliers(X_train, REFERENCE_SIZE, np.random.default_rng(seed),
                                    REFERENCE)
    for row in record["compactness"]:
        model = models[row["method"]]
        assert row["accepted"] == np.mean(model.predict(reference) == 1)
        assert row["normals_accepted"] == np.mean(model.predict(X_test[y_test == 1]) == 1)
        assert row["points"] == REFERENCE_SIZE
    spheres = models["cdvse"].spheres_
    distances, inside = spheres.distances(X_test), spheres.inside(X_test)
    ablated = CDVSESVDD(8, C=C, gamma=zeta, sigma=sigma, lam=0.0, gamma_l1=gamma,
                        max_iter=settings.max_iter, random_state=seed).fit(X_train)
    for row, model in zip(record["diversity"], (models["cdvse"], ablated), strict=True):
        kept = model.selected_
        pairs = [np.mean(inside[:, i] != inside[:, j]) for a, i in enumerate(kept)
                 for j in kept[a + 1:]]
        assert row["kept"] == len(kept)
        assert row["disagreement"] == pytest.approx(np.mean(pairs) if pairs else 0.0)
        spread = distances - distances @ model.weights_[:, None]
        assert row["distance_variance"] == pytest.approx(np.mean(spread ** 2))
    assert [row["lam"] for row in record["diversity"]] == [lam, 0.0]


def test_an_ablation_whose_weights_are_all_zero_keeps_no_member():
    settings = cdvse.Settings.for_mode(True, repetitions=1, n_estimators=6)
    X_train = toy_split(settings)[0]
    spheres = BaggingSVDD(6, C=0.2, gamma=1.0, random_state=0).fit(X_train).spheres_
    weights, kept = ablated_members(spheres, X_train, 0.3, 20, gamma_l1=50.0)
    assert not weights.any() and kept.size == 0
    with pytest.raises(InputError, match="every CDVSE weight is 0"):  # what the estimator says
        CDVSESVDD(6, C=0.2, gamma=1.0, sigma=0.3, lam=0.0, gamma_l1=50.0,
                  random_state=0).fit(X_train, spheres=spheres)


def test_sensitivity_moves_one_parameter_at_a_time_over_its_grid():
    settings = cdvse.Settings.for_mode(True, repetitions=1, n_estimators=6,
                                       C_grid=(0.01, 0.2, 1.0))
    seed, selected = 2, {"C": 0.2, "zeta": 1.0, "sigma": 0.1, "lam": 0.5, "gamma_l1": 2.0}
    split = toy_split(settings, seed)
    X_train, _, X_test, y_test = split
    rows = pd.DataFrame(sensitivity_record(split, CDVSEParameters(**selected), seed,
                                           settings)["rows"])
    # C = 0.01 leaves C n_train = 0.43 < 1, where no SVDD exists: skipped
    assert 0.01 * len(X_train) < 1
    expected = {"sigma": settings.sigma_grid, "zeta": settings.zeta_grid, "C": (0.2, 1.0)}
    for axis, grid in expected.items():
        along = rows[rows.parameter == axis]
        assert list(along.value) == list(grid)
        assert list(along.value[along.selected]) == [selected[axis]]
    for row in rows.itertuples():  # the oracle: CDVSE fitted afresh at each point
        point = {**selected, row.parameter: row.value}
        model = CDVSESVDD(6, C=point["C"], gamma=point["zeta"], sigma=point["sigma"],
                          lam=0.5, gamma_l1=2.0, max_iter=settings.max_iter,
                          random_state=seed).fit(X_train)
        assert row.test == g_mean(y_test, model.predict(X_test))
        assert row.kept == len(model.selected_)


def test_synthetic_compactness_compares_cdvse_with_bagging_of_its_own_members():
    seed, data = 4, square_noise(seed=4)
    result = cdvse.playground(data, **cdvse.SYNTHETIC_SETTING, seed=seed, grid_size=None)
    grid = cdvse._grid(30)
    rows = {row["method"]: row for row in cdvse.synthetic_compactness(result, seed, grid)}
    train, _ = cdvse.split_train_test(data.y, np.random.default_rng(seed), 0.7, 0.0)
    bagging = BaggingSVDD(20, C=1.0, gamma=0.3, random_state=seed).fit(data.X[train])
    np.testing.assert_array_equal(bagging.spheres_.radii, result.ensemble.spheres_.radii)
    assert rows["bagging"]["accepted"] == np.mean(bagging.predict(grid) == 1)
    assert rows["cdvse"]["accepted"] == np.mean(result.ensemble.predict(grid) == 1)
    assert {row["reference"] for row in rows.values()} == {"box grid"}


def test_new_records_are_keyed_apart_and_the_timing_key_is_unchanged(monkeypatch, tmp_path):
    settings = cdvse.Settings.for_mode(True, repetitions=2)
    runs = pd.DataFrame({"dataset": "toy", "repetition": [0, 1], "method": "cdvse",
                         "C": 0.2, "zeta": 1.0, "sigma": 0.1, "lam": 1.0, "gamma_l1": 1.0})
    protocol = {key: value for key, value in asdict(settings).items()
                if key not in cdvse.NOT_IN_CACHE_KEY}
    timing = cdvse.selected_parameter_tasks(
        {"toy": None}, runs, settings, cdvse.timing_record,
        {"experiment": "cdvse-timing", "calls": cdvse.TIMED_CALLS, "loops": cdvse.CALL_LOOPS},
        1)
    # the key the timing records were written under before this measurement existed
    assert [task.parts for task in timing] == [
        {"experiment": "cdvse-timing", "dataset": "toy", "repetition": 0,
         "calls": cdvse.TIMED_CALLS, "loops": cdvse.CALL_LOOPS, **protocol}]

    def record(split, parameters, seed, settings):
        return {"compactness": [], "diversity": [], "rows": []}

    monkeypatch.setattr(cdvse, "scaled_split", lambda data, seed, settings: None)
    monkeypatch.setattr(cdvse, "members_record", record)
    monkeypatch.setattr(cdvse, "sensitivity_record", record)
    cache = cdvse.ResultCache(tmp_path)
    cdvse.uci_members({"toy": None}, runs, settings, cache)
    cdvse.uci_sensitivity({"toy": None}, runs, settings, cache)
    assert cache.misses == 2 + 1  # every repetition; the axes: one repetition in quick mode
    cdvse.uci_members({"toy": None}, runs, settings, cache)
    assert cache.hits == 2
    keys = {path.stem for path in tmp_path.glob("*.json")}
    assert len(keys) == 3


def test_the_playground_draws_the_papers_sine_noise_and_our_band_by_name():
    from milab_widgets.data.synthetic_oneclass import sine_noise
    np.testing.assert_array_equal(cdvse.playground_data("sine_noise", seed=3).X,
                                  sine_noise(seed=3, reading="text").X)
    np.testing.assert_array_equal(cdvse.playground_data(cdvse.BAND_SINE, seed=3).X,
                                  sine_noise(seed=3, reading="band").X)
