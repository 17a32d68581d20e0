"""milab-widgets: an interactive lab for multi-instance, multi-label and one-class learning.

``milab_widgets.lab()`` returns every paper's panel in one tabbed widget; the subpackages
hold the datasets (``data``), estimators (``mil``, ``multilabel``, ``oneclass``),
evaluation, experiments, charts and panels (``widgets``).
"""

from milab_widgets.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {"lab": "milab_widgets.widgets.lab"})
