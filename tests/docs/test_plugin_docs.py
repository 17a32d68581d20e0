"""The site's extensions read the papers from the registry: a plugin paper
(tests/plugin_paper) gets its row in the claims summary, its gallery card's chart and its
API list with no edit of the project's files."""

from pathlib import Path

from tests.extras import require_extra
from tests.plugins.plugin import run_with_plugin

require_extra("docs")

DOCS_EXT = Path(__file__).resolve().parents[2] / "docs" / "_ext"


def test_the_docs_extensions_list_the_plugin_paper_and_summarise_its_claims(tmp_path):
    reports = tmp_path / "reports" / "Sixth"
    reports.mkdir(parents=True)
    result = run_with_plugin(f"""
        import sys
        sys.path.insert(0, {str(DOCS_EXT)!r})
        import api_links, notebook_gallery, report_tables
        from sixth_paper.claims import judge
        from sixth_paper.experiment import run
        judge(run(folds=3)).to_csv({str(reports / "claims.csv")!r}, index=False)
        from pathlib import Path
        summary = report_tables.claims_summary(Path({str(reports.parent)!r}))
        print(notebook_gallery.PAPERS[-1], notebook_gallery.MAIN_CHARTS["Sixth"][0],
              "Sixth" in api_links.PAPER_API)
        print(summary.paper.tolist())
        print(summary.set_index("paper").iloc[0].to_dict())
    """)
    assert result.returncode == 0, result.stderr
    listed, rows, counts = result.stdout.splitlines()[-3:]
    assert listed == "Sixth scores True"
    assert rows == str(['Fixture, "Nearest centroids beat the majority class (a plugin '
                        'fixture)", milab-widgets test suite, 2026 (Sixth)'])
    assert "'supported': 1" in counts
