"""papermill's ``milab-watched`` engine, as its entry point loads it.

papermill loads its engines' entry points while it is itself being imported, and
:mod:`milab_widgets.kernel_watch` imports papermill: an entry point naming kernel_watch's
class would import kernel_watch half-initialised. This class stands in for it and imports
it only when a notebook is executed.
"""

from papermill.engines import Engine

__all__ = ["WatchedEngine"]


class WatchedEngine(Engine):
    """Executes with :class:`milab_widgets.kernel_watch.WatchedEngine` (no unbounded wait
    on a kernel)."""

    @classmethod
    def execute_managed_notebook(cls, *args, **kwargs):
        from milab_widgets.kernel_watch import WatchedEngine as Watched

        return Watched.execute_managed_notebook(*args, **kwargs)
