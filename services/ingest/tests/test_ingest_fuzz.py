"""Whatever bytes a file holds, reading it either gives a book or raises BadInput naming the file."""

import json
import tempfile
from pathlib import Path

from bedside_ingest.errors import BadInput
from bedside_ingest.reader import read_book
from hypothesis import given, settings
from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-1, 100) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "segments",
                    "words",
                    "start",
                    "end",
                    "text",
                    "timeline",
                    "fragments",
                    "begin",
                    "lines",
                    "chapters",
                    "title",
                    "n",
                    "type",
                    "startTime",
                    "endTime",
                    "word",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


def outcome(name: str, content: bytes) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bedside-fuzz-"))
    path = folder / name
    path.write_bytes(content)
    try:
        read_book(path)
    except BadInput as error:
        message = str(error)
    else:
        return
    assert str(path) in message


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["a.vtt", "a.srt", "a.json", "a.smil", "a.txt", "a.epub"]), st.binary(max_size=300))
def test_random_bytes(name: str, content: bytes) -> None:
    outcome(name, content)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_random_json_shapes(value: object) -> None:
    outcome("a.json", json.dumps(value).encode())


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "WEBVTT",
                "",
                "1",
                "00:00:01.000 --> 00:00:02.000",
                "00:00:03,000 --> 00:00:01,000",
                "Hello there.",
                "NOTE x",
                "Chapter 1.",
                "-->",
                "00:99:00.000 --> 00:00:01.000",
                "<v A>hi</v>",
            ]
        ),
        max_size=20,
    )
)
def test_random_subtitle_lines(lines: list[str]) -> None:
    outcome("a.vtt", "\n".join(lines).encode())
    outcome("a.srt", "\n".join(lines).encode())
