"""The milab server extension without a browser: the tiles' notebooks, a reproduction job's
state as read from what ``milab reproduce`` writes, the job's command and its refusals, and
the routes behind the server's authentication (a real ``jupyter server`` on 127.0.0.1).
The browser tour (tests/browser/launcher_tour.py) clicks through the same routes."""

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import nbformat
import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.papers import PAPERS, RUN_RECORD, registered
from milab_widgets.server import _jupyter_labextension_paths, _jupyter_server_extension_points
from milab_widgets.server.jobs import ReproduceJob, paper_state
from milab_widgets.server.launch import LABEXTENSIONS, jupyterlab_arguments
from milab_widgets.server.starters import starter_notebook
from tests.browser.check_jupyterlab import free_port, stop_server, wait_for_server


def test_the_lab_tile_notebook_runs_lab_and_is_never_overwritten(tmp_path):
    path = starter_notebook(tmp_path, "lab")
    assert path == "milab/lab.ipynb"
    notebook = nbformat.read(tmp_path / path, as_version=4)
    assert [cell.cell_type for cell in notebook.cells] == ["markdown", "code"]
    assert notebook.cells[1].source == "from milab_widgets import lab\n\nlab()"
    notebook.cells.append(nbformat.v4.new_markdown_cell("the user's own note"))
    nbformat.write(notebook, tmp_path / path)
    assert starter_notebook(tmp_path, "lab") == path
    assert nbformat.read(tmp_path / path, as_version=4).cells[-1].source == "the user's own note"


@pytest.mark.parametrize("paper", list(registered()))
def test_a_paper_tile_notebook_builds_that_papers_panel_from_its_record(tmp_path, paper):
    spec = registered()[paper]
    module, name = spec.panel_class()
    notebook = nbformat.read(tmp_path / starter_notebook(tmp_path, "panel", paper), as_version=4)
    assert notebook.cells[1].source == f"from {module} import {name}\n\n{name}()"
    assert spec.citation() in notebook.cells[0].source


@pytest.mark.parametrize(("kind", "paper", "message"), [
    ("notebook", None, "use 'lab' or 'panel'"),
    ("panel", "sixth", "choose one of intH"),
    ("panel", None, "paper=None"),
])
def test_bad_tile_requests_are_refused_naming_the_fix(tmp_path, kind, paper, message):
    with pytest.raises(InputError, match=message):
        starter_notebook(tmp_path, kind, paper)
    assert not (tmp_path / "milab").exists() or not any((tmp_path / "milab").iterdir())


def write_json(path, record):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))


def test_a_papers_state_follows_what_the_run_writes(tmp_path):
    folder, since = tmp_path / "intH", time.time() - 1
    assert paper_state(folder, "intH", since, finished=False)["status"] == "waiting"
    assert paper_state(folder, "intH", since, finished=True)["status"] == "not run"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("a = 1"), nbformat.v4.new_code_cell("run()")]
    notebook.cells[1].metadata["papermill"] = {"status": "running"}
    folder.mkdir()
    nbformat.write(notebook, folder / PAPERS["intH"])
    running = paper_state(folder, "intH", since, finished=False)
    assert (running["status"], running["detail"]) == ("running", "cell 2 of 2: run()")
    (folder / "skipped.txt").write_text("skipped elephant: not in the data home\n")
    write_json(folder / RUN_RECORD, {"status": "ok", "error": None})
    done = paper_state(folder, "intH", since, finished=True)
    assert (done["status"], done["skipped"]) == ("done", ["elephant: not in the data home"])
    write_json(folder / RUN_RECORD, {"status": "interrupted",
                                     "error": "interrupted (SIGINT): partial output"})
    stopped = paper_state(folder, "intH", since, finished=True)
    assert (stopped["status"], stopped["detail"]) == ("interrupted",
                                                      "interrupted (SIGINT): partial output")


def test_files_of_an_earlier_run_do_not_count(tmp_path):
    folder = tmp_path / "intH"
    write_json(folder / RUN_RECORD, {"status": "ok", "error": None})
    (folder / "skipped.txt").write_text("skipped musk2: old\n")
    later = time.time() + 5
    assert paper_state(folder, "intH", later, finished=False) == {
        "paper": "intH", "status": "waiting", "detail": "", "skipped": []}


def test_a_job_refuses_unknown_papers_before_starting_anything(tmp_path):
    with pytest.raises(InputError, match="sixth"):
        ReproduceJob.start(["sixth"], False, tmp_path)
    assert not (tmp_path / "milab-output").exists()


