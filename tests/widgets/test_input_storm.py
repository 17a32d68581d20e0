"""Every panel of the lab under a storm of input (issue 20, "faults survived").

A user drags sliders, types into number boxes and flips choices faster than a panel can
compute. Each test builds one panel on data a fresh install has (the shipped MIL set musk1,
the synthetic generators, a small synthetic multi-label set in place of the registry's
sets), on an empty data home, and changes its controls ``STORM`` = 200 times in a row with
seeded random values -- invalid ones among them where a control takes typed input or a
setting the library refuses -- pressing Run now and then. Checks:

* nothing escapes: no observer or button callback raises, nothing is logged as an exception,
  no Output holds a traceback, and the panel is quiet (its status no longer "working")
  within a deadline after every change;
* the panel ends in the state of the last input: what it shows equals what the library
  computes, outside the panel, from the last value the test gave each control (and the last
  chart drawn was built from that result); when that setting is invalid, the panel shows an
  error naming an invalid control, and what it still shows is marked stale;
* it still responds: after the invalid inputs are repaired, one more change (with the real
  charts) gives the result of that setting.

Charts: during the storm every chart builder of the panel's module is replaced by a
:class:`Sketch` that keeps its arguments (building and serialising an Altair chart costs
0.1-0.5 s, so 200 refits would take minutes); the final change draws the real charts.

The panels compute synchronously: ipykernel handles comm messages one at a time, so each
change runs to its end before the next one is seen, and no older computation can complete
after a newer one. :func:`quiet` still polls the status with a deadline, so these tests stay
valid if a panel ever computes in the background.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial

import ipywidgets as widgets
import numpy as np
import pytest

from milab_widgets.data.multilabel import MultiLabelDataset
from milab_widgets.widgets.base import _ranged_inputs
from milab_widgets.widgets.live import LiveChart

STORM = 200
#: Seconds a panel may stay "working" after a change before the test fails.
DEADLINE = 120.0


# -- recording charts ---------------------------------------------------------------------------
class Sketch:
    """What a chart builder was asked to draw: its name and arguments (stands in for the chart)."""

    def __init__(self, builder: str, args: tuple, kwargs: dict):
        self.builder, self.args, self.kwargs = builder, args, kwargs

    def properties(self, **kwargs):
        return self


@contextmanager
def light_charts(module):
    """Replace the chart builders of a panel ``module`` by :class:`Sketch` makers; live chart
    slots and PNG images keep the last sketch shown in ``.sketch`` (None when cleared)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in dir(module):
            builder = getattr(module, name)
            if name.endswith("_chart") and getattr(builder, "__module__", "").startswith(
                    "milab_widgets.charts"):
                patch.setattr(module, name, lambda *a, _name=name, **k: Sketch(_name, a, k))
        patch.setattr(LiveChart, "show", lambda slot, chart: setattr(slot, "sketch", chart))
        clear = LiveChart.clear

        def cleared(slot):
            clear(slot)
            slot.sketch = None

        patch.setattr(LiveChart, "clear", cleared)
        if hasattr(module, "show_chart_image"):
            patch.setattr(module, "show_chart_image",
                          lambda output, chart: setattr(output, "sketch", chart))
        yield


# -- the storm ----------------------------------------------------------------------------------
def pick(values) -> Callable:
    values = list(values)
    return lambda rng: values[int(rng.integers(len(values)))]


@dataclass
class Knob:
    """A control of the panel (attribute ``name``), its valid values and, if it can hold
    them, invalid ones (out-of-range typed numbers, text the panel cannot parse, ...)."""

    name: str
    good: Callable
    bad: Callable | None = None


