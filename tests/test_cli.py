"""The `milab` command: datasets, fetch, and registering subcommands."""

import pytest

from milab_widgets import cli
from milab_widgets.data.registry import REGISTRY


def test_datasets_on_a_fresh_install_shows_fox_missing_with_the_fix(empty_data_home, capsys):
    assert cli.main(["datasets"]) == 0
    out = capsys.readouterr().out
    assert f"Data home: {empty_data_home} ($MILAB_DATA_HOME)" in out
    mil_table = out.split("[mil]\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert mil_table[0].split() == ["name", "bags", "instances", "features", "positives",
                                    "negatives", "available", "where"]
    rows = {line.split()[0]: line.split() for line in mil_table[1:]}
    assert rows["musk1"][1:] == ["92", "476", "166", "47", "45", "True", "package"]
    assert rows["fox"][-2:] == ["False", "missing"] and len(rows) == 6
    assert "[oneclass]" in out and "[multilabel]" in out
    # The generated sets a fresh install always has, then one paragraph for the missing ones.
    assert "digits-a, digits-b" in out and "digits_two_view" in out
    missing = out.split("\nMissing: ", 1)[1]
    n_missing = sum(not spec_available for spec_available in _available_flags(out))
    assert missing.startswith(f"{n_missing} of {len(REGISTRY)} registered datasets.")
    fetch_line = next(line for line in missing.splitlines() if "milab fetch " in line)
    fetchable = fetch_line.split("milab fetch ", 1)[1].split()
    assert "fox" in fetchable and "heart" not in fetchable
    assert "Placed by hand (not downloadable as such): breast_cancer, cleveland_heart, heart, " \
        "liver;" in missing
    assert "is not available" not in out  # no paragraph per dataset


def _available_flags(out: str) -> list[bool]:
    """The ``available`` column of every table row of ``milab datasets``."""
    return [words[-2] == "True" for line in out.split("\n[generated]")[0].splitlines()
            if len(words := line.split()) > 2 and words[-1] in ("package", "missing", "home")]


def test_fetch_reports_each_dataset_and_fails_only_the_broken_one(
    empty_data_home, http_server, register_tiny_dataset, capsys
):
    register_tiny_dataset("tiny")
    register_tiny_dataset("broken", served=None)
    register_tiny_dataset("tiny2")
    assert cli.main(["fetch", "tiny", "broken", "tiny2", "--url", http_server.url]) == 1
    captured = capsys.readouterr()
    assert "tiny: mil/tiny.csv downloaded from" in captured.out
    assert "tiny2: mil/tiny2.csv downloaded from" in captured.out
    assert "broken: FAILED: Could not download mil/broken.csv" in captured.err
    assert "HTTP 404" in captured.err and "Failed: broken" in captured.err
    assert (empty_data_home / "mil" / "tiny2.csv").is_file()
    assert not (empty_data_home / "mil" / "broken.csv").exists()


def test_fetch_all_and_idempotence(empty_data_home, http_server, register_tiny_dataset,
                                   monkeypatch, capsys):
    for name in list(REGISTRY):  # --all must touch only the local test dataset
        monkeypatch.delitem(REGISTRY, name)
    register_tiny_dataset("tiny")
    assert cli.main(["fetch", "--all", "--url", http_server.url]) == 0
    assert cli.main(["fetch", "tiny", "--url", http_server.url]) == 0
    out = capsys.readouterr().out
    assert "tiny: mil/tiny.csv downloaded" in out and "tiny: mil/tiny.csv already present" in out
    assert http_server.requests == ["/mil/tiny.csv"]


def test_fetch_unknown_name_fails_with_a_suggestion(empty_data_home, capsys):
    assert cli.main(["fetch", "tigre"]) == 1
    err = capsys.readouterr().err
    assert "tigre: FAILED: Unknown dataset 'tigre'. Did you mean 'tiger'?" in err


@pytest.mark.parametrize("argv", [["fetch"], ["fetch", "musk1", "--all"], ["nope"], []])
def test_usage_errors_exit_with_2(argv, capsys):
    assert cli.main(argv) == 2
    assert capsys.readouterr().err


def test_a_new_subcommand_is_one_decorated_function(monkeypatch, capsys):
    monkeypatch.setattr(cli, "SUBCOMMANDS", dict(cli.SUBCOMMANDS))

    @cli.subcommand("echo", "Print a word.", cli.argument("word"))
    def _echo(args):
        print(args.word.upper())
        return 3

    assert cli.main(["echo", "hello"]) == 3
    assert capsys.readouterr().out == "HELLO\n"
    assert cli.SUBCOMMANDS["echo"].run is _echo
    assert {"datasets", "fetch", "reproduce", "report"} <= set(cli.SUBCOMMANDS)


def test_rejudge_judges_a_committed_run_again_and_says_so_in_the_report(tmp_path, capsys):
    import shutil
    from pathlib import Path

    import pandas as pd

    committed = Path(__file__).resolve().parents[1] / "reports" / "intH"
    shutil.copytree(committed, tmp_path / "intH")
    (tmp_path / "intH" / "claims_rejudged.json").unlink(missing_ok=True)
    (tmp_path / "intH" / "claims.csv").write_text(
        pd.read_csv(committed / "claims.csv").drop(columns=["basis", "basis_reason"])
        .to_csv(index=False))  # as an older run wrote it
    assert cli.main(["rejudge", str(tmp_path), "intH"]) == 0
    again = pd.read_csv(tmp_path / "intH" / "claims.csv")
    pd.testing.assert_frame_equal(again, pd.read_csv(committed / "claims.csv"))
    assert (tmp_path / "intH" / "claims_rejudged.json").is_file()
    report = (tmp_path / "REPORT.md").read_text()
    assert "judged again" in report and "the experiments and the executed notebook" in report
    assert cli.main(["rejudge", str(tmp_path), "nosuchpaper"]) == 1
    assert "no paper 'nosuchpaper'" in capsys.readouterr().err


def test_rejudge_rerun_refuses_a_quick_run_and_the_report_says_what_was_rerun(tmp_path,
                                                                              capsys):
    import json
    import shutil
    from pathlib import Path

    from milab_widgets.claims.rejudge import record_rejudged

    committed = Path(__file__).resolve().parents[1] / "reports"
    shutil.copytree(committed / "LSkMDDM", tmp_path / "LSkMDDM",
                    ignore=shutil.ignore_patterns("cache"))
    settings = tmp_path / "LSkMDDM" / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "quick": True}))
    assert cli.main(["rejudge", str(tmp_path), "LSkMDDM", "--rerun"]) == 1
    assert "holds a quick run; re-run it whole" in capsys.readouterr().err
    record_rejudged(tmp_path / "LSkMDDM", rerun="Table 2 re-run at today's protocol")
    assert cli.main(["report", str(tmp_path)]) == 0
    report = (tmp_path / "REPORT.md").read_text()
    assert "Table 2 re-run at today's protocol; every claim was then judged again" in report
