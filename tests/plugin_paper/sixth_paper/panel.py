"""The fixture paper's panel: the folds slider reruns the experiment and shows its table."""

import ipywidgets as widgets

from milab_widgets.widgets.as_code import AsCode, Recipe
from milab_widgets.widgets.base import Panel, show_table
from sixth_paper.experiment import run

__all__ = ["SixthPanel"]

SCRIPT = """from sixth_paper.experiment import run

scores = run(folds=$folds)
print(scores.groupby("method").accuracy.mean())
"""


class SixthPanel(AsCode, Panel):
    """Accuracy per fold of the fixture paper's two methods."""

    recipe = Recipe(sections=lambda panel: [SCRIPT],
                    values=lambda panel: {"folds": panel.folds.value},
                    charts=lambda panel: {},
                    tables=lambda panel: {"scores": panel.scores}
                    if panel.scores is not None else {})
    result_attributes = ("scores",)

    def __init__(self):
        self.scores = None
        self.folds = widgets.IntSlider(value=5, min=2, max=10, description="folds")
        self.table = widgets.Output()
        super().__init__("accuracy per fold", [self.folds], [self.table], paper="Sixth")
        self.folds.observe(lambda change: self.refresh(), "value")
        self.refresh()

    def refresh(self) -> None:
        with self.working(f"{self.folds.value}-fold accuracy"):
            self.scores = run(folds=self.folds.value)
            show_table(self.table, self.scores, caption="accuracy per fold")
