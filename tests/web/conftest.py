"""What the web tests share: `ginscore serve` run by the installed script on a free port of the
loopback (always stopped), and a headless Chromium driven by Playwright.

The browser is Debian's chromium (`apt-get install chromium`; .ci/run installs it), or the one
$GINSCORE_BROWSER names; Playwright's own download is not used. Where none is found the browser
tests are skipped, saying why; they are never passed.
"""

from __future__ import annotations

import pytest

from tests.web.browsing import chromium, Served, start_serving


@pytest.fixture
def serving():
    """Start `ginscore serve` with the arguments given; every server started is stopped after the test."""
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(start_serving(*args))
        return started[-1]

    yield start
    for served in started:
        served.stop()


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium for this test worker; skipped, with the reason, where none can be driven."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("no browser tests: Playwright is not installed (pip install -e '.[test]')")
    executable = chromium()
    if executable is None:
        pytest.skip("no browser tests: no Chromium found (apt-get install chromium, or set $GINSCORE_BROWSER)")
    driver = sync_playwright().start()
    try:
        launched = driver.chromium.launch(executable_path=executable, headless=True)
    except Exception as error:  # a browser that is there but cannot start: said, not passed
        driver.stop()
        pytest.skip(f"no browser tests: {executable} did not start ({str(error).splitlines()[0]})")
    yield launched
    launched.close()
    driver.stop()


@pytest.fixture
def page_at(browser):
    """Open an address in a new page of the given size (a phone by default), once it shows its data.
    A page that runs any dialog (an injected alert) fails the test."""
    opened = []

    def open_page(address: str, width: int = 390, height: int = 844, scheme: str = "light", clock: bool = False):
        """``clock``: the page's clock and timers are the test's to move (``page.clock.run_for``)."""
        page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
        opened.append(page)
        if clock:
            page.clock.install()
        page.dialogs = []
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(address)
        page.wait_for_selector("body[data-updates]", timeout=10_000)
        return page

    yield open_page
    for page in opened:
        assert not page.dialogs, f"a dialog ran on the page: {page.dialogs}"
        page.close()
