"""`IntHPanel`: explore the integrated Hausdorff distance and its NCA-tuned alpha (intH).

d_intH = alpha d_minH + (1 - alpha) d_maxH, alpha maximising the NCA objective f(alpha)
(see ../../papers/intH.md). The panel computes a dataset's d_minH / d_maxH / d_aveH once
per (dataset, scaling) and keeps them, so changing the distance, classifier, K, sigma or
alpha only recombines and slices those matrices, never recomputing instance distances.

>>> from milab_widgets.widgets import IntHPanel
>>> panel = IntHPanel()          # doctest: +SKIP
>>> panel.k.value = 3            # doctest: +SKIP
>>> panel.run()                  # doctest: +SKIP
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from milab_widgets.charts import use_lab_charts
from milab_widgets.charts.bag_distances import distance_heatmap_chart, nca_curve_chart
from milab_widgets.data import list_datasets, load_dataset
from milab_widgets.evaluation.fixed_params import fold_accuracies, fold_summary, held_out_bag
from milab_widgets.evaluation.neighbors_cv import SIGMA_GRID
from milab_widgets.evaluation.splits import stratified_splits
from milab_widgets.experiments.inth import DistanceSource
from milab_widgets.mil import metric_distance, nca_alpha_curve, tune_alpha_nca
from milab_widgets.mil.neighbors import SCALINGS, make_bag_classifier
from milab_widgets.papers.inth import SPEC
from milab_widgets.widgets import recipes
from milab_widgets.widgets.as_code import AsCode
from milab_widgets.widgets.base import (
    Panel,
    clear_shown,
    dataset_choices,
    on_press,
    ranged_int,
    show_table,
)
from milab_widgets.widgets.entries import tell
from milab_widgets.widgets.live import LiveChart

__all__ = ["IntHPanel"]

#: The dropdowns' (label, value) pairs, from the paper's record ("minimal d_minH", "min").
DISTANCES = tuple((f"{SPEC.vocabulary['distance in words'][code]} d_{name}", code)
                  for code, name in SPEC.vocabulary["distance"].items())
CLASSIFIERS = tuple((name, code) for code, name in SPEC.vocabulary["classifier"].items())
ALPHA_MODES = (("NCA-tuned", "nca"), ("by hand", "hand"))
#: Points of the f(alpha) curve.
CURVE_ALPHAS = np.linspace(0.0, 1.0, 41)
#: Seed of the stratified cross-validation folds.
CV_SEED = 0
#: Most bags per axis of the panel's live heatmap (evenly spaced, class proportions kept).
HEATMAP_BAGS = 80
#: The chosen bag's view, as its stale note names it (it is redrawn on every bag choice).
BAG_VIEW = "The chosen bag's classification and votes"
ROLES_LEGEND = ("role: <i>reference</i> = one of the bag's nearest training bags; "
                "<i>citer</i> = a training bag that counts this bag among its nearest "
                "(Citation-KNN votes with both; KNN with references only).")

NOTE = (
    "<small>Click a cell of the heatmap to classify its row's bag (its references and "
    "citers are listed below); click the f(α) curve to set α by hand there. "
    "Exploratory view: 'standard' scaling is fitted on all instances of the dataset "
    "(the paper's experiments fit it on each training fold). The f(α) curve, the α shown "
    "on the slider in NCA mode and the heatmap use all bags; the cross-validated accuracy "
    "tunes α by NCA on each training fold; the chosen bag is classified by a model fitted "
    "on all other bags.</small>"
)


class IntHPanel(AsCode, Panel):
    """Integrated-Hausdorff explorer: CV accuracy, f(alpha), bag distances, one bag's votes.

    ``IntHPanel(dataset=None, run=True)`` starts on ``dataset`` (a registered MIL dataset
    name; default: the first available one), loads it and, with ``run=True``, runs the
    default setting once so that the panel opens with results.

    Controls (public ipywidgets, set ``.value`` from code or tests): ``dataset``,
    ``scaling``, ``distance``, ``classifier``, ``k`` (references / K), ``citers``, ``sigma``,
    ``alpha_mode`` ("nca" or "hand"), ``alpha``, ``folds``, ``run_button``, ``bag`` (index
    of the chosen bag in the dataset).

    Results (None until a successful :meth:`run`): ``fold_scores`` (per-fold accuracy),
    ``curve_chart``, ``heatmap_chart``, ``held_out`` (a
    :class:`~milab_widgets.evaluation.fixed_params.HeldOutBag`); shown in ``accuracy``,
    ``curve_output``, ``heatmap_output``, ``bag_output``. ``code()`` and ``save(folder)``:
    see :mod:`~milab_widgets.widgets.as_code`.

    Parameters
    ----------
    dataset : str, default=None
        A registered multi-instance dataset; None means the first available one.
    run : bool, default=True
        Run the default setting once, so that the panel opens with results.

    Attributes
    ----------
    fold_scores, curve_chart, heatmap_chart, held_out
        The results (None until a successful run), as listed above.

    See Also
    --------
    CitationKNN, BagKNN : the classifiers it cross-validates.
    tune_alpha_nca : the alpha it tunes.

    Examples
    --------
    >>> from milab_widgets.widgets import IntHPanel
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):   # outside Jupyter, displays print
    ...     panel = IntHPanel(dataset="musk1", run=False)
    >>> panel.dataset.value, panel.fold_scores is None
    ('musk1', True)
    """

    #: What holds the panel's shown results (``has_results``).
    result_attributes = ("fold_scores",)

    recipe = recipes.INTH

    def __init__(self, dataset: str | None = None, run: bool = True):
        use_lab_charts()
        self._distances: dict = {}
        self._build_controls(dataset)
        self._build_outputs()
        super().__init__(
            "integrated Hausdorff distance, NCA-tuned α, Citation-KNN and KNN",
            controls=self._control_rows(), outputs=self._output_rows(), paper="intH",
        )
        self._clear_results()
        self._wire()
        self.load()
        if run:
            self.run()

    # -- layout --------------------------------------------------------------------------------
    def _build_controls(self, dataset: str | None) -> None:
        options, first_available = dataset_choices(_choosable(list_datasets()))
        wide = {"description_width": "initial"}
        self.dataset = widgets.Dropdown(options=options, description="dataset",
                                        value=dataset or first_available)
        self.scaling = widgets.ToggleButtons(options=SCALINGS, description="scaling", style=wide)
        self.distance = widgets.Dropdown(options=DISTANCES, value="integrated",
                                         description="distance")
        self.classifier = widgets.ToggleButtons(options=CLASSIFIERS, description="classifier",
                                                style=wide)
        self.k = widgets.IntSlider(value=2, min=1, max=15, description="references",
                                   style=wide, continuous_update=False)
        self.citers = ranged_int("citers", 4, 1, 1000, style=wide, layout={"width": "150px"})
        self.sigma = widgets.SelectionSlider(options=[(f"{s:g}", s) for s in SIGMA_GRID],
                                             value=1, description="σ (NCA)", style=wide,
                                             continuous_update=False)
        self.alpha_mode = widgets.ToggleButtons(options=ALPHA_MODES, description="α",
                                                style=wide)
        self.alpha = widgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.01,
                                         readout_format=".3f", description="α value",
                                         disabled=True, style=wide, continuous_update=False)
        self.folds = ranged_int("CV folds", 10, 2, 20, style=wide, layout={"width": "150px"})
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play")
        self.bag = widgets.Dropdown(description="bag", options=[])

    def _control_rows(self) -> list:
        return [
            widgets.HBox([self.dataset, self.scaling]),
            widgets.HBox([self.distance, self.classifier]),
            widgets.HBox([self.k, self.citers]),
            widgets.HBox([self.sigma, self.alpha_mode, self.alpha]),
            widgets.HBox([self.folds, self.run_button, self.bag]),
            widgets.HTML(NOTE),
        ]

    def _build_outputs(self) -> None:
        self.accuracy = widgets.HTML()
        self.curve_view = LiveChart()
        self.heatmap_view = LiveChart()
        self.bag_result = widgets.HTML()
        self.bag_output = widgets.Output()

    def _output_rows(self) -> list:
        return [self.accuracy, widgets.HBox([self.curve_view, self.heatmap_view],
                                            layout=widgets.Layout(flex_flow="row wrap")),
                self.bag_result, self.bag_output]

    def _wire(self) -> None:
        self.dataset.observe(lambda _: self.load(), "value")
        self.classifier.observe(self._on_classifier, "value")
        self.k.observe(self._on_references, "value")
        self.alpha_mode.observe(self._on_alpha_mode, "value")
        on_press(self.run_button, self.run)
        self.bag.observe(self._on_bag, "value")
        self.heatmap_view.on_select("bag_pick", self._on_bag_click)
        self.curve_view.on_select("alpha_pick", self._on_alpha_click)
        self.stale_when_changed([self.scaling, self.distance, self.classifier, self.k,
                                 self.citers, self.sigma, self.alpha_mode, self.folds])
        self.alpha.observe(lambda _: self.alpha_mode.value == "hand" and self.mark_stale(),
                           "value")

    def _on_references(self, change) -> None:
        """Citers follow references (C = R + 2, the paper's setting), said beside the box
        (issue 33: it changed with no word)."""
        self.citers.value = change["new"] + 2
        tell(self.citers, f"set to {self.citers.value} = references + 2 (the paper's "
                          "setting); type another value to change it.")

    def _on_classifier(self, change) -> None:
        citation = change["new"] == "citation-knn"
        self.k.description = "references" if citation else "K"
        tell(self.k, "")  # a refusal note names the control by its old name
        self.citers.disabled = not citation

    def _on_alpha_mode(self, change) -> None:
        self.alpha.disabled = change["new"] == "nca"
        if change["new"] == "hand":
            self._show_alpha_value(True)

    def _on_bag(self, _change) -> None:
        if self.held_out is not None:  # only after a run; choosing a bag alone costs little
            self.show_bag()

    def _on_bag_click(self, picked: list) -> None:
        """A click on a heatmap cell: classify that cell's row bag."""
        if picked:
            self.bag.value = int(picked[0]["row_bag"])

    def _on_alpha_click(self, picked: list) -> None:
        """A click on the f(α) curve: set α by hand to the clicked point's α."""
        if picked:
            self.choose_alpha(float(picked[0]["alpha"]))

    # -- actions -------------------------------------------------------------------------------
    def load(self) -> None:
        """Load the chosen dataset (computing its bag distances once) and list its bags."""
        with self.working(f"loading {self.dataset.value}"):
            bags, _ = self._data()
            self._clear_results()
            self.bag.options = [
                (f"{bag_id} ({'positive' if label == 1 else 'negative'})", index)
                for index, (bag_id, label) in enumerate(zip(bags.bag_ids, bags.labels, strict=True))
            ]
            self.bag.value = 0

    def run(self) -> None:
        """Cross-validate the current setting, then draw f(alpha), the heatmap and the bag."""
        with self.working(f"running on {self.dataset.value}"):
            self._show_accuracy()
            self._show_alpha_views()
            self._show_held_out()
            self.mark_fresh()

    def choose_alpha(self, alpha: float) -> None:
        """Set alpha by hand and redraw f(alpha), the heatmap and the chosen bag with it.

        The cross-validated accuracy waits for Run.

        Parameters
        ----------
        alpha : float in [0, 1]
            The weight of d_minH.
        """
        with self.working(f"α = {alpha:.3f} by hand"):
            self.alpha_mode.value = "hand"
            self.alpha.value = alpha
            self._show_alpha_views()
            self._show_held_out()
            self.mark_fresh(BAG_VIEW)
            return
        if self.held_out is not None:  # reached only when it failed
            self.mark_kept(BAG_VIEW)

    def show_bag(self) -> None:
        """Classify the chosen bag with a model fitted on all other bags; list its voters.
        When that fails, the last bag shown stays, with a note saying so."""
        with self.working(f"classifying bag {self.bag.label}"):
            self._show_held_out()
            self.mark_fresh(BAG_VIEW)
            return
        if self.held_out is not None:  # reached only when it failed
            self.mark_kept(BAG_VIEW)

    # -- steps (run inside an action) -----------------------------------------------------------
    def _data(self):
        """(bags, {"min", "max", "average"} matrices) of the chosen dataset and scaling."""
        key = (self.dataset.value, self.scaling.value)
        if key not in self._distances:
            with self.working(f"loading {key[0]} and computing its bag distances "
                              "(a few seconds for large datasets)"):
                bags = load_dataset(key[0])
                all_bags = np.arange(len(bags))  # exploratory view: scaling fitted on all bags
                self._distances[key] = (bags, DistanceSource(bags, key[1])(all_bags))
        return self._distances[key]

    def _estimator(self, alpha: float | None):
        """The chosen classifier; ``alpha=None`` lets it tune alpha by NCA when it fits.

        The citers box is checked only for Citation-KNN: under KNN it is disabled (the user
        cannot correct it) and unused, so its value must not stop a run."""
        params = {"metric": self.distance.value, "sigma": self.sigma.value, "alpha": alpha}
        if self.classifier.value == "citation-knn":
            params["citers"] = self.checked(self.citers)
        return make_bag_classifier(self.classifier.value, self.k.value, **params)

    def _fixed_alpha(self) -> float | None:
        return self.alpha.value if self.alpha_mode.value == "hand" else None

    def _show_accuracy(self) -> None:
        bags, matrices = self._data()
        with self.working(f"{self.folds.value}-fold cross-validation"):
            splits = stratified_splits(bags.labels, self.checked(self.folds), CV_SEED)
            scores = fold_accuracies(self._estimator(self._fixed_alpha()), matrices,
                                     bags.labels, splits)
        self.fold_scores = scores
        mean, std = fold_summary(scores)
        self.accuracy.value = (
            f"<b>{mean:.1%} ± {std:.1%}</b> accuracy "
            f"({len(scores)}-fold stratified CV, seed {CV_SEED}; mean ± std over folds): "
            f"{html.escape(self._setting())}"
        )

    def _show_alpha_views(self) -> None:
        bags, matrices = self._data()
        d_min, d_max, y, sigma = matrices["min"], matrices["max"], bags.labels, self.sigma.value
        with self.working("computing f(α)"):
            if self.alpha_mode.value == "nca":
                alpha, value = tune_alpha_nca(d_min, d_max, y, sigma)
                self.alpha.value = alpha
                self._show_alpha_value(True)
            else:
                alpha = self.alpha.value
                value = nca_alpha_curve(d_min, d_max, y, sigma, [alpha])[0]
            curve = nca_alpha_curve(d_min, d_max, y, sigma, CURVE_ALPHAS)
        label = "NCA-tuned α" if self.alpha_mode.value == "nca" else "α by hand"
        self.curve_chart = nca_curve_chart(CURVE_ALPHAS, curve, alpha, value, sigma,
                                           chosen_label=label, select="alpha_pick").properties(
            width=330, height=260)
        metric_matrix = metric_distance(matrices, self.distance.value, alpha=alpha, labels=y)
        self.heatmap_chart = distance_heatmap_chart(metric_matrix, y, self._heatmap_title(alpha),
                                                    HEATMAP_BAGS, select="bag_pick", size=300,
                                                    bag_ids=bags.bag_ids)
        self.curve_view.show(self.curve_chart)
        self.heatmap_view.show(self.heatmap_chart)

    def _show_held_out(self) -> None:
        bags, matrices = self._data()
        held_out = held_out_bag(self._estimator(self._fixed_alpha()), matrices, bags.labels,
                                self.bag.value)
        self.held_out = held_out
        verdict = "right" if held_out.correct else "wrong"
        colour = "#007a33" if held_out.correct else "#b00020"
        self.bag_result.value = (
            f"Bag {html.escape(str(bags.bag_ids[held_out.bag]))} (label {held_out.label}), "
            f"classified by a model fitted on the other {len(bags) - 1} bags: predicted "
            f'{held_out.prediction}, <b style="color:{colour}">{verdict}</b>.'
        )
        table = held_out.neighbours.assign(bag_id=bags.bag_ids[held_out.neighbours["bag"]])
        self.bag_table = table[["bag_id", "label", "distance", "role"]].set_index("bag_id")
        show_table(self.bag_output, self.bag_table, legend=ROLES_LEGEND)

    # -- helpers -------------------------------------------------------------------------------
    def _clear_results(self) -> None:
        self.fold_scores = self.curve_chart = self.heatmap_chart = self.held_out = None
        self.accuracy.value = "Press <b>Run</b> to cross-validate the current setting."
        self.bag_result.value = ""
        clear_shown(self.bag_output)
        for view in (self.curve_view, self.heatmap_view):
            view.clear()
        self.mark_fresh()
        if self.alpha_mode.value == "nca":  # the tuned α shown belonged to the old results
            self._show_alpha_value(False)

    def _show_alpha_value(self, shown: bool) -> None:
        """Show the α slider's value, or hide it while it is not the tuned α of the results
        shown (NCA mode before Run)."""
        self.alpha.description = "α value" if shown else "α (tuned by Run)"
        self.alpha.entry.layout.visibility = "visible" if shown else "hidden"

    def _setting(self) -> str:
        citers = f", C = {self.citers.value}" if self.classifier.value == "citation-knn" else ""
        setting = (f"{self.classifier.label} + {self.distance.label}, {self.dataset.value}, "
                   f"scaling {self.scaling.value}, {self.k.description} = {self.k.value}{citers}")
        if self.distance.value != "integrated":
            return setting
        if self._fixed_alpha() is None:
            return f"{setting}, NCA-tuned α (σ = {self.sigma.value:g})"
        return f"{setting}, α = {self.alpha.value:.3f} by hand"

    def _heatmap_title(self, alpha: float) -> str:
        extra = f" (α = {alpha:.3f})" if self.distance.value == "integrated" else ""
        return f"{self.distance.label}{extra}, {self.dataset.value}"


def _choosable(table):
    """The datasets this panel can show (every one is listed, available or not)."""
    return table[table["kind"] == "mil"]
