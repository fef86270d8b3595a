"""Fixtures for browser tests: a real `streamlit run` server and headless Debian Chromium."""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def chromium_path():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("GEODP_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required (GEODP_REQUIRE_BROWSER=1) but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install -y chromium)")
    return CHROMIUM


#: Ledgers written by the servers under test go to a temporary file (never the user's own ledger database).
_TEST_LEDGERS = os.path.join(tempfile.mkdtemp(prefix="geodp-ledgers-"), "ledgers.sqlite3")


def _serve(log_name, ledger_path=None):
    """Start ``python -m geodp_app.serve`` (what ``geodp-explorer`` runs) on a free port; ``(url, process, log)``."""
    port = _free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", GEODP_LEDGER_PATH=ledger_path or _TEST_LEDGERS)
    ARTIFACTS.parent.mkdir(parents=True, exist_ok=True)
    # The server's output goes to a file: an unread pipe fills up (64 kB of logs and warnings) and then blocks
    # the server, which stops answering (seen as page loads timing out late in a run).
    log = open(ARTIFACTS.parent / log_name, "w", encoding="utf-8")  # closed by _stop
    proc = subprocess.Popen(
        [sys.executable, "-m", "geodp_app.serve", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        _stop(proc, log)
        pytest.fail("streamlit server did not become healthy within 60 s")
    return url, proc, log


def _stop(proc, log):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def app_url(chromium_path):
    url, proc, log = _serve("streamlit-server.log")
    yield url
    _stop(proc, log)


@pytest.fixture
def fresh_app_url(chromium_path):
    """A server of its own that no session has visited yet (for what must work from the very first request)."""
    url, proc, log = _serve("streamlit-server-fresh.log")
    yield url
    _stop(proc, log)


@pytest.fixture
def restartable_app(chromium_path, tmp_path):
    """``start()`` a server whose ledgers live in one file of this test; ``stop()`` it; start again (a restart)."""
    state = {}
    ledger_path = str(tmp_path / "ledgers.sqlite3")

    class Server:
        path = ledger_path

        def start(self):
            state["url"], state["proc"], state["log"] = _serve("streamlit-server-restart.log", ledger_path)
            return state["url"]

        def stop(self):
            if "proc" in state:
                _stop(state.pop("proc"), state.pop("log"))

    server = Server()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=chromium_path,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu", "--disable-component-update",
                  "--no-first-run", "--disable-sync"],
        )
        yield b
        b.close()


#: The app has finished running its script.
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def wait_for_app(page, timeout=None, pause=1500, settle=1000):
    """Wait until the script has run to completion: twice idle after ``pause`` ms (a run may start a moment after
    a click, and query-parameter reruns follow the first), then ``settle`` ms for the browser to draw.
    ``timeout``: ms per wait (``None``: the page's default)."""
    limit = {} if timeout is None else dict(timeout=timeout)
    page.wait_for_selector("[data-testid='stMain']", **limit)
    for _ in range(2):
        page.wait_for_timeout(pause)
        page.wait_for_selector(IDLE, **limit)
    page.wait_for_timeout(settle)


#: Laptop and phone viewports of the screenshots (CSS pixels).
VIEWPORTS = {"laptop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def phone_page(browser):
    """A page at a phone's size (390×844, touch, device scale 3)."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], device_scale_factor=3, is_mobile=True,
                                  has_touch=True)
    pg = context.new_page()
    pg.set_default_navigation_timeout(120_000)
    pg.set_default_timeout(120_000)
    yield pg
    context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, accept_downloads=True)
    pg = context.new_page()
    # a loaded 2-core CI machine (the other pytest worker runs the AppTest fuzz) can delay the first byte of a
    # page for well over Playwright's default 30 s; the app's own waits already allow 120 s
    pg.set_default_navigation_timeout(120_000)
    pg.set_default_timeout(120_000)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
