"""milab-widgets inside JupyterLab: the server extension behind the launcher tiles, the
commands and the reproduction panel of the prebuilt JupyterLab extension
(``milab_widgets/labextension``, built from ``labextension/``).

JupyterLab loads both by themselves after ``pip install milab-widgets``: the wheel installs
``etc/jupyter/jupyter_server_config.d/milab_widgets.json`` (which enables this extension) and
``share/jupyter/labextensions/milab-widgets-jupyterlab`` (the built front end). Its REST
routes, under ``/milab/api/``, sit behind the server's own authentication
(:mod:`milab_widgets.server.handlers`):

* ``GET papers``: the registered papers (a plugin paper gets its tile too);
* ``POST notebooks``: the notebook a tile opens (the lab, or one paper's panel);
* ``GET / POST / DELETE reproduce``: the state of the ``milab reproduce`` job, starting
  one, stopping it as Ctrl-C does (:mod:`milab_widgets.server.jobs`).
"""

from __future__ import annotations

__all__ = []


def _jupyter_server_extension_points() -> list[dict]:
    return [{"module": "milab_widgets.server"}]


def _jupyter_labextension_paths() -> list[dict]:
    return [{"src": "../labextension/milab-widgets-jupyterlab", "dest": "milab-widgets-jupyterlab"}]


def _load_jupyter_server_extension(server_app) -> None:
    """Register the routes (jupyter_server calls this once at start)."""
    from milab_widgets.server.handlers import register

    register(server_app)


def _unload_jupyter_server_extension(server_app) -> None:
    """At the server's shutdown, stop a reproduction still running as Ctrl-C would (its
    kernels shut down, its output marked interrupted), so that none outlives the server."""
    from milab_widgets.server.handlers import stop_running_job

    stop_running_job(server_app.web_app.settings)
