"""`CDVSEPanel`: a 2-D playground for SVDD and the CDVSE selective ensemble (CDVSE).

The playground tab fits a single SVDD and CDVSE on a 2-D set (Sine_noise as §4.1 states it
or as a band of normal points, Square_noise, or a UCI set projected on two principal
components) whenever a slider moves: zeta, C, M,
sigma, lambda, gamma (l1). It draws both decision boundaries, CDVSE's weight per base SVDD
(kept or dropped at 1/M), the objective over the half-quadratic steps, and the test
g-means. Clicking a sample in the CDVSE plot lists its distance to each kept sphere. The
UCI tab runs the paper's protocol (quick grids) on one UCI set and shows its
row of Tables 2-4 beside the paper's numbers.

>>> from milab_widgets.widgets import CDVSEPanel
>>> panel = CDVSEPanel()         # doctest: +SKIP
>>> panel.zeta.value = 1.0       # refits and redraws  # doctest: +SKIP
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np
import pandas as pd

from milab_widgets.charts import use_lab_charts
from milab_widgets.charts.cdvse import boundary_chart, objective_chart, weights_chart
from milab_widgets.data import list_datasets
from milab_widgets.exceptions import DatasetUnavailableError
from milab_widgets.experiments import cdvse
from milab_widgets.widgets import recipes
from milab_widgets.widgets.as_code import AsCode
from milab_widgets.widgets.base import (
    Panel,
    clear_shown,
    dataset_choices,
    on_press,
    ranged_int,
    show_objects,
    show_table,
    styled,
)
from milab_widgets.widgets.live import LiveChart

__all__ = ["CDVSEPanel"]

SYNTHETIC_CHOICES = [("Sine_noise (§4.1 text)", "sine_noise"),
                     ("Sine_noise (our band)", cdvse.BAND_SINE),
                     ("Square_noise (synthetic)", "square_noise")]
CLICK_HINT = ("<small>Click a sample in the CDVSE plot to see its distance to each kept "
              "sphere.</small>")
LOG_SLIDER = {"continuous_update": False, "readout_format": ".3g", "base": 10,
              "style": {"description_width": "initial"}}
#: The playground's result area, as its stale note names it.
PLAYGROUND = "The plots of the 2-D playground"
UCI_ACTION = "Run protocol"
#: The UCI table's result area, as its stale note names it after a failed run.
UCI_VIEW = "The UCI tables"
#: Table 2's columns (experiments.cdvse.parameter_table) as the panel titles them.
PARAMETER_TITLES = {"dataset": "dataset", "C": "C", "nu": "ν", "zeta": "ζ", "sigma": "σ",
                    "lam": "λ", "gamma_l1": "γ", "kept": "SVDDs kept", "paper_nu": "paper ν", "paper_zeta": "paper ζ",
                    "paper_sigma": "paper σ", "paper_kept": "paper SVDDs kept"}
PARAMETERS_LEGEND = ("C, ζ, σ, λ, γ: the values the repetitions selected most often (ties: "
                     "the smaller; the paper prints no λ or γ); ν = 1 / (C n_train), the paper's \"C\" read as ν; SVDDs kept: "
                     "CDVSE's kept base SVDDs, mean ± std over the repetitions.")


class CDVSEPanel(AsCode, Panel):
    """SVDD vs CDVSE playground plus a UCI table view.

    ``CDVSEPanel(dataset="sine_noise", update=True)``; with ``update=True`` it fits and
    draws the default setting (§4.1's) at once.

    Controls (public ipywidgets): ``dataset``, ``zeta``, ``C``, ``M``, ``sigma``, ``lam``,
    ``gamma_l1``, ``seed``; UCI tab: ``uci_dataset``, ``repetitions``, ``uci_button``.
    Results: ``result`` (a :class:`~milab_widgets.experiments.cdvse.Playground`),
    ``boundary``, ``weights``, ``objective`` (Altair charts), ``uci_table`` (DataFrame);
    after a click, ``sample_point`` (x, y) and ``sample_distances``. ``code()`` and
    ``save(folder)``: see :mod:`~milab_widgets.widgets.as_code`.

    Parameters
    ----------
    dataset : str, default="sine_noise"
        "sine_noise" (as §4.1 states it), "sine_noise_band" (Sine_noise as a band of
        normal points, our reading), "square_noise" or a registered one-class dataset.
    update : bool, default=True
        Fit and draw the default setting at once.

    Attributes
    ----------
    result, boundary, weights, objective, uci_table
        The results, as listed above.

    See Also
    --------
    CDVSESVDD, BaggingSVDD, SVDD : the models it fits.

    Examples
    --------
    >>> from milab_widgets.widgets import CDVSEPanel
    >>> panel = CDVSEPanel(update=False)
    >>> panel.dataset.value, panel.status.value
    ('sine_noise', 'ready')
    """

    #: What holds the panel's shown results (``has_results``).
    result_attributes = ("result",)

    recipe = recipes.CDVSE

    def __init__(self, dataset: str = "sine_noise", update: bool = True):
        use_lab_charts()
        self.result = self.boundary = self.weights = self.objective = self.uci_table = None
        self.sample_point = self.sample_distances = None
        self._build_controls(dataset)
        self._build_outputs()
        playground, uci = self._playground_box(), self._uci_box()
        tabs = widgets.Tab([playground, uci])
        tabs.set_title(0, "2-D playground")
        tabs.set_title(1, "UCI table")
        super().__init__("selective ensemble of SVDDs (correntropy + distance variance)",
                         controls=[tabs], paper="CDVSE")
        # each sub-tab is a view with its own status line, stale note and error
        self.uci = self.add_view("UCI table", uci, lambda: self.uci_table is not None)
        self.children = (self.header, self.controls, self.outputs)
        playground.children = (*self.status_area.parts(), *playground.children)
        uci.children = (*self.uci.parts(), *uci.children)
        for control in (self.dataset, self.zeta, self.C, self.M, self.sigma, self.lam,
                        self.gamma_l1, self.seed):
            control.observe(lambda _: self.update(), "value")
        on_press(self.uci_button, self.run_uci, self.uci)
        self.boundary_view.on_select("sample_pick", self._on_sample_click)
        self.stale_when_changed([self.repetitions], UCI_ACTION, self.uci)
        self.uci_dataset.observe(lambda _: self._clear_uci(), "value")
        if update:
            self.update()

    def _build_controls(self, dataset: str) -> None:
        table = list_datasets()
        oneclass = table[table["kind"] == "oneclass"]
        uci = oneclass[oneclass["available"]]["name"].tolist()
        self.dataset = widgets.Dropdown(
            options=SYNTHETIC_CHOICES + [(f"{name} (PCA 2-D)", name) for name in uci],
            value=dataset, description="data")
        p = cdvse.SYNTHETIC_SETTING
        self.zeta = widgets.FloatLogSlider(value=p["zeta"], min=-2, max=1.5,
                                           description="ζ (kernel)", **LOG_SLIDER)
        self.C = widgets.FloatLogSlider(value=p["C"], min=-2, max=0, description="C", **LOG_SLIDER)
        self.M = widgets.IntSlider(value=p["n_estimators"], min=2, max=60, description="M",
                                   continuous_update=False)
        self.sigma = widgets.FloatLogSlider(value=p["sigma"], min=-2, max=1, description="σ",
                                            **LOG_SLIDER)
        self.lam = widgets.FloatLogSlider(value=p["lam"], min=-4, max=1, description="λ",
                                          **LOG_SLIDER)
        self.gamma_l1 = widgets.FloatLogSlider(value=p["gamma_l1"], min=-4, max=2,
                                               description="γ (ℓ1)", **LOG_SLIDER)
        self.seed = ranged_int("seed", 0, 0, 10**6, layout={"width": "160px"})
        options, default = dataset_choices(oneclass)
        self.uci_dataset = widgets.Dropdown(options=options, value=default, description="dataset")
        # at least 2: the table shows mean ± std over the repetitions (one has no std)
        self.repetitions = ranged_int("repetitions", 2, 2, 20, layout={"width": "200px"},
                                      style={"description_width": "initial"})
        self.uci_button = widgets.Button(description="Run protocol", button_style="primary",
                                         icon="play")

    def _build_outputs(self) -> None:
        self.scores = widgets.HTML()
        self.boundary_view = LiveChart()
        self.sample_info = widgets.HTML(CLICK_HINT)
        self.sample_output = widgets.Output()
        self.weights_view = LiveChart()
        self.objective_view = LiveChart()
        self.uci_output = widgets.Output()

    def _playground_box(self) -> widgets.VBox:
        return widgets.VBox([
            widgets.HBox([self.dataset, self.seed]),
            widgets.HBox([self.zeta, self.C, self.M]),
            widgets.HBox([self.sigma, self.lam, self.gamma_l1]),
            self.scores, self.boundary_view, self.sample_info, self.sample_output,
            widgets.HBox([self.weights_view, self.objective_view],
                         layout=widgets.Layout(flex_flow="row wrap")),
        ])

    def _uci_box(self) -> widgets.VBox:
        note = widgets.HTML("<small>Quick protocol: 3-fold selection on small grids, M = 20; "
                            "g-mean as mean ± std over 2 to 20 repetitions; the notebook runs "
                            "the paper's full protocol.</small>")
        return widgets.VBox([widgets.HBox([self.uci_dataset, self.repetitions,
                                           self.uci_button]), note, self.uci_output])

    # -- actions -------------------------------------------------------------------------------
    def update(self) -> None:
        """Refit SVDD and CDVSE with the current sliders and redraw everything.

        When the refit fails, the plots of the last setting that worked stay, with a note
        saying so (:meth:`~milab_widgets.widgets.base.Panel.mark_kept`)."""
        with self.working(f"fitting on {self.dataset.value}"):
            seed = self.checked(self.seed)
            data = cdvse.playground_data(self.dataset.value, seed)
            result = cdvse.playground(data, self.C.value, self.zeta.value, self.M.value,
                                      self.sigma.value, self.lam.value, self.gamma_l1.value,
                                      seed=seed)
            charts = (boundary_chart(result.boundaries, result.points, result.scores, data.name,
                                     select="sample_pick", size=230),
                      weights_chart(result.weights, result.selected),
                      objective_chart(result.objective))
            # Kept only now: a failure above leaves the last good result and its plots together.
            self.result = result
            self.boundary, self.weights, self.objective = charts
            self.scores.value = self._score_text()
            self.sample_distances = None
            self.sample_info.value = CLICK_HINT
            clear_shown(self.sample_output)
            self.boundary_view.show(self.boundary)
            self.weights_view.show(self.weights)
            self.objective_view.show(self.objective)
            self.mark_fresh(PLAYGROUND)
            return
        if self.result is not None:  # reached only when the refit failed
            self.mark_kept(PLAYGROUND)

    def show_sample(self, x: float, y: float) -> None:
        """List a sample's distance to each kept sphere and CDVSE's decision for it.

        Shows d_k(x) = ||phi(x) - a_k|| to each kept sphere k beside its radius r_k and weight
        w_k (the paper's eq. 15), and the decision sum_k w_k (r_k - d_k(x)) (>= 0: normal).

        Parameters
        ----------
        x, y : float
            The sample's coordinates (a click in the boundary chart).
        """
        with self.working(f"distances of ({x:.3f}, {y:.3f}) to the kept spheres"):
            ensemble = self.result.ensemble
            point = np.array([[x, y]])
            kept = ensemble.selected_
            distances = ensemble.kept_spheres_.distances(point)[0]
            self.sample_distances = pd.DataFrame({
                "base SVDD": kept, "weight w_k": ensemble.weights_[kept],
                "radius r_k": ensemble.kept_spheres_.radii, "distance d_k(x)": distances,
                "inside": ensemble.kept_spheres_.inside(point)[0]}).set_index("base SVDD")
            self.sample_point = (x, y)
            decision = float(ensemble.decision_function(point)[0])
            verdict = "normal" if decision >= 0 else "outlier"
            self.sample_info.value = (
                f"Sample ({x:.3f}, {y:.3f}): CDVSE decision Σ w_k (r_k − d_k) = "
                f"<b>{decision:.4f}</b> → <b>{verdict}</b>; inside "
                f"{int(self.sample_distances['inside'].sum())} of {len(kept)} kept spheres.")
            show_table(self.sample_output, self.sample_distances)

    def _on_sample_click(self, picked: list) -> None:
        if picked and self.result is not None:
            self.show_sample(float(picked[0]["x"]), float(picked[0]["y"]))

    def run_uci(self) -> None:
        """The paper's protocol (quick grids) on the chosen UCI set, beside the paper's row.
        Reported in the UCI tab's own status line and bar (one step per grid task: a
        repetition's parameter grid, its timings, ...); a failure or a Stop keeps the last
        table under a note saying so."""
        name = self.uci_dataset.value
        with self.uci.working(f"protocol on {name} ({self.repetitions.value} repetitions)"):
            results = cdvse.run([name], quick=True, repetitions=self.uci.checked(self.repetitions),
                                synthetic=False, progress=self.uci.step)
            self._show_uci(name, results)
            self.uci.mark_fresh()
            return
        if self.uci_table is not None and self.uci.last_error is not None:  # it failed (a
            self.uci.mark_kept(UCI_VIEW)  # Stop says so in the status line, as no error)

    def _clear_uci(self) -> None:
        """A switch of the UCI set clears its tables at once: one set's numbers never stay
        under another's name (docs/lab.md, "Stale note")."""
        self.uci_table = self.parameters = None
        clear_shown(self.uci_output)
        self.uci.mark_fresh()
        self.uci.clear_error_about(self.uci_dataset.value)

    def _show_uci(self, name: str, results) -> None:
        """Tables 2 and 4 of one protocol run; an unavailable ``name`` is an error (shown
        in the panel, the previous table kept)."""
        if name in results.skipped:
            raise DatasetUnavailableError(f"{name} is unavailable: {results.skipped[name]}")
        self.uci_table = cdvse.score_table(results.summary, "test")
        self.parameters = parameter_display(cdvse.parameter_table(results.runs))
        repetitions = results.runs["repetition"].nunique()
        show_objects(self.uci_output,
                     widgets.HTML(f"<b>Test g-mean (%)</b> on {html.escape(name)}: ours, mean "
                                  f"± std over {repetitions} repetitions (quick grids), beside "
                                  "the paper's"),
                     styled(self.uci_table, 2),
                     widgets.HTML("<b>Selected parameters (Table 2)</b>"),
                     styled(self.parameters, 3).hide(axis="index"),
                     widgets.HTML(f"<small>{PARAMETERS_LEGEND}</small>"))

    def _score_text(self) -> str:
        score = self.result.scores.set_index("method")
        return (f"Test g-mean: SVDD <b>{score.loc['svdd', 'g_mean']:.3f}</b>, CDVSE "
                f"<b>{score.loc['cdvse', 'g_mean']:.3f}</b> with "
                f"{len(self.result.selected)} of {self.M.value} SVDDs kept "
                f"({html.escape(self.dataset.label)}; training = 70 % of the normal samples).")


def parameter_display(table: pd.DataFrame) -> pd.DataFrame:
    """Table 2 as the panel shows it: titled columns, no row index, the kept SVDDs as one
    "mean ± std" cell, and numbers as written (10, 0.05: no trailing zeros)."""
    shown = table.assign(kept=[f"{mean:.1f} ± {std:.1f}" if std == std else f"{mean:.1f}"
                               for mean, std in zip(table["kept_mean"], table["kept_std"],
                                                    strict=True)])
    shown = shown[[name for name in PARAMETER_TITLES if name in shown]]
    numbers = shown.select_dtypes("number").columns
    shown = shown.astype({name: object for name in numbers})
    for name in numbers:
        shown[name] = [f"{value:g}" if value == value else "—" for value in table[name]]
    return shown.rename(columns=PARAMETER_TITLES)
