"""`MFSEFPanel`: choose expert features and compare multi-label feature selectors (MFSEF).

Pick a dataset (one with a fixed train/test split), let MFSEF take the top-MI features as
experts or pick them by hand -- the expert view shows every feature's relevance
FMI(f; L) = sum_l I(f; l) above the feature values of all training samples (the paper's
waterfall plot) -- set ML-kNN's k and the subspace ratios, and compare the selectors on
AP, HL, RL and OE as the number of selected features grows. Every selector is fitted once
per Run on the training part and evaluated by ML-kNN on the test part, through the same
functions as the paper's experiments (:func:`milab_widgets.experiments.mfsef.dataset_scores`).
Clicking a method's line (or its legend entry) lists the features it selects.

>>> from milab_widgets.widgets import MFSEFPanel
>>> panel = MFSEFPanel("arts")   # doctest: +SKIP
>>> panel.k.value = 5            # doctest: +SKIP
>>> panel.run()                  # doctest: +SKIP
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np
import pandas as pd

from milab_widgets.charts import use_lab_charts
from milab_widgets.charts.mfsef import expert_view_chart, metric_curves_chart
from milab_widgets.data import list_datasets, load_dataset
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.exceptions import InputError
from milab_widgets.experiments.mfsef import (
    SELECTORS,
    Settings,
    curves,
    dataset_scores,
    feature_count,
    fit_selectors,
    waterfall_overview,
)
from milab_widgets.multilabel.metrics import LOWER_IS_BETTER
from milab_widgets.multilabel.selection import label_relevance, top_features
from milab_widgets.papers.mfsef import METRIC_NAMES, TABLE_METRICS
from milab_widgets.widgets import recipes
from milab_widgets.widgets.as_code import AsCode
from milab_widgets.widgets.base import (
    Panel,
    clear_shown,
    dataset_choices,
    on_press,
    ranged_int,
    show_chart_image,
    show_table,
)
from milab_widgets.widgets.entries import tell
from milab_widgets.widgets.live import LiveChart

__all__ = ["MFSEFPanel"]

EXPERT_MODES = (("top MI", "auto"), ("by hand", "hand"))
#: Default largest feature count, as a fraction of the dataset's features (the tables' 10 %).
DEFAULT_FRACTION = Settings.table_fraction
METRICS_LEGEND = ", ".join(
    f"{metric} = {METRIC_NAMES[metric].lower()} {'↓' if metric in LOWER_IS_BETTER else '↑'}"
    for metric in TABLE_METRICS) + (" (↑ higher is better, ↓ lower). Selection seconds: the "
                                     "selector's fit time; — for Original (no selection).")


class MFSEFPanel(AsCode, Panel):
    """Expert features and multi-label feature selection, compared live.

    ``MFSEFPanel(dataset=None, run=True)`` starts on ``dataset`` (default: the first
    available multi-label dataset with a fixed split) and, with ``run=True``, runs once.

    Controls (public ipywidgets): ``dataset``, ``expert_mode`` ("auto" or "hand"),
    ``n_experts``, ``experts`` (feature indices, most relevant first), ``ratios`` (text such
    as "0.6, 0.3, 0.1"), ``k`` (ML-kNN neighbours), ``methods``, ``max_features``,
    ``steps`` (number of feature counts up to ``max_features``), ``run_button``.

    Results (None until a successful :meth:`run`): ``scores`` (long format, as the
    experiments), ``curves_chart``, ``expert_chart``; shown in ``expert_output``,
    ``curves_output`` and ``table_output``; ``score_table`` (the table shown),
    ``selected`` and ``selected_method`` (after a click on a method). ``code()`` and
    ``save(folder)``: see :mod:`~milab_widgets.widgets.as_code`.

    Parameters
    ----------
    dataset : str, default=None
        A registered multi-label dataset with a fixed split; None means the first available.
    run : bool, default=True
        Run once at construction.

    Attributes
    ----------
    scores, curves_chart, expert_chart, score_table, selected, selected_method
        The results, as listed above.

    See Also
    --------
    MFSEF, MFSLS, PMU, MLkNN : the selectors it compares and the classifier that scores them.

    Examples
    --------
    The multi-label sets are fetched (``milab fetch yeast``); without them the panel says
    which one is missing instead of failing:

    >>> from milab_widgets.widgets import MFSEFPanel
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):   # outside Jupyter, displays print
    ...     panel = MFSEFPanel(run=False)
    >>> panel.dataset.value
    'yeast'
    """

    #: What holds the panel's shown results (``has_results``).
    result_attributes = ("scores",)

    recipe = recipes.MFSEF

    def __init__(self, dataset: str | None = None, run: bool = True):
        use_lab_charts()
        self._build_controls(dataset)
        self._build_outputs()
        super().__init__("expert features and multi-label feature selection (ML-kNN)",
                         controls=self._control_rows(), outputs=self._output_rows(),
                         paper="MFSEF")
        self.scores = self.curves_chart = self.expert_chart = self.selected = None
        self.score_table = self.selected_method = None
        self.relevance = self._loaded_name = None
        self._wire()
        self.load()
        if run:
            self.run_button.click()  # in a kernel, in the background with progress and Stop

    # -- layout --------------------------------------------------------------------------------
    def _build_controls(self, dataset: str | None) -> None:
        options, first_available = dataset_choices(_choosable(list_datasets()))
        wide = {"description_width": "initial"}
        self.dataset = widgets.Dropdown(options=options, value=dataset or first_available,
                                        description="dataset")
        self.expert_mode = widgets.ToggleButtons(options=EXPERT_MODES, description="experts",
                                                 style=wide)
        self.n_experts = widgets.IntSlider(value=4, min=0, max=10, description="how many",
                                           style=wide, continuous_update=False)
        self.experts = widgets.SelectMultiple(options=[], rows=6, description="pick",
                                              disabled=True, layout={"width": "320px"})
        self.ratios = widgets.Text(value="0.6, 0.3, 0.1", description="subspace ratios",
                                   style=wide, continuous_update=False)
        self.k = widgets.IntSlider(value=10, min=1, max=30, description="ML-kNN k",
                                   style=wide, continuous_update=False)
        self.methods = widgets.SelectMultiple(options=list(SELECTORS), value=list(SELECTORS),
                                              rows=5, description="methods")
        self.max_features = ranged_int("up to (features)", 10, 1, 10, style=wide,
                                       layout={"width": "220px"})
        self.steps = widgets.IntSlider(value=4, min=1, max=10, description="steps",
                                       continuous_update=False)
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play")

    def _control_rows(self) -> list:
        return [
            widgets.HBox([self.dataset, self.k]),
            widgets.HBox([widgets.VBox([self.expert_mode, self.n_experts]), self.experts]),
            widgets.HBox([self.ratios, self.methods]),
            widgets.HBox([self.max_features, self.steps, self.run_button]),
        ]

    def _build_outputs(self) -> None:
        self.expert_output = widgets.Output()
        self.summary = widgets.HTML()
        self.curves_view = LiveChart()
        self.table_output = widgets.Output()
        self.selected_output = widgets.Output()

    def _output_rows(self) -> list:
        return [self.expert_output, self.summary, self.table_output, self.curves_view,
                self.selected_output]

    def _wire(self) -> None:
        self.dataset.observe(lambda _: self.load(), "value")
        self.expert_mode.observe(self._on_expert_mode, "value")
        for control in (self.n_experts, self.experts):
            control.observe(lambda _: self.show_experts(), "value")
        on_press(self.run_button, self.run, self.status_area)
        self.ratios.observe(lambda _: self._check_ratios(), "value")
        self.curves_view.on_select("method_pick", self._on_method_click)
        self.stale_when_changed([self.expert_mode, self.n_experts, self.experts, self.ratios,
                                 self.k, self.methods, self.max_features, self.steps])

    def _on_expert_mode(self, change) -> None:
        by_hand = change["new"] == "hand"
        self.experts.disabled, self.n_experts.disabled = not by_hand, by_hand
        if by_hand and not self.experts.value and self.relevance is not None:
            self._set_experts(self._automatic_experts())
        else:
            self.show_experts()

    def _set_experts(self, experts) -> None:
        """Set the picked experts and draw the expert view once: the ``experts`` observer
        redraws when the value changes, so draw here only when it does not."""
        value = tuple(experts)
        unchanged = value == tuple(self.experts.value)
        self.experts.value = value
        if unchanged:
            self.show_experts()

    # -- actions -------------------------------------------------------------------------------
    def load(self) -> None:
        """Load the dataset, rank its features by relevance and show the expert view."""
        with self.working(f"loading {self.dataset.value}"):
            # No expert-view redraws while the controls are refilled, nor of the previous
            # dataset if this load fails.
            self.relevance = None
            data = load_dataset(self.dataset.value)
            train, _ = data.train_test()
            relevance = label_relevance(train.X, train.Y)
            self._overview = waterfall_overview(data)
            by_relevance = np.argsort(-relevance, kind="stable")
            self.experts.value = ()
            self.experts.options = [(f"{data.feature_names[j]} · MI {relevance[j]:.4f}", int(j))
                                    for j in by_relevance]
            self._set_max_features(data)
            self.relevance = relevance
            self._feature_names = data.feature_names
            self._clear_results()
            if self.expert_mode.value == "hand":
                self._set_experts(self._automatic_experts())
            else:
                self.show_experts()

    def _set_max_features(self, data) -> None:
        """Allow up to the dataset's feature count and start at DEFAULT_FRACTION of it;
        after a switch, say beside the box when that changes the value."""
        before, switched = self.max_features.value, self._loaded_name is not None
        self.max_features.allowed = (1, data.n_features)
        self.max_features.value = feature_count(DEFAULT_FRACTION, data.n_features)
        if switched and self.max_features.value != before:
            tell(self.max_features, f"set to {self.max_features.value} for "
                                    f"{html.escape(data.name)}: {DEFAULT_FRACTION:.0%} of its "
                                    f"{data.n_features} features (was {before}; allowed 1 to "
                                    f"{data.n_features}).")
        self._loaded_name = data.name

    def _check_ratios(self) -> None:
        """Report unreadable subspace ratios as soon as they are typed, and clear that
        error as soon as they are fixed (it stayed until the next Run)."""
        try:
            self._ratios()
        except InputError as error:
            self.show_error(error)
            self.status.value = "failed: subspace ratios"
            return
        self.status_area.clear_error_about("ratio")

    def _ratios(self) -> tuple[float, ...]:
        try:
            return tuple(float(part) for part in self.ratios.value.replace(";", ",").split(","))
        except ValueError:
            raise InputError(f"subspace ratios {self.ratios.value!r} must be numbers separated "
                             "by commas, e.g. 0.6, 0.3, 0.1.") from None

    def show_experts(self) -> None:
        """Redraw the expert view with the current experts highlighted."""
        if self.relevance is None:
            return
        with self.working("drawing the expert view"):
            self.expert_chart = expert_view_chart(
                self.relevance, self.chosen_experts(), self._overview,
                f"{self.dataset.value}: relevance of each feature (experts in orange) over "
                "the feature values of all training samples")
            show_chart_image(self.expert_output, self.expert_chart)

    def run(self) -> None:
        """Fit the chosen selectors and plot the four metrics against the feature count (one
        progress step per selector; Stop keeps the last results)."""
        with self.working(f"comparing selectors on {self.dataset.value}"):
            settings = self._settings()
            data = load_dataset(self.dataset.value)
            scores, timings = dataset_scores(data.name, data, settings, ResultCache(None),
                                             counts=self._counts(), progress=self.step)
            self.scores = scores
            self.curves_chart = metric_curves_chart(
                curves(scores, data.name), f"{data.name}: ML-kNN (k = {self.k.value}) on the "
                "selected features (click a method)", select="method_pick", width=200)
            self.curves_view.show(self.curves_chart)
            self._show_table(scores, timings)
            self.selected = None
            clear_shown(self.selected_output)
            self.mark_fresh()

    def show_selected(self, method: str) -> None:
        """Show the features ``method`` selects, with their relevance and expert flag.

        Up to the largest count, in the method's order, with FMI(f; L) and whether each is an
        expert.

        Parameters
        ----------
        method : str
            One of the compared methods.
        """
        with self.working(f"features {method} selects"):
            settings = self._settings()
            data = load_dataset(self.dataset.value)
            train, _ = data.train_test()
            count = self.checked(self.max_features)
            if method == "Original":
                chosen = np.arange(data.n_features)
            else:
                selector, _ = fit_selectors(train, [method], count, settings)[method]
                chosen = selector.selection(count)
            experts = set(self.chosen_experts()) if method == "MFSEF" else set()
            self.selected_method = method
            self.selected = pd.DataFrame({
                "rank": np.arange(1, len(chosen) + 1), "feature": chosen,
                "name": [self._feature_names[j] for j in chosen],
                "FMI(f; L)": self.relevance[chosen],
                "expert": ["yes" if j in experts else "" for j in chosen]}).set_index("rank")
            show_table(self.selected_output, self.selected,
                       caption=f"<b>{html.escape(method)}</b>: the {len(chosen)} features it "
                       "selects, in its order:",
                       legend="FMI(f; L) = Σ_l I(f; l), the feature's mutual information "
                       "with the labels (nats) on the training part.")

    def _on_method_click(self, picked: list) -> None:
        if picked and self.scores is not None:
            self.show_selected(str(picked[0]["method"]))

    def _clear_results(self) -> None:
        self.scores = self.curves_chart = self.selected = None
        self.summary.value = "Press <b>Run</b> to compare the selectors."
        for output in (self.table_output, self.selected_output):
            clear_shown(output)
        self.curves_view.clear()
        self.mark_fresh()

    # -- helpers -------------------------------------------------------------------------------
    def chosen_experts(self) -> list[int]:
        """The expert features the controls choose.

        Returns
        -------
        list of int
            Feature indices: chosen by hand, or the top ``n_experts`` by relevance.
        """
        if self.expert_mode.value == "hand":
            return list(self.experts.value)
        return self._automatic_experts()

    def _automatic_experts(self) -> list[int]:
        return top_features(self.relevance, self.n_experts.value).tolist()

    def _settings(self) -> Settings:
        if not self.methods.value:
            raise InputError("choose at least one method to compare with Original.")
        ratios = self._ratios()
        by_hand = self.expert_mode.value == "hand"
        if by_hand and not self.experts.value:
            raise InputError("pick at least one expert feature, or switch experts to 'top MI'.")
        return Settings(k=self.k.value, ratios=ratios, n_experts=self.n_experts.value,
                        experts=tuple(self.experts.value) if by_hand else None,
                        methods=tuple(m for m in SELECTORS if m in self.methods.value))

    def _counts(self) -> list[int]:
        top = self.checked(self.max_features)
        return sorted({max(1, round(c)) for c in np.linspace(top, 0, self.steps.value,
                                                                  endpoint=False)})

    def _show_table(self, scores, timings) -> None:
        largest = scores[(scores.metric.isin(TABLE_METRICS)) &
                         ((scores.n_features == self.max_features.value) |
                          (scores.method == "Original"))]
        table = largest.pivot(index="method", columns="metric", values="value")
        seconds = timings.set_index("method")["seconds"] if len(timings) else None
        if seconds is not None:
            table["selection seconds"] = seconds
        experts = ", ".join(self._feature_names[e] for e in self.chosen_experts()) or "none"
        self.summary.value = (
            f"Scores at {self.max_features.value} selected features (Original: all "
            f"{self.max_features.allowed[1]}); MFSEF experts: {html.escape(experts)}; ratios "
            f"{html.escape(self.ratios.value)}; ML-kNN k = {self.k.value}, s = 1.")
        self.score_table = table.reindex(columns=[*TABLE_METRICS, *(
            ["selection seconds"] if seconds is not None else [])])
        show_table(self.table_output, self.score_table, legend=METRICS_LEGEND)


def _choosable(table):
    """The datasets this panel can show (every one is listed, available or not)."""
    return table[(table["kind"] == "multilabel") & table["train"].notna()]
