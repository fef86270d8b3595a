"""Every page at a laptop's (1440×900) and a phone's (390×844) size, in headless Chromium against the real server.

For each page of the registry (``geodp_app/pages.py``) and each size the test keeps two screenshots in
``test-artifacts/screenshots/`` — ``<page>_<width>.png`` (the first screen, as the visitor sees it) and
``<page>_<width>_full.png`` (the whole page at that width) — and checks what a reader meets:

- no exception, nothing wider than the screen;
- no chart title under the Plotly mode bar (the mode bar is shown, as on a touch screen), no two chart titles
  or panel titles on top of each other;
- no select box whose shown value is cut off;
- no code-ish token (``sigma``, ``None``, module paths, ``implies()``, ``S^2``, ...) in the visible text outside
  code blocks (``st.code``) (:func:`tests.app.test_user_text.code_tokens`).

Then every download of the pages that offer one is opened: no HTML loads a script from the network (it opens
offline), no CSV, Markdown or HTML text shows a code-ish token, and the Explorer's Python snippet runs as a file.
"""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from geodp_app.pages import PAGES as _DECLARED
from tests.app.conftest import VIEWPORTS, wait_for_app
from tests.app.test_user_text import code_tokens

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
#: Small settings for the pages that compute on open (a link's parameters, checked like any link).
CHEAP = "n_releases=20&curves_reps=5&curves_count=2&regression_fits=1&regression_chain=200&conformal_releases=20" \
        "&conformal_mesh=200&audit_releases=1000" \
        "&reproduce_paper=geometric-renyi-dp&reproduce_id=heat_sphere&reproduce_panel=n10&reproduce_size=quick"


def _run_reproduction(page, path):
    """The Reproduce page shows its result (figures, tables, downloads) after Run: press it (a smoke-size panel)."""
    if path == "reproduce":
        page.get_by_role("button", name="Run").click()
        wait_for_app(page, 120_000)
        page.locator("[data-testid='stDownloadButton']").first.wait_for(timeout=120_000)

_VISIBLE_TEXT = """() => {
  const main = document.querySelector('[data-testid="stApp"]').cloneNode(true);
  // icons are drawn from ligatures ("check_circle"): a person sees the picture, not the word
  main.querySelectorAll('pre, .js-plotly-plot, style, script, [data-testid="stIconMaterial"], span[role="img"]')
      .forEach(e => e.remove());
  document.body.appendChild(main);
  main.style.position = 'absolute'; main.style.left = '-20000px';
  const text = main.innerText;
  main.remove();
  return text;
}"""

