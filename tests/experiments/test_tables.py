"""The experiments' shared helpers: loading what is available, empty tables, writing out."""

import json

import pandas as pd

from milab_widgets.experiments.tables import concat_or_empty, load_available, write_tables


def test_load_available_reports_missing_and_known_unobtainable_datasets(empty_data_home):
    datasets, skipped = load_available(["musk1", "fox", "flare_solar"],
                                       unavailable={"flare_solar": "cannot be rebuilt"})
    assert list(datasets) == ["musk1"] and len(datasets["musk1"]) == 92
    assert "milab fetch fox" in skipped["fox"]
    assert skipped["flare_solar"] == "cannot be rebuilt"


def test_concat_or_empty_keeps_the_columns_of_an_empty_result():
    assert concat_or_empty([], ("a", "b")).columns.tolist() == ["a", "b"]
    stacked = concat_or_empty([pd.DataFrame({"a": [1]}), pd.DataFrame({"a": [2]})])
    assert stacked.a.tolist() == [1, 2] and stacked.index.tolist() == [0, 1]


def test_write_tables_writes_csvs_and_settings_with_the_skipped_datasets(tmp_path):
    folder = tmp_path / "out"
    written = write_tables(folder, {"scores": pd.DataFrame({"x": [0.5]})}, {"quick": True},
                           {"fox": "run `milab fetch fox`"})
    assert [path.name for path in written] == ["scores.csv", "settings.json", "skipped.txt"]
    assert pd.read_csv(folder / "scores.csv").x.tolist() == [0.5]
    settings = json.loads((folder / "settings.json").read_text())
    assert settings == {"quick": True, "skipped": {"fox": "run `milab fetch fox`"}}
    assert (folder / "skipped.txt").read_text() == "skipped fox: run `milab fetch fox`\n"


def test_write_tables_writes_an_empty_skipped_file_when_nothing_was_skipped(tmp_path):
    written = write_tables(tmp_path, {}, {}, {})
    assert written[-1] == tmp_path / "skipped.txt" and written[-1].read_text() == ""
