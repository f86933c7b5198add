"""How fast the book plays, as a listener asks for it: a speed ("1.5x", "double speed", "normal
speed") or a change of the one playing ("faster", "a bit slower", "it's too fast")."""

import re

from bedside_turn.domain.intents.kinds import Speed
from bedside_turn.domain.numbers import SAID_AS_A_NUMBER, number_of

STEP = 0.25
"""What "faster" or "slower" changes the speed by."""
SMALL_STEP = 0.1
"""What "a bit faster" changes it by."""

_PLEASE = r"(?: please)?$"
_ASKING = r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
_BACK_TO = rf"back (?=to |at |.*\b(?:speed|pace)\b|(?:1|one|\d*\.\d+|{SAID_AS_A_NUMBER} and a half) ?x\b)"
"""'Back to normal speed', 'go back 1x': "back" is a move ("go back 2x" is no speed) unless a speed is
named or said as an x no move's number takes (``moves.jump_by_number_alone``): one, or a part of one, in
figures or in words ("go back 1.5x", "go back one and a half x")."""
_PLAY_AT = (
    rf"(?:i want (?:it )?|(?:(?:play|read|go|put|make)(?: it| the book)? (?:on |{_BACK_TO})?|{_BACK_TO})?"
    r"(?:at |to )?)(?:the )?"
)
_THE_SPEED = r"(?:the )?(?:reading |playback )?speed"
_A_LITTLE = r"(?:a (?:bit|little|touch|tad)|slightly)"
_CHANGED = re.compile(
    rf"{_ASKING}(?:(?:go|read|play|talk|make)(?: it| the book)? )?(?P<little>a (?:bit|little) )?"
    r"(?:(?P<faster>faster|quicker|speed (?:it )?up)|slower|slow (?:it )?down)"
    rf"(?P<little_after> {_A_LITTLE})?{_PLEASE}"
)
_TOO = re.compile(
    r"^(?:(?:it's|its|it is|that's|thats|this is|he's|she's|you're) )?(?P<how>too|a bit|a little|very|so)"
    r" (?:too )?(?:(?P<fast>fast|quick)|slow)" + _PLEASE
)
_RAISED = re.compile(
    rf"{_ASKING}(?:(?P<up>raise|increase|up)|lower|decrease|reduce) {_THE_SPEED}"
    rf"(?P<little> {_A_LITTLE})?{_PLEASE}"
)
_NAMED = re.compile(rf"{_ASKING}(?:(?:change|set|adjust) {_THE_SPEED}|playback speed){_PLEASE}")
_NUMBER = r"(?P<n>\.\d+|" + SAID_AS_A_NUMBER + r")(?P<half> and a half)?"
_SPEEDS_SAID = (
    re.compile(rf"{_ASKING}{_PLAY_AT}{_NUMBER} ?x(?: speed)?{_PLEASE}"),
    re.compile(rf"{_ASKING}{_PLAY_AT}{_NUMBER} times (?:the |normal )?(?:speed|pace){_PLEASE}"),
    re.compile(rf"{_ASKING}(?:play|read)(?: it| the book)? at {_NUMBER} times{_PLEASE}"),
    re.compile(rf"{_ASKING}{_PLAY_AT}(?P<n>\d*\.\d+)(?P<half>) times{_PLEASE}"),
    re.compile(
        rf"{_ASKING}(?:set |change |put )?{_THE_SPEED} (?:to |at )?{_NUMBER}(?: ?(?:x|times))?{_PLEASE}"
    ),
    re.compile(rf"{_ASKING}{_PLAY_AT}{_NUMBER} speed{_PLEASE}"),
)
"""A speed said as a number, the whole request: "1.5x", "play at two times speed", "set the speed to
1.25", "at 1.25 speed"; never a number said within a question ("why did she say 2x")."""
_WORDS = {
    "double": 2.0,
    "twice": 2.0,
    "half": 0.5,
    "normal": 1.0,
    "regular": 1.0,
    "usual": 1.0,
    "standard": 1.0,
}
_WORD = re.compile(
    rf"{_ASKING}{_PLAY_AT}(?P<word>{'|'.join(_WORDS)}) (?:the )?(?:speed|pace|as fast){_PLEASE}"
    rf"|{_ASKING}reset {_THE_SPEED}{_PLEASE}"
)


def speed_asked(text: str) -> Speed | None:
    """The speed ``text`` asks for, or None when it asks for none: only a request that is wholly one
    (a question about a train at half speed asks for none)."""
    text = re.sub(r"(?<=\d),(?=\d)", ".", text)  # "1,5x": a decimal comma
    if said := _WORD.search(text):
        return Speed(to=_WORDS[said["word"]] if said["word"] else 1.0)
    for speed_said in _SPEEDS_SAID:
        if said := speed_said.search(text):
            number = float(said["n"]) if said["n"].startswith(".") else number_of(said["n"])
            return Speed(to=round(number + (0.5 if said["half"] else 0.0), 2))
    if said := _CHANGED.match(text):
        step = SMALL_STEP if said["little"] or said["little_after"] else STEP
        return Speed(by=step if said["faster"] else -step)
    if said := _TOO.match(text):
        step = SMALL_STEP if said["how"] in ("a bit", "a little") else STEP
        return Speed(by=-step if said["fast"] else step)  # too fast: slower
    if said := _RAISED.search(text):
        step = SMALL_STEP if said["little"] else STEP
        return Speed(by=step if said["up"] else -step)
    if _NAMED.search(text):
        return Speed()
    return None


_AT_THE_END = re.compile(r"[\s,]+(?=at\s)")


def speed_said_last(text: str) -> tuple[str, str, Speed] | None:
    """'Sleep in 20 minutes at 1.5x': a speed said at the end of a longer request, as the words before it,
    the speed's words and the speed. Whether the words before are a request the speed goes with is the
    reader's to say: "where they drove at double speed" is a moment's words, and asks for no speed."""
    for said in reversed(list(_AT_THE_END.finditer(text))):
        before, speed_words = text[: said.start()], text[said.end() :]
        speed = speed_asked(speed_words.lower().strip(" .!?"))
        if before and speed is not None and speed.to is not None:
            return before, speed_words, speed
    return None
