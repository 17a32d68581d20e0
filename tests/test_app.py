"""``milab app``: the lab served by Voilà (milab_widgets/app.py). Without a browser: the
shipped notebook, the arguments as Voilà itself parses them, and bad ports refused with a
clear message before anything starts. The page itself: tests/browser/test_app.py."""

import socket

import nbformat
import pytest

from milab_widgets.app import APP_NOTEBOOK, voila_arguments
from milab_widgets.cli import main


def test_the_app_notebook_ships_in_the_package_and_shows_the_lab():
    notebook = nbformat.read(APP_NOTEBOOK, as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert code == ["from milab_widgets import lab\n\nlab(downloads=True)  # the panels' files go "
                    "to the browser, nothing is written on the server"]
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    assert APP_NOTEBOOK.parent.name == "milab_widgets"


def test_voila_parses_the_arguments_as_one_port_on_loopback_without_code():
    from voila.app import Voila

    app = Voila()
    app.parse_command_line(voila_arguments(18123))
    assert app.extra_args == [str(APP_NOTEBOOK)]
    assert app.config.Voila.ip == "127.0.0.1"
    assert app.config.Voila.port == 18123
    assert app.config.Voila.port_retries == 0
    assert app.config.Voila.open_browser is False
    assert app.config.VoilaConfiguration.strip_sources is True


@pytest.mark.parametrize("port, expected", [
    ("0", "--port 0 is not a TCP port: give a number from 1 to 65535."),
    ("70000", "--port 70000 is not a TCP port"),
])
def test_a_port_outside_the_tcp_range_is_refused(port, expected, capsys):
    assert main(["app", "--port", port]) == 2
    assert expected in capsys.readouterr().err


def test_a_port_in_use_is_named_with_the_fix(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["app", "--port", str(port)]) == 2
    assert (f"milab app: port {port} on 127.0.0.1 is in use: choose another with "
            "`milab app --port N`.") in capsys.readouterr().err


def test_a_port_that_is_not_a_number_is_a_usage_error(capsys):
    assert main(["app", "--port", "eighty"]) == 2
    assert "invalid int value: 'eighty'" in capsys.readouterr().err
