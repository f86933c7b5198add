"""The words every reading shares: numbers, units and amounts of time, and what dictation and
sleepy typing write put back as said (``normalise``)."""

import re

from bedside_turn.domain import numbers

UNIT_MS = {"second": 1_000, "sec": 1_000, "minute": 60_000, "min": 60_000, "hour": 3_600_000}

NUMBER_SAID = numbers.SAID
NUMBER = f"({NUMBER_SAID})"
BARE_NUMBER_SAID = numbers.SAID_AS_A_NUMBER
UNIT = r"(?:second|sec|minute|min|hour)"
_AND_A_PART = r"(?:\s+and\s+a\s+(?:half|quarter))"
_QUARTER_HOUR = r"quarters?\s+(?:of\s+)?(?:an?\s+)?hour"
_QUARTERS = re.compile(rf"(?:(a|one|three)\s+)?{_QUARTER_HOUR}")


def _amount_in(unit: str) -> str:
    """One amount said in ``unit``: "20 minutes", "half an hour", "one and a half hours"."""
    quarters = rf"|(?:(?:a|one|three)\s+)?{_QUARTER_HOUR}" if unit == "hour" else ""
    return (
        rf"(?:(?:an?\s+)?half(?:\s+an?)?\s+{unit}|{NUMBER_SAID}{_AND_A_PART}?\s+{unit}s?"
        rf"{_AND_A_PART}?{quarters})\b"
    )


_HOURS, _MINUTES, _SECONDS = _amount_in("hour"), _amount_in("(?:minute|min)"), _amount_in("(?:second|sec)")
_AND = r"\s+(?:and\s+)?"
AMOUNT = rf"(?:{_HOURS}(?:{_AND}{_MINUTES})?(?:{_AND}{_SECONDS})?|{_MINUTES}(?:{_AND}{_SECONDS})?|{_SECONDS})"
"""An amount of time said, as ``amount_ms`` reads it: "20 minutes", "half an hour", "a half hour",
"one and a half hours", "an hour and a half", "an hour and a quarter", "a quarter of an hour", and in
two units, each smaller than the one before, "an hour and ten minutes" ("5 minutes and 20 minutes"
is two amounts: "go back 5 minutes and a 20 minute timer")."""
_SAID_AMOUNT = re.compile(rf"(?:(half)(?:\s+an?)?|{NUMBER}({_AND_A_PART})?)\s+({UNIT})s?({_AND_A_PART})?")
QUESTION_START = re.compile(
    r"^(who|what|whats|what's|whatever|why|which|how|whose|is|was|were|did|does|do|has|had|are"
    r"|will(?! you\b)|(?:(?:can|could|would) you (?:please )?)?(?:tell me|remind me)|explain|quick question"
    r"|i (?:forget|forgot|lost track of|can'?t remember|don'?t remember) (?=who|what|where|why|which|how))\b"
)
ASKING_WHEN = re.compile(
    r"^(?:when|where)(?:'s|\s+(?:did|does|do|is|was|were|will|has|had|are|can|could|would|should)\b)"
)
_FILLER = re.compile(
    r"^(?:ok(?:ay)?|um+|uh+|erm*|hm+|ah+|hey|so|and|oh|please|bedside|like|shh+|briefly|ugh+|oi|yeah|yes|yep)"
    r"(?:[,\s]|\.\.\.|…)+"
    r"|^(?:wait|hang on|sorry|actually|well|alright|right|excuse me|(?:no )?i'm (?:still )?awake),\s*"
    r"|^go (?:on|ahead)(?: then)? and\s+"
)
"""Words said before what is asked; those that can be what is asked ("wait a minute", "sorry?") only
when a comma, a pause, follows them ("wait, what happened to Ginger?"); "go on (then) and tell me" is go
ahead, neither a play nor a move ahead."""


