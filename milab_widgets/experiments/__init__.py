"""One module per paper: run(...) -> tidy DataFrames; no plotting, no widgets."""

__all__: list[str] = []  # one module per paper, used by path: milab_widgets.experiments.<paper>
