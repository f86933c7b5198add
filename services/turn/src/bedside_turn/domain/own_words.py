"""The turn's own words as a type: sentences plain code makes from nothing of the book.

A sentence is ``OwnWords`` only where it is built (``speech``, ``playback``) from fixed words,
numbers, lengths and clock times: no quote, no recap, no name, no chapter title. The answer
check then knows it by its type (``speech.holds_no_book_words``), never by matching its text,
so words that only read like the turn's own (a model's) are still checked.

It is a ``str``, so it is said, compared and stored like any answer. Anything made from it by
a string operation is a plain ``str`` again and so checked, except joining two of them.
"""


class OwnWords(str):
    """One or more of the turn's own sentences, holding nothing of the book."""

    __slots__ = ()

    def __add__(self, other: str) -> str:
        joined = str.__add__(self, other)
        return OwnWords(joined) if isinstance(other, OwnWords) else joined
