"""The lab as a web app: ``milab app [--port N]`` serves it with Voilà.

Voilà (the Jupyter project's way to turn a notebook of widgets into a standalone page, and
what Binder demos use) runs :data:`APP_NOTEBOOK` -- a notebook shipped inside the package,
so a wheel has it -- in a fresh kernel for each visitor and shows its outputs, never its
code. The page is the lab itself, at the root URL ``http://127.0.0.1:N/``, listening on
127.0.0.1 only (the kernel runs Python as the user who started it: not for a shared
network). Its JavaScript (the widgets, the panels' offline charts) is served by Voilà
itself, so the page works with no internet access (``tests/browser/test_app.py``); the page
template (:data:`APP_TEMPLATE`) is Voilà's "lab" one without the two Font Awesome
stylesheets it links from a CDN, whose icons Voilà's bundle already holds.

>>> from milab_widgets.app import voila_arguments
>>> voila_arguments(8866)[-3:]
['--port=8866', '--Voila.port_retries=0', '--no-browser']
"""

from __future__ import annotations

import errno
import socket
from importlib.resources import files
from pathlib import Path

from milab_widgets.data.home import pin_data_home
from milab_widgets.exceptions import MilabError

__all__ = ["APP_NOTEBOOK", "APP_TEMPLATE", "DEFAULT_PORT", "serve", "voila_arguments"]

#: The notebook Voilà serves: a title and ``lab()``.
APP_NOTEBOOK = Path(str(files("milab_widgets") / "lab.ipynb"))
#: The folder of the page template, searched before Voilà's own templates.
APP_TEMPLATE = Path(str(files("milab_widgets") / "app_template"))
#: Voilà's own default port.
DEFAULT_PORT = 8866
HOST = "127.0.0.1"


class AppError(MilabError):
    """``milab app`` cannot start (port taken or invalid, Voilà missing)."""


def voila_arguments(port: int) -> list[str]:
    """Voilà's command-line arguments for serving the lab on ``HOST:port`` exactly (no
    other port tried), sources stripped, no browser opened."""
    return [str(APP_NOTEBOOK), f"--Voila.ip={HOST}", "--strip_sources=True",
            f"--port={port}", "--Voila.port_retries=0", "--no-browser"]


def check_port(port: int) -> None:
    """AppError unless ``port`` is a valid TCP port free on 127.0.0.1 right now."""
    if not 1 <= port <= 65535:
        raise AppError(f"--port {port} is not a TCP port: give a number from 1 to 65535.")
    with socket.socket() as probe:
        try:
            probe.bind((HOST, port))
        except OSError as error:
            why = "is in use" if error.errno == errno.EADDRINUSE else f"cannot be used ({error})"
            raise AppError(f"port {port} on {HOST} {why}: choose another with "
                           "`milab app --port N`.") from None


def serve(port: int = DEFAULT_PORT) -> None:
    """Serve the lab at ``http://127.0.0.1:<port>/`` until interrupted (Ctrl+C)."""
    check_port(port)
    try:
        from voila.app import Voila
    except ImportError:
        raise AppError("Voilà is not installed: pip install voila (a dependency of "
                       "milab-widgets; reinstall it).") from None
    class MilabVoila(Voila):
        """Voilà with the app's page template found first."""

        def setup_template_dirs(self):
            super().setup_template_dirs()
            self.template_paths = [str(APP_TEMPLATE), *self.template_paths]

    pin_data_home()  # Voila's kernels start in the package's folder
    print(f"milab app: the lab at http://{HOST}:{port}/ (Ctrl+C stops it)", flush=True)
    MilabVoila.launch_instance(argv=voila_arguments(port))