_SOUNDS_LIKE_A_NUMBER = {
    "won": "one",
    "to": "two",
    "too": "two",
    "tree": "three",
    "free": "three",
    "for": "four",
    "fore": "four",
    "fie": "five",
    "ate": "eight",
    "tin": "ten",
}
"""A number as dictation writes it, where nothing but a number can stand: after a way or a timer said
first, before a unit or at the end ("go back won minute", "sleep in to hours", "rewind ate"), after
"chapter", "number" or "option" at the end; never inside a sentence ("when John went back for hours")."""
_SAID_AS_A_WORD_TOO = frozenset({"to", "too", "for", "fore"})
"""Words a request may end with as themselves ("... and set a timer too", a clip cut short at "go back
to"): a number only before a unit."""
_COMMAND_SAID = (
    r"^((?:(?:ok|okay|please|can you|could you|just) )*(?:(?:go|skip|jump|move|fast) )?"
    r"(?:back|forward|forwards|ahead|rewind|skip)"
    r"|(?:(?:ok|okay|please|just) )*(?:sleep|stop|pause|(?:(?:set )?(?:a |the )?(?:sleep )?)timer)"
    r"(?: in| for| after)?"
    r"|add|extend(?: the timer)?(?: by)?)"
)
_UNIT_ENDS = r"(?: please| and\b| then\b|,|$)"
"""Where a unit said ends what is asked ("back won minute", "... and sleep in 20"): a unit with more
after it is a place ("skip to minute 5") or a moment ("back to minutes before the fire")."""
_TYPED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(typed), said)
    for typed, said in (
        (r"^-\s*(?=\d)", "back "),
        (r"^\+\s*(?=\d[^,]*\bon (?:the |my )?(?:sleep )?timer\b)", "add "),
        (r"^\+\s*(?=\d)", "forward "),
        (r"\b(?:chapter|chap|chpt|ch)\.?\s*(?=\d)", "chapter "),
        (r"\b(?:chap|chpt|ch)\.?$", "chapter"),
        (r"\b(\d{1,3})\s?(?:h|hrs?)(?=\d)", r"\1 hours "),
        (r"\b(\d{1,3})\s?(?:s|secs?)\b", r"\1 seconds"),
        (r"\b(\d{1,3})\s?(?:m|mins?)\b", r"\1 minutes"),
        (r"\b(\d{1,3})\s?(?:h|hrs?)\b", r"\1 hours"),
        (r"\bhr\b", "hour"),
        (r"\bfourty\b", "forty"),
        (r"\bnintey\b|\bninty\b", "ninety"),
        (r"\bfi(?:th|ve|ff)teen\b", "fifteen"),
        (r"\b(?:fwd|ffwd|ff)\b", "forward"),
        (r"^paws\b", "pause"),
        (r"\bu\b", "you"),
        (r"\br\b", "are"),
        (r"\bwich\b", "which"),
        (r"^(?:wear|were) (?=am i|are we)", "where "),
        (r"\bfastforward\b", "fast forward"),
        (r"\b(?:rew|rw|rr)\b", "rewind"),
        (r"\bbk\b", "back"),
        (r"\bslp\b", "sleep"),
        (r"\bsleeptimer\b", "sleep timer"),
        (r"^un ?pause$", "play"),
        (r"\bwhr\b", "where"),
        (r"\bwots\b", "what's"),
        (rf"\b(an|one|won|half an|\d+) our(?={_UNIT_ENDS})", r"\1 hour"),
        (r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten) ours\b", r"\1 hours"),
        (r"\b(back|ahead|forward|rewind|skip|in|for) have an? hour\b", r"\1 half an hour"),
        *(
            (
                rf"{_COMMAND_SAID} {heard}(?= (?:more )?(?:minute|hour|second|min)s?{_UNIT_ENDS}"
                rf"{'' if heard in _SAID_AS_A_WORD_TOO else '| please$|$'})",
                rf"\1 {meant}",
            )
            for heard, meant in _SOUNDS_LIKE_A_NUMBER.items()
        ),
        *(
            (
                rf"\bchapter ((?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety) )?{heard}$",
                rf"chapter \1{meant}",
            )
            for heard, meant in _SOUNDS_LIKE_A_NUMBER.items()
        ),
        *((rf"^(number|option) {heard}$", rf"\1 {meant}") for heard, meant in _SOUNDS_LIKE_A_NUMBER.items()),
        (r"^((?:the )?(?:first|second|third|fourth|fifth|last|next|other|that)) won$", r"\1 one"),
        (r"\btimer 4 (?=\d)", "timer for "),
        (r"\b(\d+)\s*-\s*(?=\d+ (?:minutes?|seconds?|hours?)\b)", r"\1 to "),
        (r"\b(\S+) or so (?=(?:minutes?|seconds?|hours?)\b)", r"\1 "),
        (r"\ba (minute|hour) or two\b", r"2 \1s"),
        (r"\b(back|forward|ahead|rewind|skip) a couple$", r"\1 2"),
        (r"\b(back|forward|ahead|rewind|skip) a few$", r"\1 3"),
        (r"\b(take me|go|bring me) back where\b", r"\1 back to where"),
        (r"^hour timer$", "an hour timer"),
        (r"\bive\b", "i've"),
        (r"\balseep\b", "asleep"),
        (r"\bcoupla\b", "couple of"),
        (r"^(couple|few) more\b", r"a \1 more"),
        (r"\b(back|forward|ahead|rewind|skip) couple\b", r"\1 a couple of"),
        (r"^wher\b", "where"),
        (r"^off in ", "stop in "),
        (r"^in (\S+(?: minutes?| hours?)?),? (?:stop|pause|sleep|off)$", r"stop in \1"),
        (r"\bback wards\b", "backwards"),
        (r"\b(after|in) (?:to|too) (more )?chapters\b", r"\1 2 \2chapters"),
        (r"^revert$", "undo"),
        (r"^skip (?:the |this )?chapter$", "next chapter"),
        (r"^extend(?: it)? (?:by )?(?=\d)", "extend the timer by "),
        (r"\bdidnt\b", "didn't"),
        (r"\btil\b", "till"),
        (r"\babit\b", "a bit"),
        (r"\blil\b", "little"),
        (r"\bhappend\b", "happened"),
        (r"\bwaht\b", "what"),
        (r"\bmis\b(?= out\b|$)", "miss"),
        (r"\b(go|take me|bring me|skip|jump) their$", r"\1 there"),
        (r"\b(skip|go|jump|fast forward|move) a head\b", r"\1 ahead"),
        (r"\bfast for ?word\b", "fast forward"),
        (r"^und(?:ue)?$", "undo"),
        (r"\bto far$", "too far"),
        (r"\b(why|where|what|how|who)'d\b", r"\1 did"),
        (r"\bprev\b", "previous"),
        (r"^tl;? ?dr$", "recap"),
        (r"\bhw\b", "how"),
        (r"\b(\d+)ish\b", r"\1"),
        (r"\b(?:pls|plz)\b", "please"),
        (r"^(?:thx|ty|tysm|ty ?vm)$", "thanks"),
        (r"^gn$", "goodnight"),
        (r"\b(?:wot|wat|wht)(?=\b|'s\b)", "what"),
        (r"\b(who|where|what|how)s\b", r"\1's"),
        (r"\b(why|where|what|how|who)d\b", r"\1 did"),
        (r"\bwhys\b", "why is"),
        (r"\b(fell|fall|falling|was|were|been|am) a sleep\b", r"\1 asleep"),
        (
            r"\b(start|started|begin|began|listen\w*|stop|stopped|miss|missed|asleep|sleep|slept) to night\b",
            r"\1 tonight",
        ),
        (r"\bthe end on\b", "the end of"),
        (r"^cancell?ed\b", "cancel"),
        (r"^(stop|sleep|pause) at (?=\S+(?: \S+)? (?:minutes?|hours?)(?: please)?$)", r"\1 in "),
    )
)
"""Shorthand typed on the page, as it would be said: "ch 5", "back 30s", "fwd 2m", "prev", "thx"; a
number a recogniser wrote as the word it sounds like ("sleep in to minutes", "go to chapter to", "back
won minute", "half an our"), only beside a unit, a chapter or a row, where the word itself means
nothing; a range or a rough amount as its larger number ("5-10 minutes", "ten or so minutes"); and
a word it wrote as two ("where did I fall a sleep", "where did I start to night") or as one near it
("stop at the end on chapter 3", "cancelled the timer", "stop at fifteen minutes")."""
_UNIT_LEFT_UNSAID = re.compile(
    rf"\b{NUMBER_SAID}\s+(?P<unit>hour|minute|min)s?\s+(?:and\s+)?{BARE_NUMBER_SAID}\b"
    r"(?!\s*(?:seconds?|secs?|minutes?|mins?|hours?|:|%|percent|more)\b)"
)
"""A second part said without its unit, "1 minute 30", "2 hours 15": the next unit down; not one with
"more" after it, which is a second request ("back 5 minutes and 10 more on the timer")."""
_NEXT_UNIT = {"hour": "minutes", "minute": "seconds", "min": "seconds"}


