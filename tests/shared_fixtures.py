"""Shared fixtures (loaded by the root conftest.py for every test folder): a built site, local
servers for it, and Debian's Chromium (its headless shell) through Playwright."""

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections import deque
from itertools import zip_longest
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

ROOT = Path(__file__).resolve().parent.parent

# Chromium as this machine runs it headless: no sandbox as root, and none of the background
# services that would try to reach the internet.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# A folder for passed quality gates that outlives the test run (kept_gates).
TEST_GATE_CACHE_VARIABLE = "WERKPLAATS_TEST_GATE_CACHE"


def run_folder(tmp_path_factory, worker_id) -> Path:
    """The test run's temporary folder, the same for every xdist worker (above the workers' own)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if worker_id != "master" else base


@pytest.fixture(scope="session", autouse=True)
def kept_gates(tmp_path_factory, worker_id):
    """Every build of the run (build.py in a child process, or builder.cli in this one) keeps the
    quality gates that passed in one folder (`--gate-cache` through WERKPLAATS_GATE_CACHE): the
    same lesson gated once per run, not once per build. A gate that fails is never kept, so every
    test of a failing gate still runs it; tests that count gate runs take the variable away.

    With WERKPLAATS_TEST_GATE_CACHE (`make test-fast` sets it to a folder in .venv/), the folder
    outlives the run: the next run of the fast lane skips the gates of lessons whose inputs (the
    lesson's checkpoint files, the runner, the interpreter and its packages) are unchanged. `make
    test`, what CI runs, keeps them for one run only."""
    from builder.cli import GATE_CACHE_VARIABLE

    kept_in = os.environ.get(TEST_GATE_CACHE_VARIABLE) or str(run_folder(tmp_path_factory, worker_id) / "passed-gates")
    patch = pytest.MonkeyPatch()
    patch.setenv(GATE_CACHE_VARIABLE, kept_in)
    yield
    patch.undo()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id) -> Path:
    """The real site, built by build.py once per test run: the first xdist worker to need it
    builds it (a build gates every lesson, so it is dear), the others wait on the lock and reuse
    it. Tests only read it."""
    shared = run_folder(tmp_path_factory, worker_id)
    out, failure = shared / "shared-site" / "_site", shared / "shared-site" / "build-failed.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(shared / "shared-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.is_dir() and not failure.is_file():
            completed = subprocess.run(
                [sys.executable, str(ROOT / "build.py"), "--out", str(out)],
                cwd=ROOT, capture_output=True, text=True,
            )
            if completed.returncode != 0:
                failure.write_text(completed.stderr, encoding="utf-8")
    assert not failure.is_file(), failure.read_text(encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def site_server(built_site):
    """Serves the built site with the cross-origin isolation headers, like `build.py serve`."""
    from builder.serve import start_server

    server = start_server(built_site, isolated=True)
    yield server
    server.close()


@pytest.fixture(scope="session")
def plain_site_server(built_site):
    """Serves the same site without isolation headers, like a plain static host."""
    from builder.serve import start_server

    server = start_server(built_site, isolated=False)
    yield server
    server.close()


# The browser the tests drive: Debian's Chromium headless shell, the same Blink and V8 as its
# `chromium` (one source package, one version) without the windows, tabs and profile services of
# the full browser, which a headless test never shows. A new context and page there cost a tenth
# to a half of the CPU (bench/browser_page_cost.py), and the suite opens some hundreds. Where the
# shell is not installed (`make browser` could not get it), the full `chromium`: the same
# verdicts, more CPU. WERKPLAATS_CHROMIUM names the one to drive (`WERKPLAATS_CHROMIUM=chromium
# make test`: the full browser). The benches (bench/) time what learners see, so they drive the
# full `chromium`.
CHROMIUM_VARIABLE = "WERKPLAATS_CHROMIUM"
CHROMIUM_FOR_TESTS = ("chromium-headless-shell", "chromium")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    wanted = os.environ.get(CHROMIUM_VARIABLE)
    for name in (wanted,) if wanted else CHROMIUM_FOR_TESTS:
        path = shutil.which(name)
        if path is not None:
            return path
    pytest.fail(f"{wanted or 'chromium'} is not installed: run `make test`, which installs Debian's chromium "
                f"and chromium-headless-shell")


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS,
        )
        PAGE_CONSOLE.record_every_context_of(browser)
        yield browser
        browser.close()


