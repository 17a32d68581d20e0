"""`TwoViewPanel`: run the semi-supervised two-view clustering model (TwoViewMIC) interactively.

Pick a dataset, the second view's bag generator, which views to use, the kernel (Ker1
mixture-model / Ker2 minimax), alpha, beta and the labelled fraction; press Run. The panel
draws the objective while the multiplicative updates run, then the confusion matrix after
Hungarian matching (click a cell to list its bags), and the ACC of the baselines (BAMIC1-3, BAMIC-intH, unKer) on the same
views, labelled bags and seed. Kernels and bag distances are computed once per dataset and
view (:class:`~milab_widgets.experiments.twoview.ProblemCache`), so changing alpha, beta or
the labels only refits.

>>> from milab_widgets.widgets import TwoViewPanel
>>> panel = TwoViewPanel("synthetic")   # doctest: +SKIP
>>> panel.beta.value = 1.0              # doctest: +SKIP
>>> panel.run()                         # doctest: +SKIP
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable

import ipywidgets as widgets
import numpy as np
import pandas as pd

from milab_widgets.charts import use_lab_charts
from milab_widgets.charts.twoview import confusion_chart, objective_curve_chart
from milab_widgets.evaluation.clustering_scores import (
    clustering_accuracy,
    matched_confusion,
)
from milab_widgets.experiments import twoview as experiment
from milab_widgets.widgets import recipes
from milab_widgets.widgets.as_code import AsCode
from milab_widgets.widgets.base import (
    Panel,
    clear_shown,
    on_press,
    ranged_int,
    show_objects,
    show_table,
    styled,
)
from milab_widgets.widgets.live import LiveChart

__all__ = ["TwoViewPanel"]

PRESS_RUN = "Press <b>Run</b> to cluster with the current setting."
#: Shown while a run goes (it said "Press Run" then: issue 33).
CLUSTERING = ("Clustering with the current setting: the objective is drawn below as the "
              "updates go, the scores follow.")

DATASETS = ("digits-a", "digits-b", "synthetic")
KERNELS = (("mixture (Ker1)", "mixture"), ("minimax (Ker2)", "minimax"))
VIEWS = (("both views", "both"), ("first only", "first"), ("second only", "second"))
BASELINES = ("BAMIC1", "BAMIC2", "BAMIC3", "BAMIC-intH")
#: Seconds between two redraws of the live convergence curve, at least; and at least
#: REDRAW_RATIO times the last redraw's own duration, so drawing takes at most about a quarter
#: of the fit's time.
REDRAW_SECONDS = 0.5
#: Bags of a clicked confusion cell listed in the panel (all are in ``cell_bags``).
CELL_ROWS = 12
REDRAW_RATIO = 3.0

BASELINES_LEGEND = (
    "<small>ACC = clustering accuracy after Hungarian matching. BAMIC1-3 = k-medoids of bags "
    "under the minimal / maximal / average Hausdorff distance; BAMIC-intH = under the "
    "integrated Hausdorff distance; Ker1 / Ker2 = this model with the mixture / minimax "
    "kernel; unKer = the same without labels (P = Q = I).</small>")
NOTE = (
    "<small>Labelled fraction 0 runs the unsupervised model (unKer, P = Q = I). The labelled "
    "bags are drawn per class with the seed, which also seeds the initial W, H and BAMIC's "
    "medoids. The mixture kernel is fitted once per view (100 components: a few seconds "
    "the first time).</small>"
)


class TwoViewPanel(AsCode, Panel):
    """Semi-supervised two-view multi-instance clustering explorer.

    ``TwoViewPanel(dataset="digits-a", run=True)``: ``dataset`` is "digits-a", "digits-b",
    "synthetic" or a folder of two-view bags (:mod:`milab_widgets.data.twoview_files`).

    Controls (public ipywidgets): ``dataset``, ``generator``, ``views``, ``kernel``,
    ``alpha``, ``beta``, ``fraction`` (labelled per class), ``seed``, ``max_iter``,
    ``run_button``.

    Results (None until a successful :meth:`run`): ``model`` (the fitted
    TwoViewMIClustering), ``accuracy_value``, ``confusion`` (DataFrame),
    ``baseline_scores`` (DataFrame: method, ACC), ``curve_chart``, ``confusion_chart``.
    ``code()`` and ``save(folder)``: see :mod:`~milab_widgets.widgets.as_code`.

    Parameters
    ----------
    dataset : str, default="digits-a"
        "digits-a", "digits-b", "synthetic" or a folder of two-view bags.
    run : bool, default=True
        Run once at construction.

    Attributes
    ----------
    model, accuracy_value, confusion, baseline_scores, curve_chart, confusion_chart
        The results, as listed above.

    See Also
    --------
    TwoViewMIClustering, BAMIC : the clustering and its baseline.

    Examples
    --------
    >>> from milab_widgets.widgets import TwoViewPanel
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):   # outside Jupyter, displays print
    ...     panel = TwoViewPanel(dataset="synthetic", run=False)
    >>> panel.dataset.value, panel.model is None
    ('synthetic', True)
    """

    #: What holds the panel's shown results (``has_results``).
    result_attributes = ("model",)

    recipe = recipes.TWOVIEW

    def __init__(self, dataset: str = "digits-a", run: bool = True):
        use_lab_charts()
        self._problems: dict = {}
        self._build_controls(dataset)
        self._build_outputs()
        super().__init__("semi-supervised two-view multi-instance clustering",
                         controls=self._control_rows(), outputs=self._output_rows(),
                         paper="TwoViewMIC")
        self._clear_results()
        self.dataset.observe(lambda _: self.load(), "value")
        on_press(self.run_button, self.run, self.status_area)
        self.confusion_view.on_select("cell_pick", self._on_cell_click)
        self.stale_when_changed([self.generator, self.views, self.kernel, self.alpha, self.beta,
                                 self.fraction, self.seed, self.max_iter])
        self.load()
        if run:
            self.run_button.click()  # in a kernel, in the background with progress and Stop

    # -- layout --------------------------------------------------------------------------------
    def _build_controls(self, dataset: str) -> None:
        wide = {"description_width": "initial"}
        options = list(dict.fromkeys([*DATASETS, dataset]))
        self.dataset = widgets.Dropdown(options=options, value=dataset, description="dataset")
        self.generator = widgets.Dropdown(description="2nd view", options=[])
        self.views = widgets.ToggleButtons(options=VIEWS, description="views", style=wide)
        self.kernel = widgets.ToggleButtons(options=KERNELS, description="kernel", style=wide)
        grid = [(f"{value:g}", value) for value in experiment.GRID]
        self.alpha = widgets.SelectionSlider(options=grid, value=0.01, description="α",
                                             continuous_update=False)
        self.beta = widgets.SelectionSlider(options=grid, value=0.01, description="β",
                                            continuous_update=False)
        self.fraction = widgets.FloatSlider(value=0.05, min=0.0, max=0.5, step=0.01,
                                            description="labelled", readout_format=".0%",
                                            continuous_update=False, style=wide)
        self.seed = ranged_int("seed", 0, 0, 10**6, layout={"width": "160px"})
        self.max_iter = widgets.IntSlider(value=300, min=10, max=1000, step=10,
                                          description="max iterations", style=wide,
                                          continuous_update=False)
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play")

    def _control_rows(self) -> list:
        return [widgets.HBox([self.dataset, self.generator, self.views]),
                widgets.HBox([self.kernel, self.fraction]),
                widgets.HBox([self.alpha, self.beta]),
                widgets.HBox([self.max_iter, self.seed, self.run_button]),
                widgets.HTML(NOTE)]

    def _build_outputs(self) -> None:
        self.accuracy = widgets.HTML()
        self.curve_view = LiveChart()
        self.confusion_view = LiveChart()
        self.cell_output = widgets.Output()
        self.baselines = widgets.Output()

    def _output_rows(self) -> list:
        return [self.accuracy, widgets.HBox([self.curve_view, self.confusion_view],
                                            layout=widgets.Layout(flex_flow="row wrap")),
                self.cell_output, self.baselines]

    # -- actions -------------------------------------------------------------------------------
    def load(self) -> None:
        """Load the chosen dataset and list its second-view bag generators."""
        with self.working(f"loading {self.dataset.value}"):
            data = self._problem().data
            self._clear_results()
            self.generator.options = data.generators
            self.generator.value = "sift" if "sift" in data.generators else data.generators[0]

    def run(self) -> None:
        """Fit the model (drawing its objective live), then score it and the baselines.

        Progress and Stop (in the background when a kernel runs it): one step per view's
        kernel, per iteration and per baseline. A failure or a Stop before the model is fitted
        puts back the last complete results (the live curve drawn over them included)."""
        previous, previous_text = self.model, self.accuracy.value
        with self.working(f"clustering {self.dataset.value}"):
            self.checked(self.seed)
            problem, y_partial = self._problem(), self._partial_labels()
            with self.working("computing the kernels (once per view)"):
                problem.kernels(self.generator.value, self.kernel.value, self.views.value,
                                progress=self.step)
            self.accuracy.value = CLUSTERING
            with self.working("running the multiplicative updates"):
                model = self._fit(problem, y_partial)
            self._clear_results(CLUSTERING)
            self.model = model
            self._show_model(problem.data.labels)
            with self.working("scoring the baselines"):
                self._show_baselines(problem, y_partial)
            self.mark_fresh()
            return
        if self.model is previous:
            self._show_previous(previous_text)

    def _show_previous(self, accuracy_text: str) -> None:
        """The last complete results again, over what a failed or stopped run drew."""
        self.accuracy.value = accuracy_text
        if self.curve_chart is not None:
            self.curve_view.show(self.curve_chart)
        else:
            self.curve_view.clear()

    def show_cell(self, true_class: int, cluster: int) -> None:
        """List the bags of class ``true_class`` that the model put in ``cluster``.

        Parameters
        ----------
        true_class : int
            A class (row of the confusion chart).
        cluster : int
            A cluster (its column).
        """
        with self.working(f"bags of class {true_class} in cluster {cluster}"):
            data = self._problem().data
            bags = np.flatnonzero((data.labels == true_class) & (self.model.labels_ == cluster))
            self.cell_bags = pd.DataFrame({
                "bag": bags, "bag id": np.asarray(data.first.bag_ids)[bags],
                "class": [data.class_names[c] for c in data.labels[bags]],
                "cluster": self.model.labels_[bags]}).set_index("bag")
            shown = f" (the first {CELL_ROWS} shown)" if len(bags) > CELL_ROWS else ""
            show_table(self.cell_output, self.cell_bags.head(CELL_ROWS),
                       caption=f"<b>{len(bags)} bag(s)</b> of class "
                       f"{html.escape(str(data.class_names[true_class]))} in cluster "
                       f"{cluster}{shown}:")

    def _on_cell_click(self, picked: list) -> None:
        if picked and self.model is not None:
            cluster = int(re.match(r"cluster (-?\d+)", picked[0]["cluster"]).group(1))
            self.show_cell(int(picked[0]["class"]), cluster)

    # -- steps -----------------------------------------------------------------------------------
    def _problem(self) -> experiment.ProblemCache:
        name = self.dataset.value
        if name not in self._problems:
            self._problems[name] = experiment.ProblemCache(experiment.load_problem(name),
                                                           experiment.Settings())
        return self._problems[name]

    def _partial_labels(self):
        labels = self._problem().data.labels
        if self.fraction.value == 0:
            return None
        return experiment.partial_labels(labels, self.fraction.value, self.seed.value)

    def _method(self, unsupervised: bool) -> str:
        number = 1 if self.kernel.value == "mixture" else 2
        return f"{'unKer' if unsupervised else 'Ker'}{number}"

    def _fit(self, problem, y_partial, unsupervised: bool | None = None, live: bool = True):
        if unsupervised is None:
            unsupervised = y_partial is None
        stage = f"{self._method(unsupervised)}: iterations"
        curve = _LiveCurve(self.curve_view if live else None,
                           lambda n_iter: self.step(n_iter, self.max_iter.value, stage))
        return experiment.fit_method(
            self._method(unsupervised), problem, self.generator.value, y_partial,
            experiment.Settings(), self.seed.value, views=self.views.value,
            alpha=self.alpha.value, beta=self.beta.value, max_iter=self.max_iter.value,
            callback=curve.add)

    def _show_model(self, labels) -> None:
        model = self.model
        self.accuracy_value = clustering_accuracy(labels, model.labels_)
        self.confusion = matched_confusion(labels, model.labels_)
        self.curve_chart = objective_curve_chart(
            model.objective_, f"{self._method(self.fraction.value == 0)}: objective "
            f"({model.n_iter_} iterations{', converged' if model.converged_ else ''})")
        self.confusion_chart = confusion_chart(self.confusion, "confusion after Hungarian "
                                               "matching (click a cell)", select="cell_pick")
        self.curve_view.show(self.curve_chart)
        self.confusion_view.show(self.confusion_chart)
        self.accuracy.value = (
            f"<b>ACC {self.accuracy_value:.1%}</b> — {html.escape(self._setting())}")

    def _show_baselines(self, problem, y_partial) -> None:
        scores = []
        methods = [method for method in BASELINES  # BAMIC-intH tunes alpha on labelled bags
                   if method != "BAMIC-intH" or y_partial is not None]
        for done, method in enumerate(methods):
            self.step(done, len(methods), "baselines")
            model = experiment.fit_method(method, problem, self.generator.value, y_partial,
                                          experiment.Settings(), self.seed.value,
                                          views=self.views.value)
            scores.append((method, clustering_accuracy(problem.data.labels, model.labels_)))
        if y_partial is not None:
            unsupervised = self._fit(problem, y_partial, unsupervised=True, live=False)
            scores.append((self._method(True), clustering_accuracy(problem.data.labels,
                                                                   unsupervised.labels_)))
        scores.append((self._method(y_partial is None) + " (this run)", self.accuracy_value))
        self.baseline_scores = pd.DataFrame(scores, columns=["method", "ACC"])
        show_objects(self.baselines, styled(self.baseline_scores).format({"ACC": "{:.1%}"})
                     .hide(axis="index"), widgets.HTML(BASELINES_LEGEND))

    def _clear_results(self, note: str = PRESS_RUN) -> None:
        """No results on screen; ``note`` in their place (what to do, or what is going on)."""
        self.model = self.accuracy_value = self.confusion = self.baseline_scores = None
        self.curve_chart = self.confusion_chart = self.cell_bags = None
        self.accuracy.value = note
        for output in (self.cell_output, self.baselines):
            clear_shown(output)
        for view in (self.curve_view, self.confusion_view):
            view.clear()
        self.mark_fresh()

    def _setting(self) -> str:
        labelled = (f"{self.fraction.value:.0%} labelled per class" if self.fraction.value
                    else "no labels (unKer)")
        return (f"{self.dataset.value}, first view + {self.generator.value} "
                f"({self.views.label}), {self.kernel.label}, α = {self.alpha.value:g}, "
                f"β = {self.beta.value:g}, {labelled}, seed {self.seed.value}")


class _LiveCurve:
    """Collects (iteration, objective) from the model's callback, reports each iteration
    to ``on_iteration`` (the panel's progress, whose Stop raises from it) and redraws the
    curve in the panel's live chart (when ``view`` is given), spaced by REDRAW_SECONDS and
    REDRAW_RATIO."""

    def __init__(self, view: LiveChart | None, on_iteration: Callable[[int], None]):
        self.view, self.on_iteration, self.values = view, on_iteration, []
        self.last_draw, self.pause = 0.0, REDRAW_SECONDS

    def add(self, n_iter: int, objective: float) -> None:
        self.on_iteration(n_iter)
        self.values.append(objective)
        if self.view is not None and time.perf_counter() - self.last_draw >= self.pause:
            started = time.perf_counter()
            self.view.show(objective_curve_chart(
                self.values, f"running: iteration {n_iter}, objective {objective:.6g}"))
            self.last_draw = time.perf_counter()
            self.pause = max(REDRAW_SECONDS, REDRAW_RATIO * (self.last_draw - started))
