"""The chapters of an interim version that are not transcribed yet, as places without words.

While a recording is still being transcribed its book holds passages only for the chapters
done so far (adr/0032). The later chapters are in its chapter list with their times, and a
listener may still go to them by chapter or by time: each becomes one passage spanning the
chapter with no text. These are never indexed, so find and recall cannot return them; only
resolving a place reaches them. Their ids follow the book's own, so they are unique in it.
"""

from bedside_contracts.search import BookInfo
from bedside_guard import Passage


def untranscribed_passages(info: BookInfo, first_id: int) -> tuple[Passage, ...]:
    if info.transcript is None:
        return ()
    pending = set(info.transcript.pending)
    chapters = sorted((c for c in info.chapters if c.n in pending), key=lambda c: c.start_ms)
    return tuple(
        Passage(
            id=first_id + k,
            start_ms=chapter.start_ms,
            end_ms=max(chapter.start_ms, chapter.end_ms),
            chapter=chapter.n,
            chapter_title=chapter.title,
            text="",
        )
        for k, chapter in enumerate(chapters)
    )


def spanning(untranscribed: tuple[Passage, ...], ms: int) -> Passage | None:
    """The untranscribed chapter that holds ``ms`` (its start counts, its end belongs to the next)."""
    return next((p for p in untranscribed if p.start_ms <= ms < p.end_ms), None)