class PageConsole:
    """The warnings and errors that pages wrote to their console, and errors nobody caught, while
    the current test ran: a failed browser test shows them in a section of its report ("page
    console"), so a failure that comes once in many runs (a worker replaced under load, say) says
    what the page saw. Every context of the session's browser is recorded, a test's own too."""

    KEPT = 60  # the last lines, enough for one test's page; a test that logs in a loop stays short

    def __init__(self) -> None:
        self.lines: deque[str] = deque(maxlen=self.KEPT)

    def record_every_context_of(self, browser) -> None:
        new_context = browser.new_context

        def recorded_context(*args, **kwargs):
            context = new_context(*args, **kwargs)
            context.on("console", self.console_message)
            context.on("weberror", lambda error: self.add(f"uncaught: {error.error}"))
            return context

        browser.new_context = recorded_context  # our tests make every page in a context of their own

    def console_message(self, message) -> None:
        if message.type in ("warning", "error"):
            self.add(f"{message.type}: {message.text}")

    def add(self, line: str) -> None:
        self.lines.append(line)


PAGE_CONSOLE = PageConsole()


def pytest_runtest_setup(item):
    PAGE_CONSOLE.lines.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and PAGE_CONSOLE.lines:
        report.sections.append(("page console", "\n".join(PAGE_CONSOLE.lines)))


class RequestLog:
    """Every URL a page asked for, to prove nothing leaves localhost."""

    def __init__(self):
        self.urls: list[str] = []

    def outside_localhost(self) -> list[str]:
        from urllib.parse import urlsplit

        local = {"127.0.0.1", "localhost", "[::1]", "::1"}
        return [
            url for url in self.urls
            if urlsplit(url).scheme in ("http", "https", "ws", "wss")
            and urlsplit(url).hostname not in local
        ]


def uses_plain_server(request) -> bool:
    callspec = getattr(request.node, "callspec", None)
    return "plain_site_server" in request.fixturenames or (
        callspec is not None and "plain_site_server" in callspec.params.values())


@pytest.fixture
def page(first_visit_page):
    """A fresh browser context (empty localStorage) and page: see `first_visit_page`. A folder may
    give `page` another meaning (widgets/conftest.py); `first_visit_page` stays this."""
    return first_visit_page


@pytest.fixture
def first_visit_page(browser, request):
    """A fresh browser context (empty localStorage) and page; `page.request_log` records URLs.

    With `plain_site_server` the context has no service worker: the page stays without
    cross-origin isolation, as on a plain-http school server where no service worker can run
    (with one, the site's service worker adds the headers after one reload:
    test_isolation_by_service_worker.py)."""
    context = browser.new_context(service_workers="block" if uses_plain_server(request) else "allow")
    page = context.new_page()
    log = RequestLog()
    page.on("request", lambda request: log.urls.append(request.url))
    page.request_log = log
    yield page
    context.close()


# A Python memory snapshot in the site's cache (site/src/offline.js) once a first visit kept it.
SNAPSHOT_STORED = "document.documentElement.dataset.pythonSnapshot === 'stored'"


@pytest.fixture(scope="session")
def snapshot_context(browser, site_server):
    """One browser context per worker whose service worker keeps the Python memory snapshot of a
    first visit (as a returning learner's browser does), so that a page opened in it starts
    Python from the snapshot: about 2 s of CPU instead of a cold start's 10 s. Only for tests of
    what Python does once started; tests of the start itself use `page`."""
    from tests.browser.editor_page import COLD_START_MS, EditorPage

    context = browser.new_context(service_workers="allow")
    first = context.new_page()
    editor = EditorPage.open(first, site_server)
    assert editor.run("print('klaar')") == "klaar\n"
    first.wait_for_function(SNAPSHOT_STORED, timeout=COLD_START_MS)
    first.close()
    yield context
    context.close()


