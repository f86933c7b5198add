"""Words the recogniser is told to expect, as it takes them.

Which words those are is the guard's rule (``bedside_guard.heard_names``: the book's names
the listener has heard), not this library's: a recogniser hinted with a name from ahead
would write it into the transcript.
"""

from collections.abc import Iterable


def hint_text(names: Iterable[str]) -> str | None:
    """The hints as the recogniser takes them: one line of words, or nothing."""
    line = " ".join(names)
    return line or None
