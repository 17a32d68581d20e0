"""The README is a landing page: short, the two quick-start commands as CI runs them, papers
named by their authors and titles, links that resolve."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
REPRODUCE = "pip install -e . && milab reproduce --all"
TEST = "pip install -e '.[test]' && python -m pytest"


def test_readme_is_a_landing_page():
    assert len(README.splitlines()) <= 250


def test_the_two_commands_are_there_and_ci_runs_the_test_command_word_for_word():
    blocks = re.findall(r"```bash\n(.*?)```", README, re.DOTALL)
    assert REPRODUCE + "\n" in blocks
    assert TEST + "\n" in blocks
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert TEST in ci


def test_papers_are_named_not_numbered():
    assert not re.search(r"\bseeds? ?0\d\d\b|\bseed's\b", README, re.IGNORECASE)
    for citation in ("Cai & Liu", "Xing & Wei", "Cheng, Song, Wang & Qian"):
        assert citation in README


def test_relative_links_resolve():
    targets = re.findall(r"\]\(((?!https?:)[^)#\s]+)\)", README)
    assert targets
    missing = [target for target in targets if not (ROOT / target).exists()]
    assert not missing, missing