@dataclass
class Storm:
    """Drives a panel through random changes, remembering the last value given to each
    control (``values``) and whether it was an invalid one (``bad``)."""

    panel: widgets.Widget
    knobs: list
    caplog: pytest.LogCaptureFixture
    seed: int = 0
    bad_share: float = 0.2
    #: ``after(storm, name, value)``: the panel's own reactions to a change, modelled by the
    #: test (e.g. intH sets citers = references + 2).
    after: Callable | None = None
    #: ``each(storm)``: the panel's own checks after every change and press.
    each: Callable | None = None
    values: dict = field(default_factory=dict)
    bad: set = field(default_factory=set)
    changes: int = 0
    last: str = ""  # the control changed (or button pressed) last

    def __post_init__(self):
        self.rng = np.random.default_rng(self.seed)
        self.values = {knob.name: getattr(self.panel, knob.name).value for knob in self.knobs}

    def control(self, name):
        return getattr(self.panel, name)

    def change(self, name: str, value, bad: bool = False) -> None:
        """Give ``value`` to control ``name``, as a user would, and check nothing escaped."""
        boxes = box_values(self.panel)
        self.control(name).value = value
        self.changes += 1
        self.values[name] = value
        (self.bad.add if bad else self.bad.discard)(name)
        if self.after:
            self.after(self, name, value)
        self.last = name
        self.check(boxes_changed=box_values(self.panel) != boxes)

    def press(self, button="run_button") -> None:
        getattr(self.panel, button).click()
        self.last = button
        self.check()

    def rage(self, steps: int, press_every: int | None = None) -> None:
        """``steps`` changes of random enabled controls, invalid values among them; press
        Run after every ``press_every`` changes."""
        for step in range(steps):
            knobs = [knob for knob in self.knobs if not self.control(knob.name).disabled]
            knob = knobs[int(self.rng.integers(len(knobs)))]
            bad = knob.bad is not None and self.rng.random() < self.bad_share
            value = self.new_value(knob, bad)
            if value is None:  # it already holds the only invalid value
                bad, value = False, self.new_value(knob)
            self.change(knob.name, value, bad)
            if press_every and (step + 1) % press_every == 0:
                self.press()

    def new_value(self, knob: Knob, bad: bool = False):
        """A value of ``knob`` (invalid if ``bad``) other than the control's current one, so
        that every change reaches the panel's observers (None: no other invalid value)."""
        make, current = knob.bad if bad else knob.good, self.control(knob.name).value
        for _ in range(20):
            value = make(self.rng)
            if value != current:
                return value
        assert bad, f"{knob.name}: no valid value other than {current!r}"
        return None

    def invalid(self) -> set:
        """The controls holding an invalid value that the panel uses (enabled ones)."""
        return {name for name in self.bad if not self.control(name).disabled}

    def settle(self, check: Callable):
        """The end of every storm: all its changes made, invalid values repaired, Run
        pressed, and ``check`` (the panel's result against the library's) passed."""
        assert self.changes == STORM
        self.repair()
        self.press()
        return check(self)

    def repair(self) -> None:
        """Give every control holding an invalid value a valid one."""
        for knob in self.knobs:
            if knob.name in self.bad:
                self.change(knob.name, self.new_value(knob))

    def check(self, boxes_changed: bool = False) -> None:
        """After every change and press: the panel is quiet, nothing escaped, a number box
        out of range is reported, and the panel's own checks (``each``) hold."""
        panel, when = self.panel, f"after change {self.changes} ({self.last})"
        quiet(panel)
        escaped = [r.getMessage() for r in self.caplog.records
                   if "Exception in" in r.getMessage() or r.levelname in ("ERROR", "CRITICAL")]
        assert not escaped, f"{when}: {escaped[0]}"
        assert not tracebacks(panel), f"{when}: an Output holds a traceback"
        outside = [f"{box.description} = {box.value} is out of range"
                   for box in _ranged_inputs(panel.controls)
                   if not box.disabled and not box.allowed[0] <= box.value <= box.allowed[1]]
        if outside:  # reported while it lasts; by name right after a box changed or a success
            assert panel.error.value, f"{when}: {outside} not reported"
            if boxes_changed or panel.status.value.startswith("done"):
                assert any(text in str(panel.last_error) for text in outside), \
                    f"{when}: {outside} not reported: {panel.last_error}"
        if self.each:
            self.each(self)


