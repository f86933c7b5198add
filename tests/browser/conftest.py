"""Browser tests only: keep each phase's report on the test item (``item.rep_call``), so the
page fixture can save screenshots when a test failed; the device page's fixtures, for its test files
(module-scoped: each file its own system, so the files can run on two workers at once)."""

from collections.abc import Generator

import pytest
from bedside_device_page import bedside, browser, listener, open_page  # noqa: F401 - fixtures, found by name


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