@pytest.fixture
def restored_page(snapshot_context, site_server):
    """A new page of `snapshot_context` (site_server's origin) with nothing of an earlier test:
    its localStorage and sessionStorage are emptied first; only the site's cache (the built
    files and the Python snapshot) is shared. `page.request_log` as in `page`."""
    page = snapshot_context.new_page()
    page.goto(f"{site_server.url}__no_such_page__")  # of the origin, but no lesson that reads storage
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    assert page.evaluate("() => localStorage.length + sessionStorage.length") == 0
    log = RequestLog()
    page.on("request", lambda request: log.urls.append(request.url))
    page.request_log = log
    yield page
    page.close()


BROWSER_FIXTURES = {"browser", "page", "first_visit_page", "chromium_path", "restored_page", "snapshot_context"}
# Measured wall seconds of each group of tests (bench/suite_times.py --write-costs writes it).
SUITE_COSTS = Path(__file__).resolve().parent / "suite_costs.json"


def xdist_group(nodeid: str) -> str:
    """The unit of work one xdist worker runs whole: a test file, or one lesson's tests of a file
    whose tests are parametrized by lesson alone (they share that lesson's dear state: its
    mutation run, its graded corpus), so the lessons of one file spread over the workers."""
    from tests.lessons.lesson_tests import LESSON_IDS

    file, _, rest = nodeid.partition("::")
    param = rest[rest.find("[") + 1:-1] if rest.endswith("]") and "[" in rest else None
    return f"{file}:{param}" if param in LESSON_IDS else file


class GroupScheduling(LoadScopeScheduling):
    """`--dist loadgroup` with our groups (xdist_group above) in place of xdist_group marks, which
    pytest 9 ignores (xdist 3.8 renames the test by its private `_nodeid`, which pytest 9 no
    longer reads). Each free worker takes the next whole group, in the collection's order."""

    def _split_scope(self, nodeid: str) -> str:
        return xdist_group(nodeid)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadgroup":
        config.option.loadscopereorder = False  # the collection's order is dearest first already
        return GroupScheduling(config, log)
    return None


def measured_costs() -> dict[str, float]:
    try:
        return json.loads(SUITE_COSTS.read_text(encoding="utf-8"))["wall_seconds"]
    except (OSError, ValueError, KeyError):
        return {}


def pytest_collection_modifyitems(config, items):
    """Every test that drives Chromium is a `browser` test, wherever it lives, so the fast lane
    (`make test-fast`: `-m "not browser and not slow"`) can never start a browser by accident.

    With `--dist loadgroup` (`make test`) each test is in its xdist_group, and the groups run
    dearest first (by their measured wall time), browser and other groups taking turns: xdist hands
    out one group at a time to the worker that is free, so the long ones start early and the short
    ones fill the gaps at the end, instead of one worker being left with every browser test (as
    plain `--dist load` did); and while one worker builds the site that every browser test waits
    for, the others have work that needs no site."""
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())) and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
    # An xdist worker sees `--dist loadgroup` as `loadgroup` (its own `dist` is "no").
    if not getattr(config.option, "loadgroup", False):
        return
    by_group: dict[str, list] = {}
    for item in items:
        by_group.setdefault(xdist_group(item.nodeid), []).append(item)
    costs = measured_costs()
    dearest_first = sorted(by_group, key=lambda group: -costs.get(group, 0.0))  # stable: unmeasured keep their order
    browser = [group for group in dearest_first if any(item.get_closest_marker("browser") for item in by_group[group])]
    other = [group for group in dearest_first if group not in set(browser)]
    taking_turns = [group for pair in zip_longest(browser, other) for group in pair if group is not None]
    items[:] = [item for group in taking_turns for item in by_group[group]]