def box_values(panel) -> list:
    """The values of the panel's number boxes (:func:`~milab_widgets.widgets.base.ranged_int`)."""
    return [box.value for box in _ranged_inputs(panel.controls)]


def quiet(panel, timeout: float = DEADLINE) -> None:
    """Wait (polling, bounded by ``timeout``) until the panel no longer reports work under way."""
    deadline = time.monotonic() + timeout
    while panel.status.value.startswith("working"):
        assert time.monotonic() < deadline, f"still {panel.status.value!r} after {timeout} s"
        time.sleep(0.01)


def tracebacks(root) -> list:
    """The error outputs held by the Output widgets under ``root``."""
    found = [item for item in root.outputs if item.get("output_type") == "error"] \
        if isinstance(root, widgets.Output) else []
    for child in getattr(root, "children", ()):
        found.extend(tracebacks(child))
    return found


def assert_done(panel) -> None:
    assert panel.error.value == "" and panel.last_error is None, panel.error.value
    assert panel.status.value.startswith("done:"), panel.status.value
    assert panel.stale.value == ""


def assert_failed_on(panel, clues) -> None:
    """The panel shows a failure whose message names one of ``clues``."""
    assert panel.status.value.startswith("failed"), panel.status.value
    assert panel.last_error is not None and panel.error.value
    message = str(panel.last_error)
    assert any(clue in message for clue in clues), (clues, message)


# -- a small multi-label set (the registry's need a download) ----------------------------------
def toy_multilabel(name: str) -> MultiLabelDataset:
    """160 rows, 30 features, 4 labels depending on the first features; split 100 / 60."""
    rng = np.random.default_rng(0)
    X = rng.random((160, 30))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] + X[:, 2] > 1.0, X[:, 3] > 0.7,
                         X[:, 4] < 0.4]).astype(int)
    return MultiLabelDataset(X, Y, split=(np.arange(100), np.arange(100, 160)), name=name)


