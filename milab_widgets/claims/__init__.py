"""The papers' claims: each paper's catalogue (every claim it makes, with its source, scope
and origin), the tests that match each scope, and the rows of ``claims.csv``.

* :mod:`milab_widgets.claims.scopes`: the scope tests (intersection-union, Wilcoxon over
  data sets, Friedman + Nemenyi, two one-sided tests, per-data-set time ratios) and Holm.
* :mod:`milab_widgets.claims.catalogue`: :class:`~milab_widgets.claims.catalogue.Claim`, a
  claim's row (``reproduced`` and ``verdict``) and a paper's table.
"""

from milab_widgets.claims.catalogue import (
    CATALOGUE_COLUMNS,
    NOT_TESTED,
    SCOPES,
    Claim,
    claim_row,
    claims_table,
    untested,
)
from milab_widgets.claims.scopes import best_rank, equivalent, every_case, faster, holm, on_average

__all__ = ["CATALOGUE_COLUMNS", "NOT_TESTED", "SCOPES", "Claim", "best_rank", "claim_row",
           "claims_table", "equivalent", "every_case", "faster", "holm", "on_average",
           "untested"]
