"""`LSkMDDMPanel`: explore kernel MDDM and its least-squares forms (LSkMDDM).

Pick a multi-label dataset, a method (KPCA, KCCA, kMDDM, LSkMDDM, rLSkMDDM, OLSkMDDM), eta
and the embedding dimension; the panel fits the method on a random training part, shows the
held-out points in the first two embedding coordinates coloured by a chosen label, the seven
metrics of ML-kNN (k = 10) on the embedding, and the fit time and accuracy of every kernel
MDDM solver on the same data. Numerics live in :mod:`milab_widgets.experiments.lskmddm`.

>>> from milab_widgets.widgets import LSkMDDMPanel
>>> panel = LSkMDDMPanel()       # doctest: +SKIP
>>> panel.method.value = "rLSkMDDM"; panel.run()   # doctest: +SKIP
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np
import pandas as pd

from milab_widgets.charts import use_lab_charts
from milab_widgets.charts.lskmddm import embedding_chart
from milab_widgets.data import list_datasets, load_dataset
from milab_widgets.evaluation.label_statistics import label_statistics
from milab_widgets.experiments.lskmddm import (
    SEED_METRICS,
    TIMING_SOLVERS,
    embed,
    embedding_dimension,
    evaluate_embedding,
    held_out_partition,
    split_labels,
    time_solvers,
    varying_labels,
)
from milab_widgets.widgets import recipes
from milab_widgets.widgets.as_code import AsCode
from milab_widgets.widgets.base import (
    Panel,
    clear_shown,
    dataset_choices,
    on_press,
    show_objects,
    show_table,
)
from milab_widgets.widgets.entries import tell
from milab_widgets.widgets.live import LiveChart

__all__ = ["LSkMDDMPanel"]

PANEL_METHODS = ("KPCA", "KCCA", "kMDDM", "LSkMDDM", "rLSkMDDM", "OLSkMDDM")
#: Solvers timed by the panel: Fig. 4's but the Nystrom operator, LOBPCG (not the paper's)
#: and kMDDM-ifp. Unpreconditioned, kMDDM-ifp needs hundreds of iterations at the panel's
#: sizes (Fig. 4 times it to convergence), and Stop acts between solvers: with it the lab
#: tour's "Stop after its first solver" took over 5 s.
PANEL_SOLVERS = {name: spec for name, spec in TIMING_SOLVERS.items()
                 if "Nystrom" not in name and spec[0]["solver"] not in ("lobpcg", "ifp")}
SPLIT_SEED = 0
#: Most rows held out of training (the rest of the dataset when smaller).
HELD_OUT = 1000
#: The scatter's fields (as the brush reports them) and the embedding columns they show.
SCATTER_FIELDS = (("coordinate 1", 0), ("coordinate 2", 1))
BRUSH_LEGEND = ("share inside = fraction of the brushed rows with the label; share of all "
                "rows = fraction of all held-out rows with it; lift = share inside / share of "
                "all rows (above 1: the label is over-represented in the brushed region).")
#: Added to the legend when some label never occurs among the held-out rows.
ABSENT_LEGEND = (" Lift — : the label never occurs among the {} held-out rows (share of all "
                 "rows 0), so the ratio is undefined.")
#: What the panel shows where the scatter and metrics go until Run.
PRESS_RUN = ("Press <b>Run</b> to embed the held-out rows with the chosen method and score "
             "ML-kNN on them (the scatter and the metrics appear here).")
METRICS_LEGEND = ("macroAUC = macro-averaged area under the ROC curve ↑, macroF1 / microF1 = "
                  "macro- / micro-averaged F1 ↑, RL = ranking loss ↓, OE = one-error ↓, "
                  "CV = coverage ↓, AP = average precision ↑ (↑ higher is better, ↓ lower).")


class LSkMDDMPanel(AsCode, Panel):
    """Kernel MDDM explorer: 2-D embedding, seven metrics, solver times.

    ``LSkMDDMPanel(dataset=None, n_train=800, run=True)``: ``n_train`` training rows are
    drawn at random (the rest, up to 1000, are held out) so that every action takes seconds.

    Controls: ``dataset``, ``method``, ``eta`` (rLSkMDDM and KCCA), ``dimension``, ``label``
    (colour of the scatter), ``run_button``, ``time_button``. Results: ``scores`` (dict of
    metrics), ``embedding`` (held-out embedding), ``solver_times`` (DataFrame), shown in
    ``metrics_output``, ``scatter_view`` (a live chart: brushing it fills
    ``selection_stats``, the label statistics of the brushed rows computed by
    :func:`~milab_widgets.evaluation.label_statistics.label_statistics`, most frequent
    first, in ``selection_output``) and ``times_output``. Switching the dataset clears every
    result at once. ``metrics_table`` is the metrics table shown; ``code()`` and
    ``save(folder)``: see :mod:`~milab_widgets.widgets.as_code`.

    Parameters
    ----------
    dataset : str, default=None
        A registered multi-label dataset; None means the first available.
    n_train : int, default=800
        Training rows drawn at random (the rest, up to 1000, are held out).
    run : bool, default=True
        Run once at construction.

    Attributes
    ----------
    scores, embedding, solver_times, metrics_table, selection_stats
        The results, as listed above.

    See Also
    --------
    KernelMDDM : the embeddings it compares.
    MLkNN : the classifier that scores them.

    Examples
    --------
    >>> from milab_widgets.widgets import LSkMDDMPanel
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):   # outside Jupyter, displays print
    ...     panel = LSkMDDMPanel(run=False)
    >>> panel.scores is None
    True
    """

    #: What holds the panel's shown results (``has_results``).
    result_attributes = ("scores", "solver_times")

    recipe = recipes.LSKMDDM

    def __init__(self, dataset: str | None = None, n_train: int = 800, run: bool = True):
        use_lab_charts()
        self.n_train = n_train
        self._data = None
        self._label_names: list[str] = []
        wide = {"description_width": "initial"}
        options, first = dataset_choices(_choosable(list_datasets()), preferred=("scene",))
        self.dataset = widgets.Dropdown(options=options, value=dataset or first,
                                        description="dataset")
        self.method = widgets.Dropdown(options=PANEL_METHODS, value="rLSkMDDM",
                                       description="method")
        self.eta = widgets.FloatLogSlider(value=1.0, base=10, min=-3, max=2, step=0.25,
                                          description="η (ridge)", style=wide,
                                          continuous_update=False)
        self.dimension = widgets.IntSlider(value=2, min=2, max=2, description="dimension",
                                           style=wide, continuous_update=False)
        self.label = widgets.Dropdown(description="colour by", style=wide)
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play")
        self.time_button = widgets.Button(description="Time solvers", icon="clock-o")
        self.scatter_view = LiveChart()
        self.metrics_output, self.times_output = widgets.Output(), widgets.Output()
        self.selection_output = widgets.Output()
        self.note = widgets.HTML()
        super().__init__(
            "kernel MDDM as least squares (LSkMDDM, rLSkMDDM, OLSkMDDM)",
            controls=[widgets.HBox([self.dataset, self.method]),
                      widgets.HBox([self.eta, self.dimension, self.label]),
                      widgets.HBox([self.run_button, self.time_button]), self.note],
            outputs=[widgets.HBox([self.scatter_view, self.metrics_output],
                                  layout=widgets.Layout(flex_flow="row wrap")),
                     self.selection_output, self.times_output],
            paper="LSkMDDM",
        )
        self._clear()
        self.dataset.observe(lambda _: self.load(), "value")
        on_press(self.run_button, self.run)
        on_press(self.time_button, self.time, self.status_area)
        self.label.observe(lambda _: self._recolour(), "value")
        self.scatter_view.on_select("brush", self._on_brush)
        self.stale_when_changed([self.method, self.eta, self.dimension])
        self.load()
        if run:
            self.run()

    def load(self) -> None:
        """Clear the previous dataset's results, load the dataset, draw the training /
        held-out split, list its labels."""
        switched = self._data is not None
        self._clear()
        with self.working(f"loading {self.dataset.value}"):
            data = load_dataset(self.dataset.value)
            train, test = held_out_partition(len(data), self.n_train, HELD_OUT, SPLIT_SEED)
            self._data = (*split_labels(data, train, test), data)
            kept = varying_labels(data.Y[train])
            self._label_names = [name for name, keep in zip(data.label_names, kept, strict=True)
                                 if keep]
            self.label.options = [(name, j) for j, name in enumerate(self._label_names)]
            self.label.value = 0
            self._set_dimension(embedding_dimension(self._data[1]), switched)
            self.note.value = (f"<small>{len(train)} random training rows, {len(test)} held out "
                               f"(seed {SPLIT_SEED}); {self._data[4]} label(s) constant on the "
                               "training rows dropped. Brush the scatter to see the labels of "
                               "the rows inside.</small>")
            self.mark_fresh()

    def _set_dimension(self, rank: int, switched: bool) -> None:
        """Let the dimension go up to the dataset's largest useful one and set it there;
        after a dataset switch, say so beside the slider when that changes the value."""
        before = self.dimension.value
        self.dimension.max = max(2, rank)
        self.dimension.value = self.dimension.max
        if switched and self.dimension.value != before:
            name = html.escape(self.dataset.value)
            tell(self.dimension, f"set to {self.dimension.value} for {name}: the rank of its "
                                 "centred training labels, kernel MDDM's largest useful "
                                 f"dimension (was {before}).")

    def run(self) -> None:
        """Fit the chosen method, embed the held-out rows, evaluate ML-kNN on them."""
        with self.working(f"{self.method.value} on {self.dataset.value}"):
            X_train, Y_train, X_test, Y_test, _, _ = self._loaded()
            size = self.dimension.value
            embed_train, embed_test = embed(self.method.value, X_train, Y_train, X_test,
                                            self.eta.value, dimension=size)
            self.scores = evaluate_embedding(embed_train, embed_test, Y_train, Y_test)
            self.embedding = embed_test
            table = pd.DataFrame({"metric": list(SEED_METRICS),
                                  "value": [self.scores[m] for m in SEED_METRICS]})
            self.metrics_table = table.set_index("metric")
            show_table(self.metrics_output, self.metrics_table,
                       caption=f"<b>{html.escape(self.method.value)}</b>, dimension {size}, "
                       "ML-kNN (k = 10) on the held-out rows:", legend=METRICS_LEGEND)
            self.selection_stats = None
            clear_shown(self.selection_output)
            self._redraw()
            self.mark_fresh()

    def time(self) -> None:
        """Fit time, iterations and accuracy of every kernel MDDM solver on this data (one
        progress step per solver; Stop keeps the last table)."""
        with self.working("timing every solver"):
            X_train, Y_train, X_test, _, _, _ = self._loaded()
            rows = time_solvers(X_train, Y_train, X_test, PANEL_SOLVERS, progress=self.step)
            self.solver_times = pd.DataFrame(rows)
            table = self.solver_times[["solver", "seconds", "iterations", "converged", "angle"]]
            show_table(self.times_output, table.astype({"iterations": "Int64"}).set_index("solver"),
                       caption="Fit time of each solver; <i>angle</i> = largest principal angle "
                       "(rad) of its held-out embedding to the exact solution of its problem:",
                       legend="iterations: — for the direct solvers (no iterations).")

    def brushed(self, ranges: dict) -> np.ndarray:
        """Mask of the held-out rows inside the brushed ranges.

        Parameters
        ----------
        ranges : dict
            {"coordinate 1": [low, high], "coordinate 2": [low, high]}; a missing field does not
            restrict.

        Returns
        -------
        ndarray of bool
            One value per held-out row.
        """
        inside = np.ones(len(self.embedding), dtype=bool)
        for field, column in SCATTER_FIELDS:
            if field in ranges:
                low, high = sorted(ranges[field])
                inside &= (self.embedding[:, column] >= low) & (self.embedding[:, column] <= high)
        return inside

    def _on_brush(self, ranges: dict) -> None:
        if self.embedding is None:
            return
        with self.working("label statistics of the brushed rows"):
            self.selection_stats = None
            clear_shown(self.selection_output)
            if ranges:
                inside = self.brushed(ranges)
                stats = label_statistics(self._data[3], inside, self._label_names)
                self.selection_stats = stats.sort_values("rows inside", ascending=False,
                                                         kind="stable")
                self._show_selection(inside)

    def _show_selection(self, inside: np.ndarray) -> None:
        caption = f"<b>{int(inside.sum())} of {len(inside)} held-out rows brushed</b>"
        if not inside.any():
            show_objects(self.selection_output, widgets.HTML(
                f"{caption}: no point inside the brush, so no share or lift to show; "
                "drag over some points."))
            return
        absent = int(self.selection_stats["lift"].isna().sum())
        show_table(self.selection_output, self.selection_stats,
                   caption=f"{caption}; their labels, most frequent first:",
                   legend=BRUSH_LEGEND + (ABSENT_LEGEND.format(len(inside)) if absent else ""))

    def _clear(self) -> None:
        """No results: nothing of a previous dataset stays on screen under a new name."""
        self.scores = self.embedding = self.solver_times = self.selection_stats = None
        self.scatter_view.clear()
        for output in (self.metrics_output, self.times_output, self.selection_output):
            clear_shown(output)
        show_objects(self.metrics_output, widgets.HTML(PRESS_RUN))
        self.mark_fresh()

    def _loaded(self) -> tuple:
        """The split of the chosen dataset; loads it again if its last load failed (so a
        missing dataset is reported as such, and never replaced by the previous one)."""
        if self._data is None or self._data[-1].name != self.dataset.value:
            self.load()
        return self._data

    def _recolour(self) -> None:
        """Redraw the scatter in the chosen label's colours; the new chart has no brush, so
        the brushed rows' table goes with the old one."""
        self.selection_stats = None
        clear_shown(self.selection_output)
        self._redraw()

    def _redraw(self) -> None:
        if self.embedding is None or self.embedding.shape[1] < 2:
            return
        chart = embedding_chart(self.embedding, self._data[3][:, self.label.value],
                                self.label.label, self.method.value, select="brush")
        self.scatter_view.show(chart)


def _choosable(table):
    """The datasets this panel can show (every one is listed, available or not)."""
    return table[table["kind"] == "multilabel"]
