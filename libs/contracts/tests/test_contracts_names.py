"""``is_name`` is the ``Name`` contract's own check, without a model."""

import pytest
from bedside_contracts.common import Name, is_name
from bedside_contracts.ingest import UploadedFile, plain_file_name
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

NAME: TypeAdapter[str] = TypeAdapter(Name)


def fits_the_contract(text: str) -> bool:
    try:
        NAME.validate_python(text)
    except ValidationError:
        return False
    return True


@given(st.text(alphabet=st.sampled_from("aZ09_-.\n é"), max_size=70))
def test_is_name_agrees_with_the_contract(text: str) -> None:
    assert is_name(text) == fits_the_contract(text)


def test_a_trailing_newline_or_a_dot_is_no_name() -> None:
    assert is_name("ann-2")
    assert not is_name("ann\n")
    assert not is_name("a.b")
    assert not is_name("x" * 65)


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("../../etc/passwd\n.m4b", "passwd.m4b"),
        ("C:\\Users\\ann\\Night Book.m4b", "Night Book.m4b"),
        ("book\u202egpj.m4b", "bookgpj.m4b"),  # a right-to-left override would show it backwards
        ("  Night \t  Book .mp3 ", "Night Book .mp3"),
        ("E\u0301dition.epub", "\u00c9dition.epub"),  # a combining accent stays on its letter
        ("x" * 300 + ".m4b", "x" * 251 + ".m4b"),
        ("x" * 300, "x" * 255),
        ("Book.m4b.", "Book.m4b"),  # Windows drops trailing dots and spaces: the suffix said is .m4b
        ("Book.m4b . .", "Book.m4b"),
        ("E\u200b\u0301dition.epub", "\u00c9dition.epub"),  # the accent joins its letter once between
    ],
)
def test_a_file_name_a_device_sends_is_kept_plain_and_bounded(sent: str, kept: str) -> None:
    assert plain_file_name(sent) == kept
    assert UploadedFile(upload="u1", filename=sent, size=1).filename == kept


def test_a_file_name_past_any_device_is_refused() -> None:
    with pytest.raises(ValueError, match="file's name"):
        plain_file_name("x" * 600)


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("../", "unnamed"),
        ("a/\n", "unnamed"),
        ("..", "unnamed"),
        (" . ", "unnamed"),
        (".m4b", "unnamed.m4b"),
        ("C:\\books\\.epub", "unnamed.epub"),
        (" .m4b. ", "unnamed.m4b"),
        ("...m4b", "unnamed...m4b"),
    ],
)
def test_a_file_name_with_nothing_left_or_only_its_type_is_kept_as_unnamed(sent: str, kept: str) -> None:
    """A name ".m4b" was kept, then refused as "not an audiobook" (to a disk it has no suffix); then
    refused, which the API's own description of the field could not say (the fuzz test)."""
    assert plain_file_name(sent) == kept


def plain_or_refused(sent: str) -> str | None:
    try:
        return plain_file_name(sent)
    except ValueError:
        return None


@given(st.text(alphabet=st.sampled_from("aE. /\\\n\u200b\u0301\u00e9\u202e"), max_size=300))
def test_a_plain_file_name_is_kept_as_it_is(sent: str) -> None:
    """Made plain twice, a name is as made plain once: the name the page keeps is the one sent back."""
    once = plain_or_refused(sent)
    if once is not None:
        assert plain_file_name(once) == once
