"""The book's own names, and when each was first heard: what a question or an answer may name.

A name (a person, a place, a title word) is a word the book writes as one (a capital inside a
sentence, or opening one where no dictionary has the word) and almost never in lower case. What a
listener has heard as names is decided from the text behind them alone (``names_heard``); the answer
check alone reads the whole book's names, and where each is first written with a capital, to keep
those ahead out of what is said. Pure: search computes the table once per book, the rules below only
read it.
"""

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bedside_guard.lexicon import ordinary_word
from bedside_guard.line import ahead_of, heard_once_past
from bedside_guard.passage import Passage
from bedside_guard.prose import TITLES, heading_title, without_headings
from bedside_guard.words import FUNCTION_WORDS

_ABBREVIATION = "|".join(TITLES)
_LETTER = r"[^\W\d_]"
"""Any letter, not only ASCII's: "Müller" and "Zoë" are names too."""
_TOKEN = re.compile(
    rf"\b(?:{_ABBREVIATION})\.|{_LETTER}{_LETTER}+(?:['\u2019]{_LETTER}+)?|[.!?;:\"\u201c\u201d\u2018]"
    rf"|(?<!{_LETTER})'(?=[A-Z\u00c0-\u00d6\u00d8-\u00de])"
)
_QUOTATION_OPENERS = "\"\u201c\u2018'"
_SENTENCE_OPENERS = frozenset(".!?;:\u201d" + _QUOTATION_OPENERS)
"""Marks after which a capital opens words rather than naming: a sentence's end, and a quotation's
start, double or single (books open speech with either), so "You're" after one is no name."""
LOWER_SHARE = 0.1
"""A word written in lower case more often than this is a word, not a name ("Ginger" is a
name in Black Beauty, "Lady" at a sentence start is not)."""
MIN_NAMED = 1
"""A name said once inside a sentence is still a name (a debt collector named in passing)."""


class BookNames(BaseModel):
    """Each name of a book (lower case) and the book time it is first written with a capital: "a rose"
    in lower case is not the name Rose heard."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    first_ms: dict[str, int]
    """The whole book's names: what the answer check keeps out of what is said until heard."""
    word_first_ms: dict[str, int]
    """Every word the book uses and the book time it is first heard: a capitalised word not heard
    yet is told as a name not heard, whether the book uses it further on or never (``heard_word``)."""
    named_at_ms: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    """Each word's times written as a name, sorted: capitalised inside a sentence, or opening one when
    no dictionary has it ("Tomas rode home.")."""
    lower_at_ms: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    """The same words' times written in lower case inside a sentence, sorted."""
    spelling: dict[str, str] = Field(default_factory=dict)
    """Each word written as a name as the book first writes it so ("Merrylegs", "McCarthy")."""


def _word(token: str) -> str:
    return token.lower().replace("\u2019", "'").removesuffix("'s").removesuffix(".")


_TITLE_WORDS = frozenset(title.lower() for title in TITLES)


def _is_title(token: str) -> bool:
    return _word(token) in _TITLE_WORDS


def _capitalised_inside(text: str) -> Iterable[tuple[str, bool | None]]:
    """Each word of ``text`` and whether it is capitalised inside a sentence (None: opens one)."""
    for word, _token, capital in _tokens(text):
        yield word, capital


NameOpening = Literal["never", "sentence", "quotation"]
"""When a capitalised word opening a sentence directly before a name (nothing but a space
between) is written as a name too: never (a question's words: "Who Is" is no name), at any
sentence's start, or only at the start of a character's words, after an opening quote mark
("Hettie Bramble," said the woman). A book's names take the last: narration opens sentences
before names with words that are none ("At Kettleby", "Whereupon Queequeg")."""


def _tokens(text: str, *, opening_names: NameOpening = "never") -> list[tuple[str, str, bool | None]]:
    """Each word of ``text``, as written, and whether it is capitalised inside a sentence (None:
    it opens one, or is a title), a word opening one before a name as ``opening_names`` says."""
    tokens: list[tuple[str, str, bool | None]] = []
    opening: tuple[int, int] | None = None  # a capitalised word opening a sentence: where, its end
    opens = True
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in _SENTENCE_OPENERS:
            opens, opening = True, None
            continue
        # A title is a word, never a name: "Mr" is capitalised everywhere, with or without its stop.
        title = _is_title(token)
        capital = None if opens or title else token[0].isupper()
        if opens:
            quoted = match.start() > 0 and text[match.start() - 1] in _QUOTATION_OPENERS
            may_name = opening_names == "sentence" or (opening_names == "quotation" and quoted)
            opening = (len(tokens), match.end()) if may_name and token[0].isupper() and not title else None
        else:
            if capital and opening is not None and not text[opening[1] : match.start()].strip():
                word, written, _opens = tokens[opening[0]]
                tokens[opening[0]] = (word, written, True)
            opening = None
        tokens.append((_word(token), token, capital))
        opens = False
    return tokens


