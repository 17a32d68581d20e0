"""Every panel of the lab survives a sweep of bad inputs (issue 6, robustness).

One generic sweep over ``LAB_PANELS``: each panel is built on its cheapest settings, its
value controls are found by walking its widget tree, and each control is given, in turn, the
bad values it accepts itself (text: "", "abc", "1,2,,x", "-1", "1e400", "nan"; numbers: 0,
negative, NaN, +-inf, huge -- as far as the control's own bounds let them through; multiple
selections: nothing selected; dropdowns: datasets listed but missing). After each value,
every action button of the control's form (its tab page, else the panel) is clicked. Controls
that a mode enables (α by hand, experts picked by hand) are swept again in that mode. Checks:

* nothing escapes to the caller (neither an observer nor a button callback raises);
* a failed action shows one of the library's own errors (which name the argument and the
  fix) -- or scikit-learn's InvalidParameterError, which the estimators raise for a bad
  hyper-parameter, naming it and its allowed range (issue 25) -- mentioning the bad value or
  the control (a missing dataset: its name), never a raw exception from deep inside;
* a failed action leaves what the panel shows and the user's other inputs untouched (a
  failed dataset switch may clear the results instead: old results never stay on screen
  under a new dataset's name);
* after the good value is restored, the actions succeed again;
* no number is clamped silently: a number box keeps an out-of-range value as typed, and the
  panel at once shows an error naming the control and its allowed range (no panel uses
  ipywidgets' Bounded*Text, which clamps without a word).

The data home holds only the datasets the cheap settings use (symlinks into the real one),
so the other datasets stay listed as "(missing)": the unusable options. A second test builds
every panel on an empty data home, where it must open and say what is missing.

PNG rendering (vl-convert, ~2 s for a bag-distance heatmap), also when "save chart and
table" writes a panel's charts, is replaced by a strict JSON serialisation of the chart (NaN
or inf in a chart fails as it would in vl-convert); the per-panel tests render for real
(the saves rendered 196 images, 62 of the intH sweep's 82 s).
"""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

import ipywidgets as widgets
import pytest
from traitlets import TraitError

import milab_widgets.charts
from milab_widgets._sklearn_private import InvalidParameterError
from milab_widgets.data.home import locate
from milab_widgets.data.registry import REGISTRY
from milab_widgets.exceptions import MilabError
from milab_widgets.widgets import base
from milab_widgets.widgets.clipboard import ClipboardButton
from milab_widgets.widgets.entries import NumberBox
from milab_widgets.widgets.lab import LAB_PANELS
from milab_widgets.widgets.live import LiveChart

TEXTS = ("", "abc", "1,2,,x", "-1", "1e400", "nan")
NUMBERS = (0, -1, -1e308, math.nan, math.inf, -math.inf, 1e308, 10**12)
UNUSABLE = ("(missing)",)
DISPLAYS = (widgets.HTML, widgets.Image, widgets.Label, widgets.IntProgress)
SINGLE_CHOICE = (widgets.Dropdown, widgets.Select, widgets.RadioButtons, widgets.ToggleButtons,
                 widgets.SelectionSlider)
SHOWN = ("show_objects", "show_chart_image", "show_table", "clear_shown")
CLAMPING = (widgets.BoundedIntText, widgets.BoundedFloatText)
#: The errors a failed action may show: the library's own, and scikit-learn's refusal of a
#: hyper-parameter (the estimators' declared parameter constraints).
LIBRARY_ERRORS = (MilabError, InvalidParameterError)


@dataclass
class Cheap:
    """How to make a panel fast: constructor arguments (no run at build time), control
    values set before the first run, attributes of its module replaced, datasets used; and
    ``modes``: control values that enable more controls (swept again in that mode)."""

    kwargs: dict
    values: dict = field(default_factory=dict)
    modes: tuple = ()
    module_patches: dict = field(default_factory=dict)
    datasets: tuple = ()


def _fast_solvers():
    from milab_widgets.widgets.lskmddm import PANEL_SOLVERS

    return {name: spec for name, spec in PANEL_SOLVERS.items() if "ifp" not in name}


