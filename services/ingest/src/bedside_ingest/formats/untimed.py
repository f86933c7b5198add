"""Building untimed chapters from paragraphs: one unit per sentence, no times yet."""

from bedside_ingest.book import Chapter, Unit
from bedside_ingest.text import split_sentences


def sentence_units(paragraphs: list[tuple[str, str]]) -> tuple[Unit, ...]:
    """``paragraphs`` are ``(text, where)``; every sentence keeps the place of its paragraph."""
    return tuple(
        Unit(text=sentence, where=where)
        for paragraph, where in paragraphs
        for sentence in split_sentences(paragraph)
    )


def untimed_chapter(n: int, title: str, paragraphs: list[tuple[str, str]], where: str) -> Chapter:
    return Chapter(n=n, title=title, units=sentence_units(paragraphs), where=where)