def test_stopping_a_finished_job_is_refused(tmp_path):
    job = ReproduceJob(["intH"], False, tmp_path / "milab-output")
    job.process = subprocess.Popen([sys.executable, "-c", "print('milab reproduce')"],
                                   stdout=subprocess.PIPE, text=True)
    job.process.wait()
    with pytest.raises(InputError, match="no reproduction is running"):
        job.stop()
    state = job.state(tmp_path)
    assert state["running"] is False and state["exit_code"] == 0
    assert [paper["status"] for paper in state["per_paper"]] == ["not run"]
    assert state["report"] is None


def test_a_running_job_is_stopped_with_sigint_when_the_server_shuts_down(tmp_path):
    """The unload hook sends the runner what Ctrl-C sends; a runner that handles it ends."""
    from types import SimpleNamespace

    from milab_widgets.server import _unload_jupyter_server_extension
    from milab_widgets.server.handlers import JOB_KEY

    job = ReproduceJob(["intH"], False, tmp_path / "milab-output")
    job.process = subprocess.Popen(
        [sys.executable, "-c", "import time\ntry:\n time.sleep(60)\n"
                               "except KeyboardInterrupt:\n raise SystemExit(130)"])
    time.sleep(0.5)  # let it reach the sleep
    server_app = SimpleNamespace(web_app=SimpleNamespace(settings={JOB_KEY: job}))
    _unload_jupyter_server_extension(server_app)
    assert job.process.returncode == 130 and job.stop_requested
    _unload_jupyter_server_extension(server_app)  # nothing running: nothing to do


def test_the_extension_points_name_the_package_and_its_built_front_end():
    assert _jupyter_server_extension_points() == [{"module": "milab_widgets.server"}]
    (path,) = _jupyter_labextension_paths()
    built = LABEXTENSIONS / path["dest"]
    assert json.loads((built / "package.json").read_text())["name"] == path["dest"]
    assert list((built / "static").glob("remoteEntry.*.js"))
    command = jupyterlab_arguments(["--no-browser"])
    assert f"--LabApp.extra_labextensions_path={LABEXTENSIONS}" in command
    assert command[-1] == "--no-browser"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``jupyter server`` with the milab extension on 127.0.0.1: (base URL, token)."""
    root, token, port = tmp_path_factory.mktemp("root"), "test-token-123", free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path_factory.mktemp("config")),
           "JUPYTER_RUNTIME_DIR": str(tmp_path_factory.mktemp("runtime"))}
    log = tmp_path_factory.mktemp("log") / "server.log"
    with open(log, "w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyter_server", "--no-browser", "--ip=127.0.0.1",
             f"--port={port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
             "--allow-root", "--ServerApp.jpserver_extensions={'milab_widgets.server': True}"],
            env=env, stdout=output, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for_server(process, base, token, log, 60)
            yield base, token, root
        finally:
            stop_server(process, base, token)


def call(base, route, method="GET", token=None, body=None):
    headers = {"Authorization": f"token {token}"} if token else {}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/milab/api/{route}", data=data, method=method,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


@pytest.mark.parametrize(("method", "route"), [
    ("GET", "papers"), ("POST", "notebooks"), ("GET", "reproduce"), ("POST", "reproduce"),
    ("DELETE", "reproduce")])
def test_every_route_refuses_a_request_without_the_token(server, method, route):
    base, _, _ = server
    status, _ = call(base, route, method, body={} if method == "POST" else None)
    assert status == 403


def test_the_routes_answer_with_the_token_and_refuse_bad_input(server):
    base, token, root = server
    status, papers = call(base, "papers", token=token)
    assert status == 200 and [paper["short"] for paper in papers] == list(registered())
    status, created = call(base, "notebooks", "POST", token, {"kind": "panel", "paper": "CDVSE"})
    assert status == 200 and (root / created["path"]).is_file()
    status, reply = call(base, "notebooks", "POST", token, {"kind": "panel", "paper": "x"})
    assert status == 400 and "choose one of" in reply["message"]
    assert call(base, "reproduce", token=token) == (200, {"job": None})
    status, reply = call(base, "reproduce", "POST", token, {"papers": "intH"})
    assert status == 400 and "list of short names" in reply["message"]
    status, reply = call(base, "reproduce", "POST", token, {"papers": ["sixth"]})
    assert status == 400 and "sixth" in reply["message"]
    status, reply = call(base, "reproduce", "DELETE", token)
    assert status == 409 and "no reproduction is running" in reply["message"]