def _pieces(passage: Passage) -> list[tuple[int, str]]:
    """A passage's words with the earliest time each can count as heard.

    A cue counts as heard once it has ended, and a passage without cues once it has, as
    ``heard_text`` has it.
    """
    pieces = passage.cues or (passage,)
    return [(heard_once_past(piece.start_ms, piece.end_ms), piece.text) for piece in pieces]


def _titles(passages: Iterable[Passage]) -> list[tuple[int, str]]:
    """Each chapter's title with the start of its first passage."""
    starts: dict[int, tuple[int, str]] = {}
    for p in passages:
        if p.chapter not in starts or p.start_ms < starts[p.chapter][0]:
            starts[p.chapter] = (p.start_ms, p.chapter_title)
    return list(starts.values())


def book_names(passages: Iterable[Passage], cover: str = "") -> BookNames:
    """The names of a book and where each first occurs, from its passages: words it writes with
    a capital inside a sentence or opening a character's words before another name (``_tokens``),
    and almost never in lower case; a chapter's heading read out in a passage counts toward none. The
    words of the ``cover`` (its title and author) are heard from the start, the listener having chosen
    the book by them ("does Black Beauty die?" before the foal is given that name); a title capitalises
    every word, so it makes no name heard (``names_heard``)."""
    inside: Counter[str] = Counter()
    lower: Counter[str] = Counter()
    first: dict[str, int] = {}
    capitalised_first: dict[str, int] = {}  # a name is heard where it is first written as one
    named_at: defaultdict[str, list[int]] = defaultdict(list)
    lower_at: defaultdict[str, list[int]] = defaultdict(list)
    written: dict[str, tuple[int, str]] = {}
    passages = list(passages)
    for at_ms, title in [(0, cover), *_titles(passages)]:
        # A title is heard as its chapter begins (where the page and "where am I?" name it), but
        # its capitals are a title's, so it counts toward no name.
        for word, token, _capital in _tokens(title):
            _keep_earliest(first, word, at_ms)
            if token[0].isupper():
                _keep_earliest(capitalised_first, word, at_ms)
    openers = {min(ps, key=lambda p: p.start_ms).id for ps in _by_chapter(passages)}
    for passage in passages:
        pieces = _pieces(passage)
        stories = _stories(pieces, passage.chapter_title if passage.id in openers else None)
        for (at_ms, text), story in zip(pieces, stories, strict=True):
            tokens = _tokens(text, opening_names="quotation")
            for word, token, _capital in tokens:
                _keep_earliest(first, word, at_ms)
                if token[0].isupper():
                    _keep_earliest(capitalised_first, word, at_ms)
            told = tokens if story == text else _tokens(story, opening_names="quotation")
            for word, token, capital in told:
                if capital is True:
                    inside[word] += 1
                if capital is True or (capital is None and _opens_as_a_name(token)):
                    named_at[word].append(at_ms)
                    if word not in written or at_ms < written[word][0]:
                        written[word] = (at_ms, re.sub(r"['\u2019]s$", "", token))
                elif capital is False:
                    lower[word] += 1
                    lower_at[word].append(at_ms)
    names = {
        word: capitalised_first[word]
        for word, count in inside.items()
        if count >= MIN_NAMED and lower[word] <= LOWER_SHARE * (count + lower[word]) and word != "i"
    }
    named_at.pop("i", None)
    return BookNames(
        first_ms=names,
        word_first_ms=first,
        named_at_ms={word: tuple(sorted(times)) for word, times in named_at.items()},
        lower_at_ms={word: tuple(sorted(lower_at[word])) for word in named_at if word in lower_at},
        spelling={word: written[word][1] for word in named_at},
    )


def _by_chapter(passages: Sequence[Passage]) -> list[list[Passage]]:
    chapters: defaultdict[int, list[Passage]] = defaultdict(list)
    for passage in passages:
        chapters[passage.chapter].append(passage)
    return list(chapters.values())


