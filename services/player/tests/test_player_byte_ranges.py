"""The one rule for which bytes a ``Range`` header asks for (``byte_ranges.requested_range``), and
whether a device's copy is still the file (``unchanged``, ``range_applies``)."""

import pytest
from bedside_player.byte_ranges import (
    ByteRange,
    RangeNotSatisfiable,
    entity_tag,
    range_applies,
    requested_range,
    unchanged,
    weak_tag,
)

STRONG = entity_tag("0123456789abcdef0123456789abcdef.m4b")
WEAK = weak_tag(1000, 1_700_000_000_000_000_000)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("bytes=0-", ByteRange(0, 999)),
        ("bytes=0-0", ByteRange(0, 0)),
        ("bytes=100-199", ByteRange(100, 199)),
        ("bytes=900-5000", ByteRange(900, 999)),  # a last byte past the end is the end
        ("bytes=-100", ByteRange(900, 999)),
        ("bytes=-5000", ByteRange(0, 999)),
        ("bytes=10-19, 50-59", None),  # several: the whole file
        ("bytes=\u00b2-5", None),  # a digit to Python, not a number
        (" Bytes = 5-9", ByteRange(5, 9)),  # the unit in any case, spaces forgiven
        ("items=0-10", None),
        ("bytes=", None),
        ("bytes=abc", None),
        ("bytes=5-x", None),
        ("bytes=20-10", None),
        ("bytes=-", None),
        ("bytes=" + "9" * 5000 + "-", None),  # int() refuses the number: read as no range, not a 500
        ("bytes=1000000000000000000-", None),  # 19 digits: past any file
    ],
)
def test_the_bytes_a_range_header_asks_for(header: str | None, expected: ByteRange | None) -> None:
    assert requested_range(header, 1000) == expected


@pytest.mark.parametrize("header", ["bytes=1000-", "bytes=5000-6000", "bytes=-0"])
def test_a_range_past_the_end_cannot_be_served(header: str) -> None:
    with pytest.raises(RangeNotSatisfiable):
        requested_range(header, 1000)
    with pytest.raises(RangeNotSatisfiable):
        requested_range(header, 0)  # an empty file has no bytes to name


def test_a_content_range_names_the_bytes_and_the_whole() -> None:
    assert ByteRange(100, 199).content_range(1000) == "bytes 100-199/1000"
    assert ByteRange(100, 199).length == 100


@pytest.mark.parametrize(
    ("if_none_match", "tag", "expected"),
    [
        (None, STRONG, False),
        (STRONG, STRONG, True),
        (f"W/{STRONG}", STRONG, True),  # weak comparison, as a GET's is
        (WEAK, WEAK, True),
        (f'"other", {STRONG}', STRONG, True),
        ("*", STRONG, True),
        ('"other"', STRONG, False),
        (WEAK, STRONG, False),
    ],
)
def test_a_device_whose_copy_is_the_file_is_told_it_is_unchanged(
    if_none_match: str | None, tag: str, expected: bool
) -> None:
    assert unchanged(if_none_match, tag) is expected


@pytest.mark.parametrize(
    ("if_range", "tag", "expected"),
    [
        (None, STRONG, True),
        (None, WEAK, True),
        (STRONG, STRONG, True),
        (f" {STRONG} ", STRONG, True),
        ('"0000"', STRONG, False),  # the copy is of another recording: the whole file
        (f"W/{STRONG}", STRONG, False),  # If-Range compares strongly
        (WEAK, WEAK, False),  # a weak tag is never enough to join bytes
        ("Fri, 04 Dec 2026 21:00:00 GMT", STRONG, False),  # no Last-Modified is sent to compare with
    ],
)
def test_a_range_is_sent_only_while_the_device_holds_the_same_file(
    if_range: str | None, tag: str, expected: bool
) -> None:
    assert range_applies(if_range, tag) is expected
