"""A command word typed with one slip is read as meant; a word of the story never is."""

import json

import pytest
from bedside_embedding.minilm import TOKENIZER_FILE, installed_file
from bedside_turn.domain import intents, spelling
from bedside_turn.domain.intents import FindPlace, Jump, Question


@pytest.mark.parametrize(
    ("typed", "word"),
    [
        ("pasue", "pause"),  # two letters swapped
        ("paus", "pause"),  # one dropped
        ("timmer", "timer"),  # one added
        ("chaper", "chapter"),
        ("bakc", "back"),
        ("nxt", "next"),
        ("previos", "previous"),
        ("foward", "forward"),
        ("minuts", "minutes"),  # one slip from "minute" and from "minutes": one word either way
    ],
)
def test_a_slip_is_the_command_word_it_is_one_slip_from(typed: str, word: str) -> None:
    assert spelling.meant(typed) == word


@pytest.mark.parametrize("typed", ["pause", "Chapter", "ot", "horse", "remember", "forwards"])
def test_a_word_already_right_or_near_none_is_left(typed: str) -> None:
    assert spelling.meant(typed) is None


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("pasue", intents.Pause()),  # these were Other
        ("resum", intents.PlayOn()),
        ("nxt chapter", intents.NextChapter(1)),
        ("previos chapter", intents.NextChapter(-1)),
        ("cancle timer", intents.CancelSleepTimer()),
        ("sleep timmer 20", intents.SleepTimer(20)),
        ("chaper 3", intents.Chapter(3)),
        ("go to chaper 3", intents.Chapter(3)),  # these searched the book for the slip
        ("go bakc 30 seconds", Jump(-30_000)),
        ("rewind 30 secnods", Jump(-30_000)),
        ("go back 5 mintues", Jump(-300_000)),
        # a listener session: this moved the book 22 minutes back to a passage found for its words
        ("go bck 2 minuts", Jump(-120_000)),
        ("go forard 2 mins", Jump(120_000)),  # "mins" is shorthand, never a slip of another word
        ("add anothr 20 mins to timer", intents.TimerAdded(20)),
        # the way said with a slip: these searched "bak to where ..." over the whole book
        ("go bak to where he got sold", FindPlace("he got sold", direction="back")),
        ("take me bakc to the bit where the doctor came", FindPlace("the doctor came", direction="back")),
    ],
)
def test_a_command_typed_with_a_slip_is_read_as_meant(typed: str, meant: intents.Intent) -> None:
    assert intents.read(typed) == meant


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # near a command word, and read as a search or a question either way: as typed
        ("take me to where he hurt his head", FindPlace("he hurt his head")),
        ("go to the black horse", FindPlace("the black horse")),
        ("why did he pause at the gate?", Question("why did he pause at the gate?")),
        ("go bak to where paue sang", FindPlace("bak to where paue sang")),  # "paue" is no slip of "pause"
    ],
)
def test_words_of_the_story_are_never_respelled(said: str, read: intents.Intent) -> None:
    assert intents.read(said) == read


def test_the_real_words_left_alone_are_the_vocabularys_words_near_a_command_word() -> None:
    """ "Top the timer up" was put right as "stop the timer" and cancelled it."""
    tokenizer = json.loads(installed_file(*TOKENIZER_FILE).read_text())
    words = [word for word in tokenizer["model"]["vocab"] if word.isalpha() and word.islower()]
    near = {
        word
        for word in words
        if len(word) >= spelling.SHORTEST_SLIP and word not in spelling.COMMAND_WORDS
        for command in spelling.COMMAND_WORDS
        if spelling.one_slip_apart(word, command)
    }
    assert near == spelling.REAL_WORDS_NEAR
    assert intents.read("Top the timer up with another 5 minutes.") != intents.CancelSleepTimer()