def _stories(pieces: Sequence[tuple[int, str]], chapter_title: str | None) -> list[str]:
    """Each piece's words of the story: without a chapter's heading read out and, in the passage that
    opens its chapter (``chapter_title`` given), without the title read after the heading, which the
    sentences split from it ("CHAPTER III. The Fire at Birtwick Park.") or a cue holds alone."""
    numbered = heading_title(chapter_title) if chapter_title else None
    title = (numbered[1] if numbered else chapter_title or "").strip().rstrip(".")
    stories = []
    for _at_ms, text in pieces:
        story = without_headings(text)
        if title and story.casefold().startswith(title.casefold()):
            story = story[len(title) :].lstrip(" .:")
        stories.append(story)
        title = title if not story.strip() else ""  # a piece of heading alone: the title may open the next
    return stories


def _opens_as_a_name(token: str) -> bool:
    """Whether a capitalised word opening a sentence is written as a name: where any word may have a
    capital, one no dictionary has ("Tomas rode home.")."""
    return token[0].isupper() and not _is_title(token) and not ordinary_word(_word(token))


def _keep_earliest(first: dict[str, int], word: str, at_ms: int) -> None:
    first[word] = min(first.get(word, at_ms), at_ms)


def names_heard(names: BookNames, here_ms: int) -> dict[str, int]:
    """Each word a listener at ``here_ms`` has heard as a name (lower case), with how often: written as
    one behind the line ``MIN_NAMED`` times or more, and there in lower case no more than ``LOWER_SHARE``
    of the times. The text behind the line alone decides: over the whole book, a name heard would be
    hinted, respelled and searched for or not as the text ahead writes it (a mare named Ginger, and
    ginger cake a score of times further on)."""
    heard: dict[str, int] = {}
    for word, named in names.named_at_ms.items():
        as_name = bisect.bisect_left(named, here_ms)
        as_word = bisect.bisect_left(names.lower_at_ms.get(word, ()), here_ms)
        if as_name >= MIN_NAMED and as_word <= LOWER_SHARE * (as_name + as_word):
            heard[word] = as_name
    return heard


HINT_LIMIT = 40
"""How many names a recogniser is given: more slow the decoder down and blur other words."""


def heard_names(names: BookNames, here_ms: int, limit: int = HINT_LIMIT) -> list[str]:
    """The names a listener at ``here_ms`` has heard, as the book writes them, most named first.

    These are the only names a recogniser may be told to expect: a name from ahead would come
    back in the transcript, and the transcript is words the model reads. The ranking counts only
    mentions behind the line, so even the order says nothing of what is ahead.
    """
    heard = names_heard(names, here_ms)
    ranked = sorted(heard, key=lambda word: (-heard[word], word))
    return [names.spelling.get(word, word.title()) for word in ranked[:limit]]


def heard_word(names: BookNames, word: str, here_ms: int) -> bool:
    """Whether a listener at ``here_ms`` has heard the book say ``word`` (lower case)."""
    first = names.word_first_ms.get(word)
    return first is not None and not ahead_of(first, here_ms)


def names_as_said(text: str, unheard: Sequence[str]) -> list[str]:
    """The names in ``text`` that hold an ``unheard`` word (``unheard_names``), whole and as the
    listener wrote them: "Squire Gordon" for "squire" in "who is Squire Gordon?", where the reply
    named the one word. Only the listener's own words come back, and only a name they wrote with a
    capital: "merrylegs" in lower case is unheard because the book has it further on, where a word
    it never uses is not, so saying it back would tell them the book has a Merrylegs."""
    runs: list[list[tuple[str, str, bool | None]]] = []
    end = 0
    for match, (word, token, capital) in zip(
        (m for m in _TOKEN.finditer(text) if m.group() not in _SENTENCE_OPENERS), _tokens(text), strict=True
    ):
        part = word in unheard or capital is True or _is_title(token)
        if part and runs and runs[-1] and not text[end : match.start()].strip():
            runs[-1].append((word, token, capital))
        elif part:
            runs.append([(word, token, capital)])
        else:
            runs.append([])
        end = match.end()
    said: list[str] = []
    for run in runs:
        while run and run[-1][0] not in unheard and run[-1][2] is not True:
            run.pop()
        if not any(word in unheard for word, _token, _capital in run):
            continue
        tokens = [token for _word, token, _capital in run]
        tokens[-1] = re.sub(r"['’]s$", "", tokens[-1])
        name = " ".join(tokens)
        if any(t[0].isupper() for t in tokens) and name not in said:
            said.append(name)
    return said


