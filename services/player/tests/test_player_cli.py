"""`bedside listener ...`: what is refused before anything is sent."""

import pytest
from bedside_player.cli import listener_app
from typer.testing import CliRunner


@pytest.mark.parametrize("command", ["add", "remove"])
def test_a_listener_id_that_is_not_a_name_is_refused_in_the_words_of_every_other_id(command: str) -> None:
    result = CliRunner().invoke(listener_app, [command, "anna b"])
    assert result.exit_code == 2
    assert "'anna b' is not an id: an id is 1 to 64 letters" in " ".join(result.output.split())
