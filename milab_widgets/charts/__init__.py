"""Altair chart builders over the experiments' tidy DataFrames, in one lab theme.

One module per paper sits beside :mod:`.theme`; every chart is a value a function returns.
Importing this package only registers the theme; :func:`use_lab_charts` switches it on.
"""

from .theme import PALETTE, THEME_NAME, lab_theme, save_chart, use_lab_charts

__all__ = ["PALETTE", "THEME_NAME", "lab_theme", "save_chart", "use_lab_charts"]