def words_of(text: str) -> list[str]:
    return [_word(token) for token in _TOKEN.findall(text) if token not in _SENTENCE_OPENERS]


def without_words(text: str, left_out: Collection[str]) -> str:
    """``text`` without the words ``left_out`` names (lower case, as ``words_of`` gives them)."""
    return " ".join(_TOKEN.sub(lambda token: "" if _word(token[0]) in left_out else token[0], text).split())


def capitalised_words(text: str) -> set[str]:
    """Words ``text`` capitalises inside a sentence (lower case): names, as a writer or a
    transcriber writes them, whether or not the book counts them among its names."""
    return {word for word, capital in _capitalised_inside(text) if capital}


def written_with_capital(text: str) -> set[str]:
    """Words ``text`` writes with a capital anywhere, a sentence's first word too (lower case)."""
    return {word for word, token, _capital in _tokens(text) if token[0].isupper()}


def named_words(text: str) -> set[str]:
    """Words ``text`` writes as names (lower case): capitalised inside a sentence, and a word that
    opens a sentence directly before one ("Hettie Bramble," said the woman; ``_tokens``)."""
    return {word for word, _token, capital in _tokens(text, opening_names="sentence") if capital}


PART_OF_A_NAME = r"(?:(?:first|last|full|real|proper|family)\s+name|surname)"
"""Part of a name asked for ("what's James's surname?"): the asker knows the rest of it."""
A_NAME = rf"(?:name|{PART_OF_A_NAME})"
"""A name, or part of one, as a question asks for it."""
_ASKS_A_NAME = re.compile(
    r"\bwhat(?:['\u2019]s|s| is| was| were)\b[^?]*?"
    rf"(?:\bcalled\b|(?:\b(?:his|her|its|their)|['\u2019]s?) {A_NAME}\b)"
    rf"|\bthe {A_NAME} of\b|\bwhat did (?:they|he|she|you|we|i) call\b",
    re.IGNORECASE,
)


def asks_a_name(question: str) -> bool:
    """Whether ``question`` asks what someone or something is called ("what's the pony called?",
    "the fat grey pony, what's his name?", "what is the name of the coachman?")."""
    return _ASKS_A_NAME.search(question) is not None


NAME_TOLD_WITHIN = 3
"""How many sentences after one describing someone or something may tell what they are called."""


def sentence_telling_a_name(
    sentences: Sequence[str],
    about: int,
    *,
    names: Collection[str] | None = None,
    besides: Collection[str] = (),
) -> int | None:
    """Which of ``sentences`` tells the name of what sentence ``about`` describes: the nearest that
    writes a name (``named_words``; one of ``names`` when given, none of ``besides``), looked for in
    that sentence, the next, the one before, then up to ``NAME_TOLD_WITHIN`` after; one that says it
    names ("His name is Hugh Boone") before one that only holds a name ("Threadneedle Street").
    None if none."""
    nearest = [about, about + 1, about - 1, *range(about + 2, about + 1 + NAME_TOLD_WITHIN)]
    naming = [i for i in nearest if 0 <= i < len(sentences) and _writes_a_name(sentences[i], names, besides)]
    return next((i for i in naming if _SAYS_IT_NAMES.search(sentences[i])), naming[0] if naming else None)


_SAYS_IT_NAMES = re.compile(r"\b(?:name[sd]?|called|known as)\b", re.IGNORECASE)


def _writes_a_name(sentence: str, names: Collection[str] | None, besides: Collection[str]) -> bool:
    found = named_words(sentence) - set(besides)
    return bool(found & set(names) if names is not None else found)


RESPELL_SHORTER_LEAST, RESPELL_LONGER_LEAST = 4, 5
"""The letters the shorter and the longer of a word and a name need for one to be taken as the other:
"Jery" is Jerry, but "Adam" one letter from "Ada", or "John" from "Joan", is as likely another name."""
SOUNDED_LEAST = 3
"""The letters a word needs to be taken for a name it sounds exactly like: "ren" is Wren, its silent
letter unheard, where one letter off in three ("Ren" and "Ben") is another name."""
_LETTERS = re.compile(r"[A-Za-z]+")