CHEAP = {
    "IntHPanel": Cheap({"dataset": "musk1", "run": False}, {"folds": 2},
                       modes=({"alpha_mode": "hand"},), datasets=("musk1",)),
    "CDVSEPanel": Cheap({"update": False}, {"M": 4, "uci_dataset": "hepatitis",
                                            "repetitions": 2}, datasets=("hepatitis",)),
    "MFSEFPanel": Cheap({"dataset": "yeast", "run": False},
                        {"methods": ("MFSEF",), "max_features": 4, "steps": 1},
                        modes=({"expert_mode": "hand"},), datasets=("yeast",)),
    "TwoViewPanel": Cheap({"dataset": "synthetic", "run": False}, {"max_iter": 10}),
    "LSkMDDMPanel": Cheap({"dataset": "scene", "n_train": 200, "run": False},
                          module_patches={"PANEL_SOLVERS": _fast_solvers},
                          datasets=("scene",)),
}


# -- widget tree ---------------------------------------------------------------------------------
def forms(root) -> list[tuple[list, list]]:
    """(value controls, buttons) of each form: the panel, and each tab page inside it. A
    number box is a value control (given numbers), and so is its text entry (given text)."""
    found = [([], [])]

    def walk(widget, form):
        if isinstance(widget, (widgets.Button, ClipboardButton)):  # "copy as code" too
            form[1].append(widget)
        elif (isinstance(widget, (widgets.ValueWidget, NumberBox))
              and not isinstance(widget, DISPLAYS)):
            form[0].append(widget)
        for child in getattr(widget, "children", ()):
            if isinstance(widget, widgets.Tab):
                found.append(([], []))
                walk(child, found[-1])
            else:
                walk(child, form)

    walk(root, found[0])
    return [form for form in found if form[0] or form[1]]


def candidates(control) -> list:
    """The bad values to try on ``control`` (those it rejects itself are skipped later)."""
    if isinstance(control, (widgets.Text, widgets.Textarea)):
        return list(TEXTS)
    if isinstance(control, widgets.SelectMultiple):
        return [()]
    if isinstance(control, SINGLE_CHOICE):
        pairs = (option if isinstance(option, tuple) else (str(option), option)
                 for option in control.options)
        return [value for label, value in pairs if any(mark in label for mark in UNUSABLE)][:2]
    if isinstance(control, widgets.Checkbox):
        return [not control.value]
    if isinstance(control.value, (int, float)):
        return list(NUMBERS)
    return []


def key(value) -> str:
    return repr(value)


def clues(control) -> tuple:
    """What an error caused by ``control``'s value should mention (lower case): the dataset
    chosen; else the value or a word of the control's description ("ratios" -> "ratio")."""
    if isinstance(control, SINGLE_CHOICE):
        return (str(control.value).lower(),)
    words = re.findall(r"[a-z]{3,}", control.description.lower())
    return (str(control.value).lower(), *(word.removesuffix("s") for word in words))


def inputs(panel, skip=None) -> dict:
    """Values of the enabled value controls (disabled ones show results, e.g. a tuned α);
    ``skip`` is the control changed, with its typed entry (or the entry's number box or
    slider): the two show one value."""
    owners = entry_owners(panel)
    skipped = {id(skip), id(getattr(skip, "entry", None)), id(owners.get(id(skip)))}
    return {id(c): key(c.value) for controls, _ in forms(panel) for c in controls
            if id(c) not in skipped and not c.disabled}


def displays(panel, shown: dict) -> tuple:
    """What the panel shows: HTML/image values, and the objects each Output was last given
    (compared by identity with :func:`same_display`)."""
    static = [part for area in panel.status_areas.values() for part in area.parts()]
    static += [owner.note for owner in entry_owners(panel).values()]  # these follow the inputs
    values = []

    def walk(widget):
        if any(widget is part for part in static):  # with what they hold (the progress row)
            return
        if isinstance(widget, DISPLAYS):
            values.append(widget.value)
        if isinstance(widget, LiveChart):
            values.append(id(widget.chart))
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(panel)
    return tuple(values), dict(shown)


