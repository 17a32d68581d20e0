"""The built site works with no network: no page loads anything from outside the site, and
the formulas render from the MathJax shipped with it (sphinx-mathjax-offline, docs/conf.py).

* ``test_no_page_loads_anything_from_outside_the_site`` reads every built HTML page and CSS
  file: no script, stylesheet, preload, icon, image or frame comes from an http(s) address.
* ``test_formulas_render_with_the_network_blocked`` (marked ``browser``) serves the build on
  127.0.0.1, opens a guide page in headless Chromium with every request to any other host
  aborted, and checks that MathJax drew the formulas (``mjx-container`` elements, no raw
  ``\\(`` left in the page text) and that the page asked for nothing outside the site. It is
  skipped when Debian's chromium or playwright is missing (failed under
  ``MILAB_REQUIRE_BROWSER=1``, as tests/browser does). With ``MILAB_DOCS_SHOT=<file.png>``
  the page's screenshot is also written there (reports/browser/docs-math.png was made so).
* ``test_the_main_pages_render_offline`` (``browser``) opens the landing page, an API page,
  a paper page and the gallery the same way: nothing outside the site is requested, nothing
  fails, no raw TeX is left, formulas are drawn where the page has any, and the gallery's
  five thumbnails are loaded images. With ``MILAB_DOCS_SHOTS=<folder>`` the four screenshots
  are written there as docs-landing.png, docs-api.png, docs-paper.png, docs-gallery.png
  (reports/browser/ holds the committed ones).
* ``test_no_page_shows_a_machine_path`` reads every built page: no absolute path of the
  machine that built the site or ran the notebooks, no link to the papers' restatements
  outside the repository.
"""

import os
import re
import threading
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--no-first-run", "--disable-quic", "--disable-component-update",
                 "--disable-sync"]
EXTERNAL = re.compile(r"^\s*(?:https?:)?//", re.IGNORECASE)
# The attribute through which each element makes the browser fetch something.
LOADING = {"script": "src", "img": "src", "iframe": "src", "source": "src", "video": "src",
           "audio": "src", "embed": "src", "track": "src", "object": "data"}
LOADING_LINKS = {"stylesheet", "preload", "modulepreload", "icon", "shortcut", "apple-touch-icon",
                 "manifest", "prefetch"}
CSS_URL = re.compile(r"""(?:@import\s+(?:url\()?|url\()\s*['"]?([^'")\s;]+)""", re.IGNORECASE)
MATH_PAGE = "guide/multi-instance.html"

pytestmark = pytest.mark.slow


class _Fetches(HTMLParser):
    """Collects the addresses an HTML page makes the browser fetch."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and LOADING_LINKS & set((attrs.get("rel") or "").lower().split()):
            self.urls.append(attrs.get("href") or "")
        elif tag in LOADING and attrs.get(LOADING[tag]):
            self.urls.append(attrs[LOADING[tag]])


def external_fetches(site: Path) -> list[str]:
    """``page: address`` for every fetch of a built page or stylesheet that leaves the site."""
    found = []
    for page in sorted(site.rglob("*.html")):
        parser = _Fetches()
        parser.feed(page.read_text(encoding="utf-8"))
        found += [f"{page.relative_to(site)}: {url}" for url in parser.urls if EXTERNAL.match(url)]
    for sheet in sorted(site.rglob("*.css")):
        found += [f"{sheet.relative_to(site)}: {url}"
                  for url in CSS_URL.findall(sheet.read_text(encoding="utf-8", errors="replace"))
                  if EXTERNAL.match(url)]
    return found


def test_no_page_loads_anything_from_outside_the_site(docs_site):
    leaving = external_fetches(docs_site)
    assert not leaving, "requests leaving the site:\n" + "\n".join(leaving[:50])
    # The math pages load the MathJax shipped in the build.
    page = (docs_site / MATH_PAGE).read_text(encoding="utf-8")
    assert "_static/mathjax/tex-chtml.js" in page
    assert (docs_site / "_static" / "mathjax" / "tex-chtml.js").is_file()
    assert (docs_site / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").is_dir()


def test_the_finder_sees_a_cdn_script():
    """external_fetches is not blind: it finds the CDN script the site used to load."""
    parser = _Fetches()
    parser.feed('<script defer src="https://cdn.jsdelivr.net/npm/mathjax@4/tex-mml-chtml.js">'
                '</script><link rel="stylesheet" href="//fonts.example/a.css">'
                '<link rel="canonical" href="https://example.org/">'
                '<script src="_static/local.js"></script>')
    assert [url for url in parser.urls if EXTERNAL.match(url)] == [
        "https://cdn.jsdelivr.net/npm/mathjax@4/tex-mml-chtml.js", "//fonts.example/a.css"]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def served_site(docs_site, monkeypatch):
    """The built site served on 127.0.0.1 (never the internet); yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=docs_site))
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.mark.browser
def test_formulas_render_with_the_network_blocked(require_browser, served_site, tmp_path):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    blocked, failed = [], []

    def only_the_site(route):
        if route.request.url.startswith(served_site + "/"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    shot = Path(os.environ.get("MILAB_DOCS_SHOT") or tmp_path / "docs-math.png")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.route("**/*", only_the_site)
            page.on("requestfailed", lambda request: failed.append(request.url))
            page.goto(f"{served_site}/{MATH_PAGE}", wait_until="load")
            # MathJax typesets after loading; wait until it has drawn the page's formulas.
            # (A MathJax that never loads is reported below, with the blocked requests.)
            try:
                page.wait_for_function(
                    "() => window.MathJax && MathJax.startup && MathJax.startup.promise"
                    " && document.querySelectorAll('mjx-container').length > 0", timeout=60_000)
                page.evaluate("() => MathJax.startup.promise")
                page.wait_for_load_state("networkidle")
            except PlaywrightTimeout:
                pass
            formulas = page.locator("mjx-container").count()
            text = page.inner_text("article")
            # The screenshot shows the formula table of "Bag distances" when the page has it.
            if page.locator("#bag-distances").count():
                page.evaluate("() => document.getElementById('bag-distances').scrollIntoView()")
            page.screenshot(path=str(shot), full_page=False)
        finally:
            browser.close()
    assert not blocked, "the page asked for addresses outside the site:\n" + "\n".join(blocked)
    assert not failed, "requests that failed:\n" + "\n".join(failed)
    assert formulas >= 5, f"MathJax drew {formulas} formulas"
    assert "\\(" not in text and "\\[" not in text, "raw TeX left in the page text"
    assert shot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


#: The pages a reader meets first, each with the screenshot it gives and whether it has math.
MAIN_PAGES = {
    "landing": ("index.html", False),
    "api": ("api/generated/milab_widgets.mil.integrated_distance.html", True),
    "paper": ("papers/intH.html", True),
    "gallery": ("gallery/index.html", False),
}
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|tmp|home|root)/[\w.-]+/")


