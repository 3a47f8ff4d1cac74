"""The HTML report as a person sees it: rendered by headless Chromium (Debian's chromium and
chromium-driver, driven by the pinned selenium), every image decoded, the summary and the
contents list present and each contents link landing on a section. A full-page screenshot is left
in build/report-browser/ for people to look at.

Selenium drives Debian's chromedriver named by path, so it never fetches a browser or a driver
(playwright would download its own browser build, which this machine cannot)."""

from __future__ import annotations

import base64
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from aesoc import cli
from aesoc.common.toolchain import BUILD
from aesoc.report import SUMMARY_PLOT, SUMMARY_TITLE, _anchor

# A benchmark whose smoke run gives a plot of its own, summary points and verdicts: every kind of
# figure the report shows.
BENCH = "interfaces"
SCREENSHOTS = BUILD / "report-browser"
CHROMIUM = ("chromium", "chromedriver")


# What the page holds: its h2 ids, the contents list's links (and whether each lands on an
# element), and the summary section's visibility and table count (arguments[0]: its id).
PAGE_JS = """
    const h2 = Array.from(document.querySelectorAll('h2'));
    const contents = document.getElementById('contents');
    const list = contents ? contents.nextElementSibling : null;
    const links = list ? Array.from(list.querySelectorAll('a')).map(a => a.getAttribute('href')) : [];
    const summary = document.getElementById(arguments[0]);
    let tables = 0, el = summary ? summary.nextElementSibling : null;
    while (el && el.tagName !== 'H2') { tables += el.querySelectorAll('table').length
        + (el.tagName === 'TABLE' ? 1 : 0); el = el.nextElementSibling; }
    return {headings: h2.map(h => h.id), links: links,
            targets: links.map(l => !!document.getElementById(l.slice(1))),
            summary_visible: !!summary && summary.getBoundingClientRect().height > 0,
            summary_tables: tables, first_section: h2.length > 1 ? h2[1].id : null,
            list_tag: list ? list.tagName : null};
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    missing = [tool for tool in CHROMIUM if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} not found: install Debian's chromium and chromium-driver "
                    "(scripts/setup.sh does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(shutil.which("chromium"))
    # --no-sandbox: Chromium's sandbox refuses to run as root, which CI is.
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,900", "--allow-file-access-from-files"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=str(shutil.which("chromedriver"))), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory, bench_smoke: Callable[[str], Path]) -> Path:
    # A copy of the session's smoke results: `aesoc report` writes into the folder it reads.
    results = tmp_path_factory.mktemp("browser") / "results"
    shutil.copytree(bench_smoke(BENCH), results)
    # The report as `aesoc report` renders it from stored results.
    assert cli.main(["report", "--results", str(results)]) == 0
    html = results / "report.html"
    assert html.is_file()
    return html


def test_every_image_loads(browser: object, report_html: Path) -> None:
    browser.get(report_html.as_uri())  # type: ignore[attr-defined]
    images = browser.execute_script(  # type: ignore[attr-defined]
        "return Array.from(document.images).map(i => "
        "({src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth, height: i.naturalHeight}));")
    sources = [i["src"] for i in images]
    assert SUMMARY_PLOT in sources, f"the summary chart is not in the page: {sources}"
    assert len(images) >= 2, f"expected the summary chart and {BENCH}'s plot: {sources}"
    broken = [i["src"] for i in images if not (i["complete"] and i["width"] > 0 and i["height"] > 0)]
    assert not broken, f"images that did not load: {broken}"


def test_summary_and_contents_are_present(browser: object, report_html: Path) -> None:
    browser.get(report_html.as_uri())  # type: ignore[attr-defined]
    page = browser.execute_script(PAGE_JS, _anchor(SUMMARY_TITLE))  # type: ignore[attr-defined]
    assert page["headings"][:1] == ["contents"], page["headings"]
    assert page["list_tag"] == "UL" and page["links"], "no contents list under the Contents heading"
    assert all(page["targets"]), f"contents links without a section: {page['links']}"
    assert f"#{_anchor(SUMMARY_TITLE)}" in page["links"] and f"#{_anchor(BENCH)}" in page["links"]
    # The report opens with the summary, and the summary carries its tables.
    assert page["first_section"] == _anchor(SUMMARY_TITLE) and page["summary_visible"], page
    # The figures, the fastest option per size and the decision table at least.
    assert page["summary_tables"] >= 3, page
    assert "Which option for which need" in browser.page_source  # type: ignore[attr-defined]


def test_screenshot_saved(browser: object, report_html: Path) -> None:
    browser.get(report_html.as_uri())  # type: ignore[attr-defined]
    shot = browser.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    png = base64.b64decode(shot["data"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    out = SCREENSHOTS / "report.png"
    out.write_bytes(png)
    # A full page, not the first screenful: taller than the 900-pixel window.
    height = int.from_bytes(png[20:24], "big")
    assert height > 900, f"screenshot {out} is {height} px tall"