def cleared_for(changed, panel) -> bool:
    """A failed switch of the dataset may clear the results (the old dataset's results
    must never stay under the new name), as long as no chart is left on screen."""
    if changed is None or changed.description != "dataset":
        return False
    charts = []

    def walk(widget):
        if isinstance(widget, LiveChart):
            charts.append(widget.chart)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(panel)
    return all(chart is None for chart in charts)


def same_display(before: tuple, after: tuple) -> bool:
    (values, outputs), (values_after, outputs_after) = before, after
    return values == values_after and outputs.keys() == outputs_after.keys() and all(
        len(outputs[k]) == len(outputs_after[k])
        and all(same_object(a, b) for a, b in zip(outputs[k], outputs_after[k], strict=True))
        for k in outputs)


def same_object(shown, shown_after) -> bool:
    """The same object, or an HTML widget reading the same (a panel shows a new widget each
    time, closing the one it replaces: base.show_objects)."""
    return shown is shown_after or (isinstance(shown, widgets.HTML)
                                    and isinstance(shown_after, widgets.HTML)
                                    and shown.value == shown_after.value)


# -- fixtures ------------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    """Run in a scratch folder: a panel's save control, given text such as "abc", writes
    into the working directory (it filled the repository with folders named after the
    sweep's bad values)."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def recorded(monkeypatch):
    """Record what each Output shows ({id(output): the objects}); render PNGs cheaply."""
    shown = {}

    def render(spec, fmt, **options):
        json.dumps(spec, allow_nan=False)
        return b"\x89PNG\r\n\x1a\n"

    def save(chart, path_without_suffix, formats=("svg", "png"), **options):
        json.dumps(chart.to_dict(), allow_nan=False)
        paths = [Path(f"{path_without_suffix}.{fmt}") for fmt in formats]
        for path in paths:
            path.write_bytes(render(None, path.suffix))
        return paths

    monkeypatch.setattr(base, "chart_image", render)
    monkeypatch.setattr(milab_widgets.charts, "save_chart", save)
    original, original_clear = base.show_objects, base.clear_shown

    def clear_shown(output):
        original_clear(output)
        shown[id(output)] = ()


    def show_objects(output, *objects):
        original(output, *objects)
        shown[id(output)] = objects

    monkeypatch.setattr(base, "show_objects", show_objects)
    monkeypatch.setattr(base, "clear_shown", clear_shown)
    return shown


def build(title: str, monkeypatch, recorded, default_dataset: bool = False):
    """The panel of tab ``title`` on its cheap settings (on its default dataset instead of
    a registered one if ``default_dataset``), its module reporting to ``recorded``."""
    module_name, class_name = LAB_PANELS[title]
    module = import_module(module_name)
    cheap = CHEAP[class_name]
    for name, make in cheap.module_patches.items():
        monkeypatch.setattr(module, name, make())
    for name in SHOWN:
        if hasattr(module, name):
            monkeypatch.setattr(module, name, getattr(base, name))
    kwargs = {name: value for name, value in cheap.kwargs.items()
              if not (default_dataset and value in cheap.datasets)}
    return getattr(module, class_name)(**kwargs), cheap


@pytest.fixture
def partial_data_home(tmp_path, monkeypatch):
    """``keep(names)``: a data home holding only ``names`` (symlinks to their files)."""
    home = tmp_path / "partial_home"

    def keep(names):
        for name in names:
            for data_file, path in zip(REGISTRY[name].files, locate(REGISTRY[name]), strict=True):
                link = home.joinpath(*data_file.relpath.split("/"))
                link.parent.mkdir(parents=True, exist_ok=True)
                if not link.exists():
                    link.symlink_to(path)
        monkeypatch.setenv("MILAB_DATA_HOME", str(home))

    return keep


# -- one step of the sweep -----------------------------------------------------------------------
class Sweep:
    """Drives one panel; ``failures`` collects every broken promise with its context."""

    def __init__(self, panel, shown, caplog):
        self.panel, self.shown, self.caplog = panel, shown, caplog
        self.failures: list[str] = []
        self.steps: list[str] = []
        self.entry_owners = entry_owners(panel)

    def step(self, what: str, action, changed=None, culprit=None) -> bool:
        """Run ``action`` (set a value or click); check the promises (a failure's message
        must mention the ``culprit`` control's value, if given); True if it failed."""
        panel = self.panel
        self.steps.append(what)
        before_shown, before_inputs = displays(panel, self.shown), inputs(panel, changed)
        for area in panel.status_areas.values():
            area.last_error = None
        self.caplog.clear()
        try:
            action()
        except Exception as error:  # noqa: BLE001 - escaping is the failure we look for
            self.failures.append(f"{what}: {type(error).__name__} escaped: {error}")
            return True
        escaped = [r.getMessage() for r in self.caplog.records if "Exception in" in r.getMessage()]
        if escaped:
            self.failures.append(f"{what}: a callback raised: {escaped[0]}")
        view = next((area for area in panel.status_areas.values() if area.last_error is not None),
                    None)  # the view that failed (a sub-tab reports in its own view)
        if view is None:
            return False
        error = view.last_error
        self.steps[-1] += f" -> {type(error).__name__}: {str(error)[:150]}"
        if not isinstance(error, LIBRARY_ERRORS) or not str(error).strip():
            self.failures.append(f"{what}: unclear error {type(error).__name__}: {error}")
        elif culprit and not any(clue in str(error).lower() for clue in clues(culprit)):
            self.failures.append(f"{what}: the error names none of {clues(culprit)}: {error}")
        if not view.error.value or not view.status.value.startswith("failed"):
            self.failures.append(f"{what}: failed without showing it")
        after_shown = displays(panel, self.shown)
        if not (same_display(before_shown, after_shown) or cleared_for(changed, panel)):
            self.failures.append(f"{what}: the failed action changed what the panel shows")
        if inputs(panel, changed) != before_inputs:
            self.failures.append(f"{what}: the failed action changed other inputs")
        return True

    def click_all(self, buttons, what: str, culprit=None) -> None:
        for button in buttons:
            self.step(f"{what}, then {button.description!r}", button.click, culprit=culprit)

    def must_succeed(self, buttons, what: str) -> None:
        for button in buttons:
            if self.step(f"{what}, then {button.description!r}", button.click):
                self.failures.append(f"{what}: {button.description!r} failed after restoring: "
                                     f"{self.panel.view_of(button).last_error}")

    def check_not_clamped(self, control, value) -> None:
        """A number box outside its allowed range keeps the value and says so at once."""
        if not hasattr(control, "allowed"):
            return
        low, high = control.allowed
        if control.value != value:
            self.failures.append(f"{control.description} = {value!r} was changed to "
                                 f"{control.value!r} without a word")
        elif not low <= value <= high:
            shown = self.panel.view_of(control).error.value
            named = f"{control.description} = {control.value}"
            if named not in shown or f"from {low} to {high}" not in shown:
                self.failures.append(f"{control.description} = {value!r} (allowed {low}-{high}): "
                                     f"no error naming the control and its range: {shown[:200]}")

    def check_refusal_said(self, control, text) -> None:
        """Text typed into a number box or a slider's entry and not used as typed is
        refused beside the control, naming the text (or the emptied box)."""
        owner = self.entry_owners.get(id(control))
        if owner is None or used_as_typed(owner, text):
            return
        note = owner.note.value
        named = html.escape(str(text).strip()) if str(text).strip() else "emptied"
        if not note or (named not in note and "refused" not in note):
            self.failures.append(f"{owner.description} typed {text!r}, used "
                                 f"{owner.value!r}: nothing said beside it ({note!r})")

    def sweep(self, control, buttons, recover: bool = True) -> None:
        """Try each bad value of ``control`` and click ``buttons`` after each; restore the
        good value, after which the buttons must succeed if ``recover``."""
        name = control.description or type(control).__name__
        good, tried = control.value, {key(control.value)}
        for value in candidates(control):
            rejected = []

            def put(value=value, rejected=rejected):
                try:
                    control.value = value
                except TraitError:  # the control's own validation refuses it: fine
                    rejected.append(value)

            self.step(f"{name} = {value!r}", put, control, culprit=control)
            if not rejected:
                self.check_not_clamped(control, value)
                self.check_refusal_said(control, value)
            if rejected or key(control.value) in tried:
                continue
            tried.add(key(control.value))
            self.click_all(buttons, f"{name} = {value!r} (shown as {control.value!r})",
                           culprit=control)
        if key(control.value) != key(good):
            self.step(f"restoring {name}", lambda: setattr(control, "value", good), control)
            if recover:
                self.must_succeed(buttons, f"{name} restored")


def entry_owners(panel) -> dict:
    """{id(text entry): its number box or slider} of every typed entry in ``panel``."""
    owners = {}

    def walk(widget):
        if hasattr(widget, "entry") and hasattr(widget, "note"):
            owners[id(widget.entry)] = widget
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(panel)
    return owners


def used_as_typed(owner, text) -> bool:
    """Whether ``owner`` (a number box or a slider) now holds the number ``text`` says."""
    try:
        number = float(str(text).strip())
    except ValueError:
        return False
    return math.isfinite(number) and math.isclose(owner.value, number, rel_tol=1e-9)


def set_value(sweep: Sweep, control, value) -> None:
    sweep.step(f"setting {control.description} = {value!r}",
               lambda: setattr(control, "value", value), control)


# -- tests ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("title", list(LAB_PANELS))
def test_every_control_survives_bad_values(title, require_dataset, partial_data_home,
                                           recorded, monkeypatch, caplog):
    cheap = CHEAP[LAB_PANELS[title][1]]
    for name in cheap.datasets:
        require_dataset(name)
    partial_data_home(cheap.datasets)
    panel, cheap = build(title, monkeypatch, recorded)
    sweep = Sweep(panel, recorded, caplog)
    assert panel.last_error is None, panel.error.value
    clamping = [c.description for controls, _ in forms(panel) for c in controls
                if isinstance(c, CLAMPING)]
    assert not clamping, f"these number boxes clamp silently: {clamping}"
    for name, value in cheap.values.items():
        set_value(sweep, getattr(panel, name), value)
    for _, buttons in forms(panel):
        sweep.must_succeed(buttons, "first run")
    assert not sweep.failures, "\n".join(sweep.failures)
    for controls, buttons in forms(panel):
        for control in controls:
            sweep.sweep(control, buttons)
    for mode in cheap.modes:
        disabled = {id(c) for controls, _ in forms(panel) for c in controls if c.disabled}
        for name, value in mode.items():
            set_value(sweep, getattr(panel, name), value)
        for controls, buttons in forms(panel):
            for control in controls:
                if id(control) in disabled and not control.disabled:
                    sweep.sweep(control, buttons)
    print("\n".join(sweep.steps))
    assert sweep.steps and not sweep.failures, "\n".join(sweep.failures)


@pytest.mark.parametrize("title", list(LAB_PANELS))
def test_every_panel_opens_on_an_empty_data_home_and_says_what_is_missing(
        title, empty_data_home, recorded, monkeypatch, caplog):
    panel, _ = build(title, monkeypatch, recorded, default_dataset=True)
    usable = panel.last_error is None
    if not usable:
        assert isinstance(panel.last_error, MilabError)
        assert "fetch" in panel.error.value and str(empty_data_home) in panel.error.value
    sweep = Sweep(panel, recorded, caplog)
    for name, value in CHEAP[LAB_PANELS[title][1]].values.items():
        set_value(sweep, getattr(panel, name), value)
    for controls, buttons in forms(panel):
        sweep.click_all(buttons, "on an empty data home")
        form_usable = usable and all(  # e.g. CDVSE's UCI tab is not
            panel.view_of(button).last_error is None for button in buttons)
        for control in controls:
            if isinstance(control, SINGLE_CHOICE):
                sweep.sweep(control, buttons, recover=form_usable)
    assert not sweep.failures, "\n".join(sweep.failures)
