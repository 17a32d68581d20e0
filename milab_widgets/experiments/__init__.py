"""One module per paper: run(...) -> tidy DataFrames; no plotting, no widgets."""