_BUTTON_SAID = {"⏸": "pause", "⏯": "play", "▶": "play"}
_BUTTONS = re.compile("[⏸⏯▶]\ufe0f?")
"""A player's button typed as its symbol: what it does."""
_PICTURES = re.compile("[\u2300-\u23ff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+")
"""Emoji typed beside the words ("sleep in 20 😴", "thanks 🙏"): they ask nothing."""
_FILLER_INSIDE = re.compile(
    r"(?:(?<=\s)|^)(?:um+|uh+|erm+|er"
    rf"|like(?= (?:half|{numbers.SAID_AS_A_NUMBER}|a (?:couple|few)|an? (?:hour|minute))\b))"
    r"(?:\s+|(?:\.{2,}|…)\s*|$)"
)
"""A recogniser's hesitations wherever they fall: "can you um pause", "back uh... five minutes"."""
_TRAILING_OFF = re.compile(r"\s*(?:\.{2,}|…)\s*(?=\w)")
"""A pause written as an ellipsis inside what is said ("back... five minutes"): it ends no request."""


_COUNT = rf"(?:{numbers.SAID_AS_A_NUMBER}|an?)"
REFUSING = r"(?:don'?t|do not)"
"""The words a request refuses with ("don't go back ten minutes", "don't cancel the timer")."""
NOT_MEANT = r"(?:not|never|instead of|rather than)"
"""The words an alternative is refused with, said beside the one meant ("back, not forward", "10 not 5
minutes")."""
_PUT_RIGHT = r"(?:no,? wait|no|nope|sorry|actually|i mean|i meant|or rather|make (?:it|that))"
_AMOUNT_EITHER = re.compile(
    rf"\b{numbers.SAID_AS_A_NUMBER} (?:or|to) (?P<more>{numbers.SAID_AS_A_NUMBER}) (?P<unit>{UNIT}s?)\b"
)
"""An amount said as a range ("three or four minutes", "five to ten minutes"): the larger, so going
back, nothing of what they missed is left out."""
_AMOUNT_NOT_MEANT = re.compile(
    rf"\b(?P<meant>{numbers.SAID_AS_A_NUMBER}),? (?:no,? )?{NOT_MEANT},? {numbers.SAID_AS_A_NUMBER}"
    rf"(?:,? (?P<unit>{UNIT}s?)\b|(?=$|,| please\b))"
)
"""An amount refused between the one meant and its unit ("back 10 not 5 minutes"; read nearest the
unit, the one refused was taken), or at the end ("back 3 not 2"): the first. Not inside a moment
described (``_A_MOMENT_SAID``): "where he said ten not five minutes" is the book's words."""
_A_MOMENT_SAID = re.compile(r"\b(?:where|when|the (?:part|bit|moment|scene))\b")