def test_no_page_shows_a_machine_path(docs_site):
    found = []
    for page in sorted(docs_site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        found += [f"{page.relative_to(docs_site)}: {hit}" for hit in
                  MACHINE_PATH.findall(text) + re.findall(r"shared/papers/\w+\.md", text)]
    assert not found, "machine paths or outside links:\n" + "\n".join(found[:30])


def open_offline(browser, site: str, path: str, has_math: bool):
    """Open ``site/path`` with every other host blocked; wait for MathJax when the page has
    math. Returns the page and the lists of blocked and failed requests."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    blocked, failed = [], []

    def only_the_site(route):
        if route.request.url.startswith(site + "/"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.route("**/*", only_the_site)
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(f"{site}/{path}", wait_until="load")
    if has_math:
        try:
            page.wait_for_function("() => document.querySelectorAll('mjx-container').length > 0",
                                   timeout=60_000)
            page.evaluate("() => MathJax.startup.promise")
        except PlaywrightTimeout:
            pass  # reported by the caller's formula count
    # Under a load of 18 on two cores, 30 s (Playwright's default) was once not enough.
    page.wait_for_load_state("networkidle", timeout=180_000)
    return page, blocked, failed


@pytest.mark.browser
def test_the_main_pages_render_offline(require_browser, served_site, tmp_path):
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("MILAB_DOCS_SHOTS") or tmp_path)
    seen = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for name, (path, has_math) in MAIN_PAGES.items():
                page, blocked, failed = open_offline(browser, served_site, path, has_math)
                seen[name] = {
                    "blocked": blocked, "failed": failed,
                    "formulas": page.locator("mjx-container").count(),
                    "text": page.inner_text("article"),
                    "thumbnails": page.evaluate(
                        "() => [...document.querySelectorAll('.milab-gallery-card img')]"
                        ".map(img => img.naturalWidth)"),
                    "links": page.evaluate(
                        "() => [...document.querySelectorAll('.milab-api-links a')]"
                        ".map(a => a.textContent.trim())"),
                    # sidebar names split into pieces at their dots (milab-breaks.js);
                    # a piece drawn on two lines was broken inside a word
                    "broken_names": page.evaluate(
                        "() => [...document.querySelectorAll('.bd-sidebar-primary nav a')]"
                        ".flatMap(a => [...a.childNodes].filter(n => n.nodeType === 3)"
                        ".filter(n => { const r = document.createRange(); r.selectNode(n);"
                        " return r.getClientRects().length > 1; }).map(n => n.nodeValue))"),
                    "article_width": page.evaluate(
                        "() => document.querySelector('.bd-article')"
                        ".getBoundingClientRect().width"),
                }
                page.screenshot(path=str(shots / f"docs-{name}.png"), full_page=False)
                page.close()
        finally:
            browser.close()
    for name, found in seen.items():
        assert not found["blocked"], f"{name} asked for outside addresses: {found['blocked']}"
        assert not found["failed"], f"{name}: requests that failed: {found['failed']}"
        assert "\\(" not in found["text"] and "\\[" not in found["text"], f"raw TeX on {name}"
        if MAIN_PAGES[name][1]:
            assert found["formulas"] >= 1, f"{name}: no formula drawn"
    # Beside both sidebars the article keeps most of a 1400 px window (the theme's own
    # widths left it 746 px; docs/_static/milab.css).
    for name in ("api", "paper", "gallery"):
        assert seen[name]["article_width"] >= 0.6 * 1400, (name, seen[name]["article_width"])
    # Long dotted API names in the sidebar wrap after a dot, never inside a word.
    assert not seen["api"]["broken_names"], seen["api"]["broken_names"]
    thumbnails = seen["gallery"]["thumbnails"]
    assert len(thumbnails) == 5 and all(width > 0 for width in thumbnails), thumbnails
    # The API page links its user-guide section, its paper page and its notebook.
    assert {"Bag distances", "intH notebook"} <= set(seen["api"]["links"]), seen["api"]["links"]
    assert "integrated_distance" in seen["paper"]["links"], seen["paper"]["links"]
    for name in MAIN_PAGES:
        assert (shots / f"docs-{name}.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
