"""How many of a query's content words its target text already contains: pure, no I/O.

The query sets are meant to be paraphrases (a listener remembers the moment, not the
sentence), so a query that reuses the target's words would flatter sparse retrieval.
This measures that: the fraction of a query's content words (stopwords and the
listener's navigation phrasing removed) that occur anywhere in a text, after a light
suffix strip so "burning" meets "burned" and "horses" meets "horse".

Two scales. Against a whole chapter the measure says little for long chapters (a story of
9,000 words holds nearly every common word), so it is also taken against the best
passage-sized window of the chapter (about 30 seconds of narration, the unit the search
retrieves): a query that copies a sentence scores near 1.0 there.
"""

import re
from collections.abc import Iterable

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

# Function words, plus the words a listener uses to ask for a place rather than to name it.
_STOPWORD_TEXT = """
    a about after again against all am an and any are as at be because been before being
    both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself no nor not now of off on once only or other our ours out
    over own same she should so some such than that the their theirs them themselves then
    there these they this those through to too under until up very was we were what when
    where which while who whom why will with would you your yours yourself yourselves
    i'm it's that's there's he's she's they're what's don't didn't wasn't isn't can't
    us get got gets one ones thing bit part bits parts bring take go going back find skip
    jump start play again chapter chapters scene moment section place story remember think
    wait hmm um uh ok okay please yeah oh well like kind sort something somewhere someone
    that's let let's put want need where's
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def _stem(word: str) -> str:
    """A deliberately crude suffix strip; both sides get the same one, so it only has to agree.

    Regular plurals and -ing/-ed forms meet their base word ("horses"/"horse",
    "burning"/"burned"/"burn"); irregular forms ("died"/"dies") do not, which only makes
    the measured overlap a little lower than a real stemmer would.
    """
    word = word.removesuffix("'s")
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    else:
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
                word = word[: -len(suffix)]
                break
    return word.removesuffix("e") if len(word) > 3 else word


def words(text: str) -> list[str]:
    """Lower-cased words of a text (apostrophes kept inside words, curly ones folded)."""
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def content_words(text: str) -> list[str]:
    """The words that name something: stopwords and navigation phrasing removed."""
    return [word for word in words(text) if word not in STOPWORDS and len(word) > 1]


def stems(text_words: Iterable[str]) -> set[str]:
    return {_stem(word) for word in text_words}


def word_overlap(query: str, target_stems: set[str]) -> float:
    """The fraction of the query's content words whose stem occurs in the target.

    ``target_stems`` is ``stems(words(text))`` of the target, computed once per chapter.
    A query with no content words has nothing to share: 0.0.
    """
    query_words = content_words(query)
    if not query_words:
        return 0.0
    return sum(_stem(word) in target_stems for word in query_words) / len(query_words)


PASSAGE_WORDS = 80


def best_window_overlap(query: str, text: str, width: int = PASSAGE_WORDS, step: int = 20) -> float:
    """The highest ``word_overlap`` of the query with any window of ``width`` words of the text."""
    if width < 1 or step < 1:
        raise ValueError(f"width and step must be positive, not {width} and {step}")
    text_stems = [_stem(word) for word in words(text)]
    query_stems = [_stem(word) for word in content_words(query)]
    if not query_stems or not text_stems:
        return 0.0
    starts = range(0, max(len(text_stems) - width, 0) + 1, step)
    best = max(
        sum(stem in window for stem in query_stems)
        for window in (set(text_stems[start : start + width]) for start in starts)
    )
    return best / len(query_stems)