def names_respelled(text: str, names: BookNames, here_ms: int) -> str:
    """``text`` with each name it says as a recogniser or a sleepy typist writes it, and that is no name
    heard by ``here_ms``, written as the book writes the one name heard it stands for ("who is Irene
    Adlar?" asks after Adler):
    - two words said as a name that together are one heard ("Merry Legs"), or one letter from one;
    - a word the book never uses one letter (or two swapped) from exactly one name heard, or spelt as
      it sounds ("Bessy" for Bessie, "ren" for Wren).
    Only names heard are offered, so a spelling never stands for a name still ahead; near two heard,
    a word is left as said, as it is near none. A word is said as a name when written with a capital,
    or when it is whom a question asks after by name, as a recogniser writes it in lower case ("who's
    ren again", "what happened to oscar"); any other word in lower case is left as said ("the singer"
    is no misspelt Ginger)."""
    heard = set(names_heard(names, here_ms))
    as_names = written_with_capital(text) | set(asked_after_by_name(text, things_too=True))

    def the_one_near(word: str) -> str | None:
        near = [name for name in heard if _spelt_near(word, name)]
        return near[0] if len(near) == 1 else None

    def joined(first: str, second: str) -> str | None:
        """The heard name two words said as a name stand for together, if one."""
        whole = first + second
        if not {first, second} <= as_names:
            return None
        if whole in heard:
            return whole
        return None if {first, second} & heard else the_one_near(whole)  # two names heard are two

    def respelled(word: str) -> str | None:
        if word not in as_names or heard_word(names, word, here_ms):
            return None
        return the_one_near(word)

    said = list(_LETTERS.finditer(text))
    parts: list[str] = []
    end = at = 0
    while at < len(said):
        word = said[at]
        pair = said[at + 1] if at + 1 < len(said) and text[word.end() : said[at + 1].start()] == " " else None
        name = joined(word[0].lower(), pair[0].lower()) if pair is not None else None
        last = pair if name is not None and pair is not None else word
        name = name if name is not None else respelled(word[0].lower())
        parts += [text[end : word.start()], names.spelling.get(name, name) if name else word[0]]
        end = last.end()
        at += 1 if last is word else 2
    return "".join([*parts, text[end:]])


_SPOKEN_OF = rf"(?P<subject>(?:\b(?:{_ABBREVIATION})\.|[^?.!\u2026])+?)"
"""Whom a question asks after, run to its first stop (``_STOP``) but for the one after "Mr." or "St."."""
_STOP = r"(?=[?.!\u2026]|$)"
_ASKED_WHO = re.compile(
    r"(?:(?P<who>\bwho(?:['\u2019]?s|\s+(?:is|was|were|are)))"
    r"|(?P<forgot>\b(?:tell|remind)\s+me\s+(?:again\s+)?who|\b(?:forgot|forget|remember|lost\s+track\s+of)\s+who)"
    r"|\b(?:tell|remind)\s+me\s+(?:again\s+)?(?:about|of))\s+"
    r"(?!(?:what|how|why|when|where|which|whether|if|who)\b)"  # "tell me about what happened": no one
    + _SPOKEN_OF
    + _STOP,
    re.IGNORECASE,
)
"""Who someone is: "who is Iris?", "tell me about Iris", "I forgot who Iris is", "remind me of Iris".
After "I forgot who" only a subject said with "is" or "was" is someone: "remind me who died" is not."""
_ASKED_BY_ITS_NAME = re.compile(
    r"^what(?:['\u2019]s|\s+is|\s+was)\s+(?:(?:the|a|an)\s+)?(?P<subject>[^?.!]+?)"
    r"(?:\s+like)?(?:\s+again)?\s*[?.!]*$",
    re.IGNORECASE,
)
""""What is the Marigold?", "what's Gull Point like?": a thing the asker calls by its name, when it is
written as one (``_written_as_a_name``); in lower case it is a thing asked about ("what is the compass?")."""
_NAME_JOINERS = frozenset({"of", "the", "and", "at", "on", "in", "upon", "by"})
"""The small words a name may hold in lower case ("the Night of the Storm"); any other word in lower
case ("what is Wren doing?") makes it a question about the story, not a name asked after."""
_ASKED_WHEREABOUTS = (
    re.compile(
        r"(?:(?P<who>\bwhere(?:['\u2019]?s|\s+is|\s+are))"
        r"|\bwhat(?:\s*ever)?(?:['\u2019]s|\s+has)?\s+(?:happened\s+to|become\s+of)|\bwhat\s+became\s+of"
        r"|\bwhat(?:['\u2019]s|\s+is)\s+(?:going\s+on|up)\s+with)\s+" + _SPOKEN_OF + _STOP,
        re.IGNORECASE,
    ),
    re.compile(
        rf"^how(?:['\u2019]s|\s+is|\s+are)\s+{_SPOKEN_OF}\s+(?:doing|getting\s+on)(?=[?.!]|$)", re.IGNORECASE
    ),
    re.compile(
        rf"^(?:is|are)\s+{_SPOKEN_OF}\s+(?:ok|okay|all\s+right|alright|safe|well)(?=[?.!]|$)", re.IGNORECASE
    ),
)
""""Where is Grandpa?": where someone is now, so the present tense only ("where was" asks after a
moment). "What happened to Grandpa?", "what became of him?", "how is he doing?" and "is he all
right?" ask the same: the last the listener heard of them."""
_FILLERS = frozenset({"again", "now", "then", "please", "anyway", "exactly", "though", "btw", "sorry"})
_SAID_AFTER = _FILLERS | {"is", "was", "are", "were"}
"""Words said after whom a question asks after, of the asking, not of them: "who is Oskar, again?",
"who is Holmes anyway", "I forgot who Iris is"."""


