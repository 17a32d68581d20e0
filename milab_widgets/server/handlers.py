"""The REST routes of the milab server extension, under ``/milab/api/``.

Every route is a jupyter_server ``APIHandler`` method marked ``@authenticated``: a request
without the server's token (or its login cookie) is refused with 403, as the server's own
APIs are; POST and DELETE also need its XSRF check, which JupyterLab's requests pass.
Bad input is answered with 400 and a sentence saying what to send instead.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web

from milab_widgets.exceptions import InputError
from milab_widgets.papers import registered
from milab_widgets.server.jobs import ReproduceJob
from milab_widgets.server.starters import starter_notebook

__all__ = ["register", "stop_running_job", "PapersHandler", "NotebooksHandler",
           "ReproduceHandler"]

#: The key under which the server's tornado settings hold the current job.
JOB_KEY = "milab_reproduce_job"


class _MilabHandler(APIHandler):
    @property
    def root(self) -> Path:
        return Path(self.settings["server_root_dir"]).expanduser().resolve()

    def body(self) -> dict:
        try:
            body = json.loads(self.request.body or b"{}")
        except json.JSONDecodeError as error:
            raise web.HTTPError(400, f"the request body is not JSON ({error}).") from error
        if not isinstance(body, dict):
            raise web.HTTPError(400, "send a JSON object.")
        return body


class PapersHandler(_MilabHandler):
    """``GET``: every registered paper, in order: short name, title, citation, setting."""

    @web.authenticated
    def get(self) -> None:
        self.finish(json.dumps([
            {"short": spec.short, "title": spec.title, "setting": spec.setting,
             "citation": spec.citation()} for spec in registered().values()]))


class NotebooksHandler(_MilabHandler):
    """``POST {"kind": "lab"}`` or ``{"kind": "panel", "paper": NAME}``: the path of the
    notebook the tile opens (written the first time, reused after)."""

    @web.authenticated
    def post(self) -> None:
        body = self.body()
        try:
            path = starter_notebook(self.root, body.get("kind"), body.get("paper"))
        except InputError as error:
            raise web.HTTPError(400, str(error)) from error
        self.finish(json.dumps({"path": path}))


class ReproduceHandler(_MilabHandler):
    """``GET``: the current (or last) job's state, or ``{"job": null}``. ``POST {"papers":
    [...], "full": false}``: start a job (409 while one runs). ``DELETE``: stop it as
    Ctrl-C does."""

    @web.authenticated
    def get(self) -> None:
        job = self.settings.get(JOB_KEY)
        self.finish(json.dumps({"job": job.state(self.root) if job else None}))

    @web.authenticated
    def post(self) -> None:
        job = self.settings.get(JOB_KEY)
        if job is not None and job.running:
            raise web.HTTPError(409, "a reproduction is already running: stop it first, or "
                                     "wait for it to finish.")
        body = self.body()
        papers = body.get("papers") or list(registered())
        if not isinstance(papers, list):
            raise web.HTTPError(400, 'papers must be a list of short names, e.g. ["intH"].')
        try:
            job = ReproduceJob.start(papers, bool(body.get("full", False)), self.root)
        except InputError as error:
            raise web.HTTPError(400, str(error)) from error
        self.settings[JOB_KEY] = job
        self.set_status(201)
        self.finish(json.dumps({"job": job.state(self.root)}))

    @web.authenticated
    def delete(self) -> None:
        job = self.settings.get(JOB_KEY)
        try:
            if job is None:
                raise InputError("no reproduction is running.")
            job.stop()
        except InputError as error:
            raise web.HTTPError(409, str(error)) from error
        self.finish(json.dumps({"job": job.state(self.root)}))


def stop_running_job(settings: dict, timeout: float = 60) -> None:
    """Stop the job held in the server's ``settings`` if it runs, and wait for it to end
    (``timeout`` seconds, then it is killed)."""
    job = settings.get(JOB_KEY)
    if job is None or not job.running:
        return
    job.stop()
    try:
        job.process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        job.process.kill()
        job.process.wait()


def register(server_app) -> None:
    """Add the routes to the server's web application."""
    web_app = server_app.web_app
    base = url_path_join(web_app.settings["base_url"], "milab", "api")
    web_app.add_handlers(".*$", [
        (url_path_join(base, "papers"), PapersHandler),
        (url_path_join(base, "notebooks"), NotebooksHandler),
        (url_path_join(base, "reproduce"), ReproduceHandler),
    ])
