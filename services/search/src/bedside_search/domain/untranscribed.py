"""The chapters of an interim version that are not transcribed yet, as places without words.

While a recording is still being transcribed its book holds passages only for the chapters
done so far (adr/0032). The later chapters are in its chapter list with their times, and a
listener may still go to them by chapter or by time: each becomes one passage spanning the
chapter with no text. These are never indexed, so find and recall cannot return them; only
resolving a place reaches them. Each one's id is made from its chapter's number, far past any
passage's, so an id handed out for it (a row, a history line) means that chapter in every later
version too, once it is transcribed (``chapter_of_untranscribed``).
"""

from bedside_contracts.search import BookInfo
from bedside_guard import Passage

UNTRANSCRIBED_IDS_FROM = 1_000_000_000
"""The ids of wordless chapters start here: no book has that many passages."""


def untranscribed_passages(info: BookInfo) -> tuple[Passage, ...]:
    if info.transcript is None:
        return ()
    pending = set(info.transcript.pending)
    chapters = sorted((c for c in info.chapters if c.n in pending), key=lambda c: c.start_ms)
    return tuple(
        Passage(
            id=UNTRANSCRIBED_IDS_FROM + chapter.n,
            start_ms=chapter.start_ms,
            end_ms=max(chapter.start_ms, chapter.end_ms),
            chapter=chapter.n,
            chapter_title=chapter.title,
            text="",
        )
        for chapter in chapters
    )


def chapter_of_untranscribed(passage_id: int) -> int | None:
    """The chapter a wordless chapter's id was made from; None for a passage's own id."""
    return passage_id - UNTRANSCRIBED_IDS_FROM if passage_id >= UNTRANSCRIBED_IDS_FROM else None


def spanning(untranscribed: tuple[Passage, ...], ms: int) -> Passage | None:
    """The untranscribed chapter that holds ``ms`` (its start counts, its end belongs to the next)."""
    return next((p for p in untranscribed if p.start_ms <= ms < p.end_ms), None)