@dataclass(frozen=True)
class AskedAfter:
    """Whom, or what, a question asks after by what it calls them."""

    words: tuple[str, ...]
    """As said, lower case, without a title ("who is Mr. Pell?": pell) or the words of the asking said
    after them ("again", "anyway")."""
    someone: bool
    """Asked as after someone, whatever the words: "who is", "where is", a name "what is the Marigold?";
    "tell me about" or "what happened to" ask after a thing as often."""
    latest: bool
    """Asked where they are now ("where is", "what happened to"): the last the listener heard of them."""


def asked_after(text: str) -> tuple[AskedAfter, ...]:
    """Each way ``text`` asks after someone or something by what it calls them, in the order said of
    each kind: who they are ("who is X?", "tell me about X", "I forgot who X is", "what is <Name>?"), then
    where they are now ("where is X?", "what happened to X?", "how is X doing?", "is X all right?").

    The one rule of phrasing for both readers: the guard, which respells and counts as not come up only
    what is asked after by name (``asked_after_by_name``), and search, which looks it up in the book's
    names. A recogniser's capitals ("What Is Wren Up To?") name no one: a name is capitalised but for
    the small words a name holds."""
    found = [
        _asked(who, someone=_asked_as_after_someone(who), latest=False) for who in _ASKED_WHO.finditer(text)
    ]
    if not found and (by_its_name := _asked_by_its_name(text)):
        found.append(_asked(by_its_name, someone=True, latest=False))
    if where := next((m for pattern in _ASKED_WHEREABOUTS if (m := pattern.search(text.strip()))), None):
        found.append(
            _asked(where, someone=where.re is _ASKED_WHEREABOUTS[0] and where["who"] is not None, latest=True)
        )
    return tuple(found)


def _asked_as_after_someone(who: re.Match[str]) -> bool:
    """ "Who is X?" whatever X is; "I forgot who X is" only so said ("I forgot who won" is no one)."""
    return who["who"] is not None or (
        who["forgot"] is not None and bool(re.search(r"\b(?:is|was|are|were)\W*$", who["subject"]))
    )


def _asked_by_its_name(text: str) -> re.Match[str] | None:
    match = _ASKED_BY_ITS_NAME.match(text.strip())
    return match if match is not None and _written_as_a_name(match["subject"]) else None


def _written_as_a_name(said: str) -> bool:
    written = re.findall(r"[\w'\u2019]+", said)
    # "What Is Wren Up To?" as a recogniser capitalises it asks what she does, not who she is
    return any(w[:1].isupper() for w in written) and all(
        w.casefold() in _NAME_JOINERS or (w[:1].isupper() and w.casefold() not in FUNCTION_WORDS)
        for w in written
    )


def _asked(match: re.Match[str], *, someone: bool, latest: bool) -> AskedAfter:
    words = [word for word in words_of(match["subject"]) if word not in _TITLE_WORDS]
    if match.re is _ASKED_BY_ITS_NAME:
        words = [word for word in words if word not in _NAME_JOINERS]
    while words and words[-1] in _SAID_AFTER:
        words.pop()
    return AskedAfter(words=tuple(words), someone=someone, latest=latest)