_CHART_BOXES = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(plot => {
  const boxes = (sel) => Array.from(plot.querySelectorAll(sel)).map(e => e.getBoundingClientRect())
      .filter(r => r.width > 0 && r.height > 0).map(r => [r.left, r.top, r.right, r.bottom]);
  return {title: boxes('.gtitle, .gtitle-subtitle'), modebar: boxes('.modebar-container .modebar'),
          notes: boxes('.annotation')};
})"""

_TRUNCATED_SELECTS = """() => Array.from(document.querySelectorAll('[data-testid="stSelectbox"]')).flatMap(box =>
  Array.from(box.querySelectorAll('[data-baseweb="select"] *')).filter(e => e.children.length === 0
      && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim()))"""


def _overlap(a, b):
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def _context(browser, size):
    if size == "phone":
        return browser.new_context(viewport=VIEWPORTS["phone"], device_scale_factor=1, is_mobile=True, has_touch=True,
                                   accept_downloads=True)
    return browser.new_context(viewport=VIEWPORTS["laptop"], accept_downloads=True)


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("spec", _DECLARED, ids=lambda s: s.url_path)
def test_every_page_is_readable_and_screenshotted(browser, app_url, artifacts, spec, size):
    context = _context(browser, size)
    page = context.new_page()
    page.set_default_timeout(180_000)
    viewport = VIEWPORTS[size]
    width = viewport["width"]
    try:
        page.goto(f"{app_url}/{'' if spec.default else spec.url_path}?{CHEAP}", wait_until="domcontentloaded")
        wait_for_app(page, 120_000)
        _run_reproduction(page, spec.url_path)
        # the mode bar shows on hover (laptop) or always (touch): shown on every chart, as a phone shows it
        page.add_style_tag(content=".js-plotly-plot .modebar-container .modebar { opacity: 1 !important; }")
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"{spec.url_path}_{width}.png"))
        height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
        page.set_viewport_size({"width": width, "height": min(int(height) + 40, 16_000)})
        page.wait_for_timeout(1500)
        page.screenshot(path=str(artifacts / f"{spec.url_path}_{width}_full.png"))
        problems = []
        if page.locator("[data-testid='stException']").count():
            problems.append("a Streamlit exception is shown")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 2:
            problems.append(f"the page is {overflow} px wider than the screen")
        for i, chart in enumerate(page.evaluate(_CHART_BOXES)):
            if any(_overlap(t, m) for t in chart["title"] for m in chart["modebar"]):
                problems.append(f"chart {i + 1}: the mode bar covers its title")
            notes = chart["notes"] + chart["title"]
            if any(_overlap(a, b) for k, a in enumerate(notes) for b in notes[k + 1:]):
                problems.append(f"chart {i + 1}: two titles (or panel titles) overlap")
        for value in page.evaluate(_TRUNCATED_SELECTS):
            problems.append(f"a select box cuts off its value {value!r}")
        text = page.evaluate(_VISIBLE_TEXT)
        for line in text.splitlines():
            if code_tokens(line):
                problems.append(f"code-ish {code_tokens(line)} in the visible text: {line[:200]!r}")
        assert not problems, f"{spec.url_path} at {width} px:\n" + "\n".join(problems)
    finally:
        context.close()


def _downloads(page):
    """``{file name: bytes}`` of every download button on the page (each clicked once)."""
    files = {}
    buttons = page.locator("[data-testid='stDownloadButton'] button")
    for i in range(buttons.count()):
        with page.expect_download(timeout=180_000) as info:
            buttons.nth(i).click()
        files[info.value.suggested_filename] = Path(info.value.path()).read_bytes()
        wait_for_app(page, 120_000)
    return files


@pytest.mark.parametrize("path", ["explorer", "utility", "conformal", "reproduce"])
def test_every_download_opens_offline_and_reads_as_words(page, app_url, tmp_path, path):
    page.goto(f"{app_url}/{path}?{CHEAP}", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    _run_reproduction(page, path)
    files = _downloads(page)
    assert files, f"{path} offers no download"
    problems = []
    for name, data in files.items():
        text = data.decode("utf-8")
        if name.endswith(".html"):
            lowered = text.lower()
            if '<script src="http' in lowered or "<script src='http" in lowered or 'src="//' in lowered:
                problems.append(f"{name} loads a script from the network (blank offline)")
            if "plotly" in lowered and "function" not in lowered:
                problems.append(f"{name} does not embed plotly.js")
        elif name.endswith(".csv"):
            rows = list(csv.reader(io.StringIO(text)))
            for cell in rows[0]:
                if code_tokens(cell):
                    problems.append(f"{name}: column {cell!r} is a code name")
            for row in rows[1:50]:
                for cell in row:
                    if code_tokens(cell):
                        problems.append(f"{name}: cell {cell!r} shows {code_tokens(cell)}")
        elif name.endswith(".py"):
            assert "pip install ." in "\n".join(text.splitlines()[:6]), name
            script = tmp_path / name
            script.write_text(text, encoding="utf-8")
            out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                                 timeout=600, env=dict(os.environ, PYTHONPATH=str(ROOT)))
            if out.returncode != 0:
                problems.append(f"{name} fails: {out.stderr[-1500:]}")
    assert not problems, f"{path}:\n" + "\n".join(problems)
