import pytest
import typer
from bedside_runtime.cli_args import parse_clock


@pytest.mark.parametrize(
    ("text", "ms"), [("1:02:03", 3_723_000), ("12:30", 750_000), (" 0:00 ", 0), ("10:00:00", 36_000_000)]
)
def test_a_book_time_is_read_as_milliseconds(text: str, ms: int) -> None:
    assert parse_clock(text) == ms


@pytest.mark.parametrize("text", ["1:60:00", "0:61", "12", "1:2:3", "an hour", "-1:00"])
def test_what_is_not_a_book_time_is_a_bad_argument(text: str) -> None:
    with pytest.raises(typer.BadParameter):
        parse_clock(text)
