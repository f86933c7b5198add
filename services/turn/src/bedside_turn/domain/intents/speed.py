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
_A_LITTLE = r"(?:a (?:bit|little|touch|tad)|slightly)"
_CHANGED = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:(?:go|read|play|talk) )?(?P<little>a (?:bit|little) )?"
    r"(?:(?P<faster>faster|quicker|speed (?:it )?up)|slower|slow (?:it )?down)"
    rf"(?P<little_after> {_A_LITTLE})?{_PLEASE}"
)
_TOO = re.compile(
    r"^(?:(?:it's|its|it is|that's|thats|this is|he's|she's|you're) )?(?P<how>too|a bit|a little|very|so)"
    r" (?:too )?(?:(?P<fast>fast|quick)|slow)" + _PLEASE
)
_RAISED = re.compile(
    r"\b(?:(?P<up>raise|increase|up)|lower|decrease|reduce) the (?:reading |playback )?speed\b"
)
_NAMED = re.compile(r"\b(?:change|set|adjust) the (?:reading |playback )?speed\b|\bplayback speed\b")
_NUMBER = rf"(?P<n>{SAID_AS_A_NUMBER})(?P<half> and a half)?"
_SPEEDS_SAID = (
    re.compile(rf"\b{_NUMBER} ?(?:x|times) (?:the |normal )?(?:speed|pace){_PLEASE}"),
    re.compile(rf"^(?:(?:play|read|go|put) (?:it )?(?:at )?)?{_NUMBER} ?(?:x|times){_PLEASE}"),
    re.compile(rf"\b(?P<n>\d+(?:\.\d+)?)(?P<half>)x{_PLEASE}"),
    re.compile(rf"\bspeed (?:to|of|at) {_NUMBER}(?: ?(?:x|times))?{_PLEASE}"),
    re.compile(rf"\bat {_NUMBER} speed{_PLEASE}"),
)
"""A speed said as a number: "1.5x", "two times speed", "set the speed to 1.25", "at 1.25 speed"; "three
times" alone or after "play at", not at the end of a question ("who knocked three times")."""
_WORDS = {"double": 2.0, "half": 0.5, "normal": 1.0, "regular": 1.0, "usual": 1.0, "standard": 1.0}
_WORD = re.compile(rf"\b(?P<word>{'|'.join(_WORDS)}) (?:speed|pace){_PLEASE}|\breset the speed\b")


def speed_asked(text: str) -> Speed | None:
    """The speed ``text`` asks for, or None when it asks for none."""
    if said := _WORD.search(text):
        return Speed(to=_WORDS[said["word"]] if said["word"] else 1.0)
    for speed_said in _SPEEDS_SAID:
        if said := speed_said.search(text):
            return Speed(to=number_of(said["n"]) + (0.5 if said["half"] else 0.0))
    if said := _CHANGED.match(text):
        step = SMALL_STEP if said["little"] or said["little_after"] else STEP
        return Speed(by=step if said["faster"] else -step)
    if said := _TOO.match(text):
        step = SMALL_STEP if said["how"] in ("a bit", "a little") else STEP
        return Speed(by=-step if said["fast"] else step)  # too fast: slower
    if said := _RAISED.search(text):
        return Speed(by=STEP if said["up"] else -STEP)
    if _NAMED.search(text):
        return Speed()
    return None