def _amount_meant(said: re.Match[str]) -> str:
    if _A_MOMENT_SAID.search(said.string, 0, said.start()):
        return said[0]
    return " ".join(filter(None, (said["meant"], said["unit"])))


_CHAPTER_CORRECTED = re.compile(
    rf"\bchapter {numbers.SAID_AS_A_NUMBER},? (?:(?:{_PUT_RIGHT}|wait),? )+(?:chapter )?"
    rf"(?P<then>{numbers.SAID_AS_A_NUMBER})(?=$|,| please\b| instead\b| and\b)"
)
"""A chapter put right as it is said ("go to chapter 12, no, 11"): the second."""
_AMOUNT_CORRECTED = re.compile(
    rf"\b{_COUNT} (?P<unit>{UNIT}s?),? (?:{_PUT_RIGHT},? )+"
    rf"(?P<then>{numbers.SAID_AS_A_NUMBER})(?: (?P<unit_then>{UNIT}s?))?(?=$|,| please\b| instead\b| and\b)"
)
"""An amount put right as it is said ("back five minutes... no, ten"): the second, in the first's unit
unless it says its own. Only a number ending what is said, or followed by its unit, puts one right:
"the last ten minutes no one told me" and "thirty minutes... wait a minute" put nothing right."""
_WAY_SAID = r"(?:back(?:wards?)?|forwards?|ahead)"
_AMOUNT_WORD = (
    rf"(?:{numbers.SAID_AS_A_NUMBER}|{UNIT}s?|chapters?"
    r"|an?|by|of|or|so|half|quarter|few|couple|bit|little|more)"
)
"""The words an amount is said in ("half an hour", "a couple of minutes", "a chapter", "a bit")."""
_WAY_CORRECTED = re.compile(
    rf"\b{_WAY_SAID}(?P<amount>(?: {_AMOUNT_WORD}){{0,6}}),? (?:(?:{_PUT_RIGHT}|wait),? )+"
    rf"(?:(?:go|skip|jump|take me|move) )?(?P<then>{_WAY_SAID})(?P<rest>(?: please)?$| \S.*$)"
)
"""A way put right as it is said ("forward five minutes... no, back", "back, no, forward two minutes"): the
second way, with the first one's amount unless the second says its own."""