# -- CDVSE: refits on every change --------------------------------------------------------------
def test_cdvse_playground_ends_on_the_last_setting(empty_data_home, caplog):
    from milab_widgets.experiments import cdvse
    from milab_widgets.widgets import CDVSEPanel
    from milab_widgets.widgets import cdvse as module

    panel = CDVSEPanel(update=False)
    knobs = [Knob("dataset", pick(["sine_noise", "square_noise"])),
             Knob("zeta", pick([0.1, 0.3, 1.0, 3.0])), Knob("C", pick([0.05, 0.2, 0.5, 1.0])),
             Knob("M", pick(range(2, 13))), Knob("sigma", pick([0.1, 0.3, 1.0, 3.0])),
             Knob("lam", pick([1e-3, 0.1, 1.0, 10.0])),
             Knob("gamma_l1", pick([1e-3, 0.1, 1.0, 10.0])),
             Knob("seed", pick(range(50)), bad=pick([-1, -7, 10**6 + 1, 10**9]))]

    def check(storm):
        v = storm.values
        if storm.invalid():
            assert_failed_on(panel, ["seed = "])
            assert panel.result is None or "earlier setting" in panel.stale.value
            return
        assert_done(panel)
        data = cdvse.playground_data(v["dataset"], v["seed"])
        expected = cdvse.playground(data, v["C"], v["zeta"], v["M"], v["sigma"], v["lam"],
                                    v["gamma_l1"], seed=v["seed"], grid_size=None)
        got, want = (r.scores.set_index("method")["g_mean"] for r in (panel.result, expected))
        assert got.to_dict() == pytest.approx(want.to_dict(), abs=1e-12)
        np.testing.assert_allclose(panel.result.weights, expected.weights, atol=1e-12)
        assert list(panel.result.selected) == list(expected.selected)
        assert f"{len(expected.selected)} of {v['M']} SVDDs kept" in panel.scores.value
        assert f"{want['cdvse']:.3f}" in panel.scores.value
        assert f"({html.escape(panel.dataset.label)};" in panel.scores.value
        return panel.result

    def each(storm):
        """Every change refits: the panel shows the new fit, or says it failed and that its
        plots are of an earlier setting."""
        if panel.status.value.startswith("done"):
            assert panel.stale.value == "" and len(panel.result.weights) == storm.values["M"]
            if isinstance(panel.weights, Sketch):
                assert panel.weights_view.sketch is panel.weights
                assert panel.weights.args[0] is panel.result.weights
            else:
                assert panel.weights_view.chart is panel.weights
        else:
            assert panel.result is None or "earlier setting" in panel.stale.value

    with light_charts(module), pytest.MonkeyPatch.context() as patch:
        # the decision grid feeds only the boundary plot, a Sketch here: 20 x 20, not 90 x 90
        patch.setattr(cdvse, "playground", partial(cdvse.playground, grid_size=20))
        storm = Storm(panel, knobs, caplog, seed=20, each=each)
        for _ in range(4):
            storm.rage(STORM // 4 - 1)
            check(storm)
            storm.change("seed", -3 if panel.seed.value != -3 else -4, bad=True)  # typed
            check(storm)
        assert storm.changes == STORM
        storm.repair()
        result = check(storm)
        assert panel.weights_view.sketch.args[0] is result.weights  # drawn from the last fit
        assert panel.boundary_view.sketch.args[0] is result.boundaries
    storm.change("M", 5 if storm.values["M"] != 5 else 6)  # with the real charts
    result = check(storm)
    assert len(result.weights) == storm.values["M"]
    assert panel.weights_view.chart is panel.weights and panel.boundary_view.chart is panel.boundary


# -- intH: changes mark the results stale, Run recomputes ---------------------------------------
def test_inth_ends_on_the_last_setting(empty_data_home, caplog):
    from milab_widgets.data import load_dataset
    from milab_widgets.evaluation.fixed_params import fold_accuracies, held_out_bag
    from milab_widgets.evaluation.splits import stratified_splits
    from milab_widgets.experiments.inth import DistanceSource
    from milab_widgets.mil import tune_alpha_nca
    from milab_widgets.mil.neighbors import SCALINGS, make_bag_classifier
    from milab_widgets.widgets import IntHPanel
    from milab_widgets.widgets import inth as module

    panel = IntHPanel("musk1", run=False)
    bags = load_dataset("musk1")
    matrices = {scaling: DistanceSource(bags, scaling)(np.arange(len(bags)))
                for scaling in SCALINGS}
    knobs = [Knob("k", pick(range(1, 9))),
             Knob("citers", pick(range(1, 13)), bad=pick([0, -2, 1001, 5000])),
             Knob("folds", pick([2, 3, 4]), bad=pick([0, 1, 21, 100])),
             Knob("sigma", pick([0.5, 1, 2, 5])),
             Knob("distance", pick([value for _, value in module.DISTANCES])),
             Knob("classifier", pick([value for _, value in module.CLASSIFIERS])),
             Knob("scaling", pick(SCALINGS)), Knob("alpha_mode", pick(["nca", "hand"])),
             Knob("alpha", pick([0.0, 0.25, 0.5, 0.9, 1.0])), Knob("bag", pick(range(len(bags))))]

    def after(storm, name, value):
        if name == "k":  # the paper's rule: citers = references + 2
            storm.values["citers"] = value + 2
            storm.bad.discard("citers")

    def invalid(storm) -> list:
        """What the error names for the invalid boxes the run uses (citers is disabled and
        unused under KNN)."""
        clues = {"folds": "CV folds = ", "citers": "citers = "}
        return [clues[name] for name in storm.invalid()]

    def check(storm, sketched=True):
        """After Run: the accuracy, f(α) and the chosen bag of the last setting."""
        v = storm.values
        if invalid(storm):
            assert_failed_on(panel, invalid(storm))
            assert panel.fold_scores is None or "earlier settings" in panel.stale.value
            return
        assert_done(panel)
        m = matrices[v["scaling"]]
        hand = v["alpha_mode"] == "hand"
        params = {"metric": v["distance"], "sigma": v["sigma"],
                  "alpha": v["alpha"] if hand else None}
        if v["classifier"] == "citation-knn":
            params["citers"] = v["citers"]
        estimator = make_bag_classifier(v["classifier"], v["k"], **params)
        splits = stratified_splits(bags.labels, v["folds"], module.CV_SEED)
        np.testing.assert_allclose(panel.fold_scores,
                                   fold_accuracies(estimator, m, bags.labels, splits))
        assert f"({v['folds']}-fold stratified CV" in panel.accuracy.value
        assert f"{panel.k.description} = {v['k']}" in panel.accuracy.value
        alpha = (v["alpha"] if hand
                 else tune_alpha_nca(m["min"], m["max"], bags.labels, v["sigma"])[0])
        if sketched:
            curve = panel.curve_view.sketch
            assert curve.args[2] == pytest.approx(alpha) and curve.args[4] == v["sigma"]
        if not hand:  # Run shows the tuned α on the slider: what "by hand" then starts from
            assert panel.alpha.value == pytest.approx(alpha)
            v["alpha"] = panel.alpha.value
        expected = held_out_bag(estimator, m, bags.labels, v["bag"])
        assert panel.held_out.bag == v["bag"] and panel.held_out.prediction == expected.prediction

    def each(storm):
        """A bag chosen after a Run is classified at once (with the current setting), or
        the panel says the bag view is of an earlier setting."""
        if panel.held_out is None:
            return
        if panel.status.value.startswith("failed"):
            assert "earlier setting" in panel.stale.value
        elif storm.last == "bag":
            assert panel.held_out.bag == storm.values["bag"]

    with light_charts(module):
        storm = Storm(panel, knobs, caplog, seed=7, after=after, each=each)
        for _ in range(4):
            storm.rage(STORM // 4)
            if panel.fold_scores is not None:
                assert "earlier settings" in panel.stale.value
            storm.press()
            check(storm)
        storm.settle(check)
    storm.change("k", 3 if storm.values["k"] != 3 else 4)
    assert "earlier settings" in panel.stale.value
    storm.press()
    check(storm, sketched=False)
    assert panel.curve_view.chart is panel.curve_chart is not None


# -- MFSEF -------------------------------------------------------------------------------------
def test_mfsef_ends_on_the_last_setting(empty_data_home, caplog, monkeypatch):
    from milab_widgets.evaluation.cache import ResultCache
    from milab_widgets.experiments import mfsef
    from milab_widgets.multilabel.selection import label_relevance, top_features
    from milab_widgets.widgets import MFSEFPanel
    from milab_widgets.widgets import mfsef as module

    monkeypatch.setattr(module, "load_dataset", toy_multilabel)
    panel = MFSEFPanel("yeast", run=False)
    toy = toy_multilabel("yeast")
    train, _ = toy.train_test()
    relevance = label_relevance(train.X, train.Y)
    ratios = {"0.6, 0.3, 0.1": (0.6, 0.3, 0.1), "0.5, 0.5": (0.5, 0.5), "1": (1.0,),
              "0.2; 0.8": (0.2, 0.8)}
    knobs = [Knob("k", pick(range(1, 16))), Knob("n_experts", pick(range(0, 8))),
             Knob("experts", pick([(0,), (3, 1), (5, 7, 2)]), bad=pick([()])),
             Knob("ratios", pick(ratios), bad=pick(["abc", "0.7, 0.7", "", "1,,2"])),
             Knob("max_features", pick(range(1, 7)), bad=pick([0, -1, 31, 500])),
             Knob("steps", pick(range(1, 4))),
             Knob("methods", pick([("MFSEF",), ("MFSLS", "MFSEF"), ("PMU",)]), bad=pick([()])),
             Knob("expert_mode", pick(["auto", "hand"]))]
    clues = {"experts": "pick at least one expert", "ratios": "ratios", "methods": "method",
             "max_features": "up to (features) = "}

    def after(storm, name, value):
        if name == "expert_mode" and value == "hand" and not storm.values["experts"]:
            storm.values["experts"] = tuple(top_features(relevance, storm.values["n_experts"]))
            storm.bad.discard("experts")  # switching to "by hand" starts from the top-MI experts

    def check(storm, sketched=True):
        v = storm.values
        if storm.invalid():
            assert_failed_on(panel, [clues[name] for name in storm.invalid()])
            assert panel.scores is None or "earlier settings" in panel.stale.value
            return
        assert_done(panel)
        hand = v["expert_mode"] == "hand"
        settings = mfsef.Settings(k=v["k"], ratios=ratios[v["ratios"]], n_experts=v["n_experts"],
                                  experts=tuple(v["experts"]) if hand else None,
                                  methods=tuple(m for m in mfsef.SELECTORS if m in v["methods"]))
        top = v["max_features"]  # `steps` feature counts, evenly spaced up to `top`
        counts = sorted({max(1, round(c)) for c in np.linspace(top, 0, v["steps"], endpoint=False)})
        expected, _ = mfsef.dataset_scores("yeast", toy, settings, ResultCache(None), counts=counts)
        np.testing.assert_allclose(panel.scores.value, expected.value)
        experts = list(v["experts"]) if hand else top_features(relevance, v["n_experts"]).tolist()
        named = ", ".join(toy.feature_names[e] for e in experts) or "none"  # as the pick list
        assert f"MFSEF experts: {named};" in panel.summary.value
        assert f"ML-kNN k = {v['k']}," in panel.summary.value
        if sketched:
            assert panel.curves_view.sketch.args[0].equals(mfsef.curves(panel.scores, "yeast"))

    def each(storm):
        """The expert view, redrawn on every change of the experts, shows the last ones."""
        v = storm.values
        if storm.last in ("n_experts", "experts", "expert_mode"):
            experts = list(v["experts"]) if v["expert_mode"] == "hand" else \
                top_features(relevance, v["n_experts"]).tolist()
            assert list(panel.expert_output.sketch.args[1]) == experts

    with light_charts(module):
        storm = Storm(panel, knobs, caplog, seed=3, after=after, each=each)
        for _ in range(4):
            storm.rage(STORM // 4)
            storm.press()
            check(storm)
        storm.settle(check)
    storm.change("k", 4 if storm.values["k"] != 4 else 5)
    storm.press()
    check(storm, sketched=False)
    assert panel.curves_view.chart is panel.curves_chart is not None


# -- LSkMDDM -----------------------------------------------------------------------------------
def test_lskmddm_ends_on_the_last_setting(empty_data_home, caplog, monkeypatch):
    from milab_widgets.experiments import lskmddm
    from milab_widgets.widgets import lskmddm as module

    monkeypatch.setattr(module, "load_dataset", toy_multilabel)
    panel = module.LSkMDDMPanel(dataset="scene", n_train=100, run=False)
    toy = toy_multilabel("scene")
    train, test = lskmddm.random_partition(len(toy), 100, 1000, module.SPLIT_SEED)
    X_train, Y_train, X_test, Y_test, _ = lskmddm.split_labels(toy, train, test)
    top = lskmddm.embedding_dimension(Y_train)
    knobs = [Knob("method", pick(module.PANEL_METHODS)),
             Knob("eta", pick([1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0])),
             Knob("dimension", pick(range(2, top + 1))),
             Knob("label", pick(range(Y_train.shape[1])))]
    assert panel.dimension.max == top

    def check(storm, sketched=True):
        v = storm.values
        assert_done(panel)
        model = lskmddm.make_method(v["method"], v["eta"], X_train, Y_train)
        size = v["dimension"]
        embed_train = model.transform(X_train)[:, :size]
        embed_test = model.transform(X_test)[:, :size]
        expected = lskmddm.evaluate_embedding(embed_train, embed_test, Y_train, Y_test)
        assert panel.scores == pytest.approx(expected, abs=1e-10)
        np.testing.assert_allclose(panel.embedding, embed_test, atol=1e-10)
        if sketched:
            scatter = panel.scatter_view.sketch
            assert scatter.args[0] is panel.embedding and scatter.args[3] == v["method"]
            np.testing.assert_array_equal(scatter.args[1], Y_test[:, v["label"]])

    def each(storm):
        """A label chosen after a Run recolours the scatter at once."""
        if storm.last == "label" and panel.embedding is not None:
            np.testing.assert_array_equal(panel.scatter_view.sketch.args[1],
                                          Y_test[:, storm.values["label"]])

    with light_charts(module):
        storm = Storm(panel, knobs, caplog, seed=5, each=each)
        for _ in range(4):
            storm.rage(STORM // 4)
            storm.press()
            check(storm)
        assert storm.changes == STORM
    storm.change("eta", 0.5 if storm.values["eta"] != 0.5 else 2.0)
    assert "earlier settings" in panel.stale.value
    storm.press()
    check(storm, sketched=False)
    assert panel.scatter_view.chart is not None


# -- TwoViewMIC --------------------------------------------------------------------------------
def test_twoview_ends_on_the_last_setting(empty_data_home, caplog):
    from milab_widgets.evaluation.clustering_scores import clustering_accuracy
    from milab_widgets.experiments import twoview as experiment
    from milab_widgets.widgets import TwoViewPanel
    from milab_widgets.widgets import twoview as module

    panel = TwoViewPanel("synthetic", run=False)
    grid = list(experiment.GRID)
    knobs = [Knob("alpha", pick(grid)), Knob("beta", pick(grid)),
             Knob("fraction", pick([0.0, 0.05, 0.1, 0.2])),
             Knob("seed", pick(range(20)), bad=pick([-1, -3, 10**6 + 1])),
             Knob("max_iter", pick([10, 20, 30])), Knob("kernel", pick(["mixture", "minimax"])),
             Knob("views", pick(["both", "first", "second"]))]

    def check(storm):
        v = storm.values
        if storm.invalid():
            assert_failed_on(panel, ["seed = "])
            assert panel.model is None or "earlier settings" in panel.stale.value
            return
        assert_done(panel)
        # The kernels are the panel's (computed once per view; deterministic); the fit is ours.
        problem = panel._problem()
        labels = problem.data.labels
        y_partial = (experiment.partial_labels(labels, v["fraction"], v["seed"])
                     if v["fraction"] else None)
        method = f"{'unKer' if y_partial is None else 'Ker'}{1 if v['kernel'] == 'mixture' else 2}"
        model = experiment.fit_method(method, problem, panel.generator.value, y_partial,
                                      experiment.Settings(), v["seed"], views=v["views"],
                                      alpha=v["alpha"], beta=v["beta"], max_iter=v["max_iter"])
        np.testing.assert_array_equal(panel.model.labels_, model.labels_)
        np.testing.assert_allclose(panel.model.objective_, model.objective_, rtol=1e-10)
        accuracy = clustering_accuracy(labels, model.labels_)
        assert f"<b>ACC {accuracy:.1%}</b>" in panel.accuracy.value
        assert f"α = {v['alpha']:g}, β = {v['beta']:g}" in panel.accuracy.value
        assert f"seed {v['seed']}" in panel.accuracy.value
        assert list(panel.baseline_scores.method)[-1] == f"{method} (this run)"
        assert panel.curve_view.sketch.args[0] is panel.model.objective_

    with light_charts(module):
        storm = Storm(panel, knobs, caplog, seed=11)
        for _ in range(3):
            storm.rage(STORM // 4)
            storm.press()
            check(storm)
        storm.rage(STORM // 4 - 1)
        storm.change("seed", 10**7, bad=True)
        assert "seed = 10000000 is out of range" in panel.error.value
        storm.press()
        check(storm)
        storm.settle(check)
    storm.change("beta", 1.0 if storm.values["beta"] != 1.0 else 10.0)
    storm.press()
    assert_done(panel)
    assert panel.model.beta == storm.values["beta"] and panel.curve_view.chart is panel.curve_chart


# -- the lab: an error stays in its panel --------------------------------------------------------
def test_an_error_in_one_lab_panel_leaves_the_others_working(empty_data_home, caplog,
                                                             monkeypatch):
    from milab_widgets.data import load_dataset
    from milab_widgets.evaluation.fixed_params import fold_accuracies
    from milab_widgets.evaluation.splits import stratified_splits
    from milab_widgets.experiments import cdvse
    from milab_widgets.experiments.inth import DistanceSource
    from milab_widgets.mil.neighbors import make_bag_classifier
    from milab_widgets.oneclass import CDVSESVDD
    from milab_widgets.widgets import inth
    from milab_widgets.widgets.lab import LAB_PANELS, Lab

    tabs = Lab()  # builds intH; CDVSE is built when its tab is opened
    tabs.selected_index = list(LAB_PANELS).index("CDVSE")
    left, right = tabs.panels["intH"], tabs.panels["CDVSE"]
    assert_done(left)
    assert_done(right)

    def escaped():
        return [r.getMessage() for r in caplog.records if "Exception in" in r.getMessage()]

    # intH: a value its estimator rejects; the error is intH's alone
    left.alpha_mode.value = "hand"
    left.alpha.value = float("nan")
    left.run_button.click()
    assert_failed_on(left, ["'alpha' parameter"])
    assert "earlier settings" in left.stale.value
    assert_done(right)
    shown = left.error.value
    # ... and CDVSE still refits on a change, to the fit of its new setting
    right.M.value = 5
    assert_done(right)
    v = {name: getattr(right, name).value
         for name in ("dataset", "C", "zeta", "sigma", "lam", "gamma_l1", "seed")}
    expected = cdvse.playground(cdvse.playground_data(v["dataset"], v["seed"]), v["C"], v["zeta"],
                                5, v["sigma"], v["lam"], v["gamma_l1"], seed=v["seed"],
                                grid_size=None)
    np.testing.assert_allclose(right.result.weights, expected.weights, atol=1e-12)
    assert right.weights_view.chart is right.weights
    assert left.error.value == shown and left.status.value.startswith("failed")

    # CDVSE: its estimator's fit raises; the error is CDVSE's alone
    def broken_fit(self, X, y=None):
        raise RuntimeError("injected fault in CDVSESVDD.fit")

    monkeypatch.setattr(CDVSESVDD, "fit", broken_fit)
    kept = right.result
    right.zeta.value = 1.0
    assert_failed_on(right, ["injected fault"])
    assert right.result is kept and "earlier setting" in right.stale.value
    # ... and intH recomputes on a change, to the accuracy of its new setting
    left.alpha.value = 0.4
    left.run_button.click()
    assert_done(left)
    bags = load_dataset(left.dataset.value)
    matrices = DistanceSource(bags, left.scaling.value)(np.arange(len(bags)))
    estimator = make_bag_classifier(left.classifier.value, left.k.value, metric=left.distance.value,
                                    sigma=left.sigma.value, alpha=0.4, citers=left.citers.value)
    splits = stratified_splits(bags.labels, left.folds.value, inth.CV_SEED)
    np.testing.assert_allclose(left.fold_scores, fold_accuracies(estimator, matrices, bags.labels,
                                                                 splits))
    assert "α = 0.400 by hand" in left.accuracy.value
    assert_failed_on(right, ["injected fault"])  # untouched by intH's run
    assert not escaped(), escaped()
