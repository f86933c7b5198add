"""The chapters of a recording that have no passages, as places without words.

Two kinds: while a recording is still being transcribed, its interim version holds passages only
for the chapters done so far (adr/0032), and the later ones are listed with their times; and a
chapter in which nothing was heard (music, silence, speech the recogniser missed) is listed with
its times in every version (adr/0067). A listener may still go to either by chapter or by time:
each becomes one passage spanning the chapter with no text. These are never indexed, so find and
recall cannot return them; only resolving a place reaches them. Each one's id is made from its
chapter's number, far past any passage's, so an id handed out for it (a row, a history line) means
that chapter in every later version too, once it is transcribed (``chapter_of_wordless``).
"""

from bedside_contracts.search import BookInfo
from bedside_guard import Passage

WORDLESS_IDS_FROM = 1_000_000_000
"""The ids of wordless chapters start here: no book has that many passages."""


def wordless_passages(info: BookInfo) -> tuple[Passage, ...]:
    listed = set(info.silent_chapters) | set(info.transcript.pending if info.transcript else ())
    chapters = sorted((c for c in info.chapters if c.n in listed), key=lambda c: c.start_ms)
    return tuple(
        Passage(
            id=WORDLESS_IDS_FROM + chapter.n,
            start_ms=chapter.start_ms,
            end_ms=max(chapter.start_ms, chapter.end_ms),
            chapter=chapter.n,
            chapter_title=chapter.title,
            text="",
        )
        for chapter in chapters
    )


def chapter_of_wordless(passage_id: int) -> int | None:
    """The chapter a wordless chapter's id was made from; None for a passage's own id."""
    return passage_id - WORDLESS_IDS_FROM if passage_id >= WORDLESS_IDS_FROM else None


def spanning(wordless: tuple[Passage, ...], ms: int) -> Passage | None:
    """The wordless chapter that holds ``ms`` (its start counts, its end belongs to the next)."""
    return next((p for p in wordless if p.start_ms <= ms < p.end_ms), None)