ASKED_AFTER_WORDS = 3
"""The most words of someone a question asks after by name ("who is squire gordon", "who is hettie
jane bramble"); more are a description."""


def asked_after_by_name(text: str, *, things_too: bool = False) -> tuple[str, ...]:
    """The words (lower case) of someone a question asks after by name (``asked_after``), however they
    were typed or heard; () when it asks after no one by name ("who is the keeper", "who is going to
    win", "who is tomaz talking to", "who was killed in the hunt", "tell me about cats"). Written in
    lower case, only these words may be a name asked after: whether any other word is one would be
    told by the book's names, those ahead too.
    ``things_too``: also words a dictionary has all of after "what happened to" or "tell me about"
    ("what happened to merry legs"), for respelling, which offers only names heard."""
    for asked in asked_after(text):
        words = asked.words
        doing = any(len(word) > 4 and word.endswith("ing") for word in words)
        # "tell me about cats" asks about a thing as often as about someone: only words of which one no
        # dictionary has are a name there, where "who is ginger?" asks after someone, whatever the words.
        thing = not things_too and not asked.someone and all(ordinary_word(word) for word in words)
        described = doing or thing or len(words) > ASKED_AFTER_WORDS or set(words) & FUNCTION_WORDS
        if words and not described:
            return words
    return ()


def _spelt_near(word: str, name: str) -> bool:
    shorter, longer = sorted((len(word), len(name)))
    slip = shorter >= RESPELL_SHORTER_LEAST and longer >= RESPELL_LONGER_LEAST and _one_edit_apart(word, name)
    sounded = shorter >= SOUNDED_LEAST and word != name and _as_it_sounds(word) == _as_it_sounds(name)
    return slip or sounded


_SOUNDS = (
    (re.compile(r"^wr"), "r"),
    (re.compile(r"^kn"), "n"),
    (re.compile(r"^gn"), "n"),
    (re.compile(r"ph"), "f"),
    (re.compile(r"ck"), "k"),
    (re.compile(r"z"), "s"),
)
"""Letters written one way and said another, or not said at all: "Wren" is said "ren", "Knox" "nox"."""
_ENDING_SOUND = re.compile(r"(?:ie|ey|ee|y)$")
_DOUBLED = re.compile(r"(.)\1+")


def _as_it_sounds(word: str) -> str:
    """A spelling of ``word`` that its other spellings share: "bessy", "bessie", "besey" are one."""
    for spelt, sound in _SOUNDS:
        word = spelt.sub(sound, word)
    return _DOUBLED.sub(r"\1", _ENDING_SOUND.sub("i", word))


def _one_edit_apart(a: str, b: str) -> bool:
    """One letter changed, added or left out, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(differ) != 2 or differ[1] != differ[0] + 1:
            return len(differ) == 1
        i, j = differ
        return a[i] == b[j] and a[j] == b[i]
    shorter, longer = sorted((a, b), key=len)
    return any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


def unheard_names(
    text: str,
    names: BookNames,
    here_ms: int,
    *,
    query: bool = False,
    asked_after: Collection[str] | None = None,
) -> list[str]:
    """The names in ``text`` a listener at ``here_ms`` has not heard, in the order they come.
    ``query``: ``text`` is a search's words, no sentence, so its first word's capital counts too.

    A capitalised word not heard yet counts, whether the book uses it further on or never: all get
    the same reply, so the reply tells nothing about what is ahead. A name heard so far only as a
    word ("a rose", before Rose) is heard here, as any other word heard is: told apart, the reply
    would tell that the book has a Rose further on. In lower case, ``asked_after`` (a question's
    words for the someone it asks after, "who is tomas?") count in the same way, and no other
    word; without it (a find's words) any word no dictionary has counts, so a name the book has
    further on, one it never has and a misspelt one are left out alike, and the words of a moment
    stay, "rose" too whether or not the book has a Rose ahead (adr/0070, adr/0071).
    """
    spoken = written_with_capital(text) if query else capitalised_words(text)
    unheard: list[str] = []
    for word in words_of(text):
        in_lower_case = not ordinary_word(word) if asked_after is None else word in asked_after
        asked_as_name = in_lower_case or (word in spoken and word != "i")
        if asked_as_name and not heard_word(names, word, here_ms) and word not in unheard:
            unheard.append(word)
    return unheard