def _way_put_right(said: re.Match[str]) -> str:
    if said["rest"].strip() in ("", "please"):
        return f"{said['then']}{said['amount']}{said['rest']}"
    return f"{said['then']}{said['rest']}"


_JOINED_BY_A_SIGN = re.compile(r"\s+[&+]\s+")
_TIMER_JOINED_UNSAID = re.compile(
    r"\b(\d+ ?(?:minutes?|mins?|seconds?|secs?|hours?|hrs?))"
    r" (?=(?:sleep|stop|pause) in\b|(?:set )?a timer\b|timer \d)"
)
"""A move and a timer written as one, as dictation does ("back 5 minutes sleep in 20", "back 5 min +
timer 20")."""


def with_pauses(utterance: str) -> str:
    """The words as meant, lower case: hesitations and the fillers before them off, a range or a
    way or a chapter or an amount put right as the one meant (``_AMOUNT_EITHER``, ``_AMOUNT_NOT_MEANT``,
    ``_WAY_CORRECTED``, ``_CHAPTER_CORRECTED``, ``_AMOUNT_CORRECTED``), and a recogniser's commas and
    full stops kept: where one request ends and another starts (``_done_together``)."""
    text = _PICTURES.sub(
        " ", _BUTTONS.sub(lambda button: f" {_BUTTON_SAID[button[0][0]]} ", utterance.lower())
    )
    text = re.sub(r"\s+", " ", _TRAILING_OFF.sub(" ", _FILLER_INSIDE.sub("", text))).strip().replace("’", "'")
    text = re.sub(r"[!.?,;]+$", "", text).strip()
    while (stripped := _FILLER.sub("", text)) != text:
        text = stripped
    text = _TIMER_JOINED_UNSAID.sub(r"\1 and ", _JOINED_BY_A_SIGN.sub(" and ", text))
    text = _WAY_CORRECTED.sub(_way_put_right, text)
    text = _CHAPTER_CORRECTED.sub(lambda said: f"chapter {said['then']}", text)
    text = _AMOUNT_EITHER.sub(lambda said: f"{said['more']} {said['unit']}", text)
    text = _AMOUNT_NOT_MEANT.sub(_amount_meant, text)
    return _AMOUNT_CORRECTED.sub(lambda said: f"{said['then']} {said['unit_then'] or said['unit']}", text)


def normalise(utterance: str) -> str:
    # a recogniser's pauses go: "back, five minutes"
    text = re.sub(r"\s*,(?!\d)\s*", " ", with_pauses(utterance))
    for typed, said in _TYPED:
        text = typed.sub(said, text)
    text = _UNIT_LEFT_UNSAID.sub(lambda said: f"{said[0]} {_NEXT_UNIT[said['unit']]}", text)
    return numbers.ordinal_chapters_as_numbers(numbers.numbers_as_said(text))


number_of = numbers.number_of


def amount_ms(said: str) -> float:
    """An amount of time as said (``AMOUNT``), in milliseconds: "20 minutes", "half an hour",
    and a half wherever it is said, "one and a half hours" or "an hour and a half"; the parts of
    one said in two units added ("1 hour 30 minutes")."""
    in_minutes = _QUARTERS.sub(lambda q: "45 minutes" if q.group(1) == "three" else "15 minutes", said)
    parts = list(_SAID_AMOUNT.finditer(in_minutes.replace("-", " ")))
    assert parts, said  # only ever given what AMOUNT matched
    return sum(_amount_part_ms(*part.groups()) for part in parts)


def _amount_part_ms(
    half: str | None, number: str | None, part_before: str | None, unit: str, part_after: str | None
) -> float:
    if half:
        return 0.5 * UNIT_MS[unit]
    assert number is not None
    parts = sum(0.25 if "quarter" in part else 0.5 for part in (part_before, part_after) if part)
    return (number_of(number) + parts) * UNIT_MS[unit]


def said_amount_ms(text: str) -> float | None:
    """The amount of time ``text`` starts with, in milliseconds (``amount_ms``), or None."""
    said = re.match(AMOUNT, text)
    return amount_ms(said.group(0)) if said else None
