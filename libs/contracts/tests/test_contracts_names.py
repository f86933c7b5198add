"""``is_name`` is the ``Name`` contract's own check, without a model."""

from bedside_contracts.common import Name, is_name
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
