"""scripts/doctor: the one list of system pieces, what it prints and what it asks apt for."""

import hashlib
from pathlib import Path

import pytest
from bedside_embedding.minilm import MODEL_FILE

from bedside import doctor, system_pieces
from bedside.system_pieces import Group, Piece, Use, command, describe_missing, file_at, missing, select


def absent(what: str) -> system_pieces.Check:
    return lambda: f"{what} is gone"


HERE = Piece("here", Group.BUS, "always present", lambda: None, used_by=frozenset({Use.UP, Use.TESTS}))
GONE = Piece("gone", Group.CONTAINERS, "a helper", absent("gone"), "gone-pkg")
ALSO_GONE = Piece("also gone", Group.BROWSER, "for tests", absent("also gone"), "also-gone-pkg")


@pytest.fixture
def pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(system_pieces, "PIECES", (HERE, GONE, ALSO_GONE))


@pytest.mark.usefixtures("pieces")
def test_doctor_lists_every_piece_and_fails_naming_the_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert doctor.main([]) == 1
    out, err = capsys.readouterr()
    assert [line.split()[0] for line in out.splitlines()] == ["ok", "MISSING", "MISSING"]
    assert "gone (gone is gone)" in err
    assert "also-gone-pkg gone-pkg" in err


@pytest.mark.usefixtures("pieces")
def test_doctor_names_the_packages_of_the_missing_pieces_of_a_group(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert doctor.main(["containers", "--debian-packages"]) == 0
    assert capsys.readouterr().out.split() == ["gone-pkg"]
    assert doctor.main(["--for", "up", "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert doctor.main(["browser", "--quiet"]) == 1
    assert capsys.readouterr().out.split()[:3] == ["MISSING", "browser", "also"]


def test_checks_find_commands_in_sbin_and_report_absent_files(tmp_path: Path) -> None:
    assert command("sh")() is None
    assert command("no-such-bedside-command")() == "no `no-such-bedside-command` command"
    assert file_at(str(tmp_path / "nothing"))() == f"{tmp_path / 'nothing'} is absent"


def test_a_pinned_file_that_changed_is_reported() -> None:
    distribution, relative = MODEL_FILE
    wrong = hashlib.sha256(b"another model").hexdigest()
    problem = system_pieces.pinned_files(((distribution, relative), wrong))()
    assert problem is not None
    assert "expected " + wrong in problem


def test_what_bedside_up_needs_is_a_subset_of_the_list() -> None:
    up = select(use=Use.UP)
    assert {piece.group for piece in up} == {Group.BUS, Group.MODELS}
    assert all(piece.debian_package is None for piece in up)


def test_the_remedy_for_a_python_piece_is_the_bootstrap() -> None:
    python_only = Piece("model", Group.MODELS, "x", absent("model"))
    assert describe_missing(missing([python_only])).endswith(
        "`bash scripts/bootstrap` reinstalls the locked packages"
    )
