"""MFSEFPanel driven without a browser: set widget values, press Run, read the results."""

import numpy as np
import pytest

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.experiments import mfsef
from milab_widgets.multilabel.selection import label_relevance
from milab_widgets.widgets import MFSEFPanel
from milab_widgets.widgets import mfsef as panel_module
from tests.widgets.frontend import click


@pytest.fixture
def yeast(require_dataset):
    return require_dataset("yeast")


@pytest.fixture
def panel(yeast):
    panel = MFSEFPanel("yeast", run=False)
    panel.methods.value = ("MFSLS", "MFSEF")
    panel.max_features.value = 8
    panel.steps.value = 2
    return panel


def assert_ok(panel):
    assert panel.error.value == "", panel.last_error
    assert panel.status.value.startswith("done:")


def test_loading_ranks_the_features_and_sizes_the_controls(panel, yeast):
    assert_ok(panel)
    train, _ = yeast.train_test()
    relevance = label_relevance(train.X, train.Y)
    np.testing.assert_allclose(panel.relevance, relevance)
    assert panel.experts.options[0][1] == int(np.argmax(relevance))
    assert panel.max_features.allowed == (1, 103) and panel.chosen_experts() == \
        np.argsort(-relevance, kind="stable")[:4].tolist()
    assert panel.expert_chart is not None


def test_switching_to_hand_picked_experts_draws_the_expert_view_once(panel, monkeypatch):
    calls = []
    monkeypatch.setattr(panel_module, "show_chart_image", lambda *args: calls.append(args))
    panel.expert_mode.value = "hand"  # fills the picks with the top-MI experts
    assert len(calls) == 1 and list(panel.experts.value) == panel._automatic_experts()
    panel.expert_mode.value = "auto"
    panel.expert_mode.value = "hand"  # picks kept: nothing assigned, one explicit draw
    assert len(calls) == 3
    panel.load()  # hand mode: the picks are refilled, drawn once
    assert len(calls) == 4


def test_run_compares_the_methods_like_the_experiment(panel, yeast):
    panel.run_button.click()
    assert_ok(panel)
    assert set(panel.scores.method) == {"Original", "MFSLS", "MFSEF"}
    assert sorted(panel.scores[panel.scores.method == "MFSEF"].n_features.unique()) == [4, 8]
    expected, _ = mfsef.dataset_scores("yeast", yeast, mfsef.Settings(methods=("MFSLS", "MFSEF")),
                                       ResultCache(None), counts=[4, 8])
    np.testing.assert_allclose(panel.scores.value, expected.value)
    assert panel.curves_chart is not None and "Scores at 8 selected features" in panel.summary.value


def test_hand_picked_experts_and_ratios_change_mfsef(panel, yeast):
    panel.expert_mode.value = "hand"
    assert not panel.experts.disabled and panel.n_experts.disabled
    panel.experts.value = (50, 60)
    panel.ratios.value = "0.5, 0.5"
    panel.k.value = 5
    panel.run()
    assert_ok(panel)
    settings = mfsef.Settings(k=5, ratios=(0.5, 0.5), experts=(50, 60), methods=("MFSEF",))
    expected, _ = mfsef.dataset_scores("yeast", yeast, settings, ResultCache(None), counts=[8])
    got = panel.scores.query("method == 'MFSEF' and n_features == 8").value.to_numpy()
    np.testing.assert_allclose(got, expected.query("method == 'MFSEF'").value)
    names = yeast.feature_names  # as the pick list names them, not 0-based numbers
    assert f"MFSEF experts: {names[50]}, {names[60]}" in panel.summary.value


@pytest.mark.parametrize("setting, message", [
    (("ratios", "0.6; x"), "must be numbers"),
    (("ratios", "0.7, 0.7"), "summing to 1"),
    (("methods", ()), "at least one method"),
])
def test_bad_settings_are_shown_in_the_panel(panel, setting, message):
    getattr(panel, setting[0]).value = setting[1]
    panel.run()
    assert panel.status.value.startswith("failed:") and message in panel.error.value
    panel.ratios.value, panel.methods.value = "0.6, 0.3, 0.1", ("MFSEF",)
    panel.run()  # still usable
    assert_ok(panel)


def test_clicking_a_method_lists_the_features_it_selects(panel, yeast):
    panel.run()
    click(panel.curves_view, "method_pick", method="MFSLS")
    assert_ok(panel)
    train, _ = yeast.train_test()
    settings = mfsef.Settings(methods=("MFSLS", "MFSEF"))
    selector = mfsef.make_selector("MFSLS", 8, settings).fit(train.X, train.Y)
    assert panel.selected["feature"].tolist() == selector.selection(8).tolist()
    assert panel.selected["FMI(f; L)"].to_numpy() == pytest.approx(
        label_relevance(train.X, train.Y)[selector.selection(8)])
    click(panel.curves_view, "method_pick", method="MFSEF")  # its experts come first, marked
    experts = panel.chosen_experts()
    assert panel.selected["feature"].tolist()[:len(experts)] == experts
    assert (panel.selected["expert"] == "yes").sum() == len(experts)


def test_an_out_of_range_feature_count_names_the_control_and_a_dataset_switch_clears(panel):
    panel.run()
    panel.max_features.value = 500
    assert panel.max_features.value == 500
    assert "up to (features) = 500 is out of range" in panel.error.value
    assert "from 1 to 103" in panel.error.value
    panel.run()
    assert panel.status.value.startswith("failed") and panel.scores is not None
    panel.max_features.value = 8
    panel.k.value = 7
    assert "earlier settings" in panel.stale.value


def test_unreadable_ratios_are_reported_when_typed_and_cleared_once_fixed(panel):
    panel.ratios.value = "abc"
    assert "subspace ratios 'abc' must be numbers" in str(panel.last_error)
    assert "subspace ratios &#x27;abc&#x27;" in panel.error.value
    assert panel.status.value.startswith("failed")
    panel.ratios.value = "0.5, 0.5"
    assert panel.error.value == "" and panel.last_error is None
    panel.ratios.value = "0.6;0.3;x"
    assert "0.6;0.3;x" in str(panel.last_error)
    panel.max_features.value = 500  # another control's error is not cleared by the ratios
    panel.ratios.value = "0.6, 0.4"
    assert "up to (features) = 500 is out of range" in panel.error.value


def test_a_dataset_switch_says_why_the_feature_count_changed(panel, require_dataset):
    scene = require_dataset("scene")
    assert panel.max_features.note.value == ""
    panel.dataset.value = "scene"
    expected = round(panel_module.DEFAULT_FRACTION * scene.n_features)
    assert panel.max_features.value == expected and panel.max_features.allowed[1] == \
        scene.n_features
    note = panel.max_features.note.value
    assert f"set to {expected} for scene" in note and "(was 8;" in note
    assert f"allowed 1 to {scene.n_features}" in note
