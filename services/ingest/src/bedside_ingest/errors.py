"""The one error ingest raises on bad input: it names the file and the place in it."""

from pathlib import PurePath

from bedside_contracts.ingest import IngestBook


class BadInput(Exception):
    """A file that cannot become a book. ``where`` is a line, a cue, an entry or a chapter."""

    def __init__(self, path: PurePath | str, problem: str, where: str | None = None) -> None:
        self.path = str(path)
        self.where = where
        self.problem = problem
        place = f"{self.path}, {where}" if where else self.path
        super().__init__(f"{place}: {problem}")

    @property
    def message(self) -> str:
        return str(self)

    def said_to_the_sender(self, request: IngestBook) -> str:
        """The message about a file sent from a device, naming it by its part (the recording, the e-book)
        rather than by the path ingest keeps it under, which means nothing on the device."""
        parts = {request.text_path: "the e-book", request.path: "the recording"}
        named = parts.get(self.path) or self.path
        return f"{named}, {self.where}: {self.problem}" if self.where else f"{named}: {self.problem}"


def unreadable(path: PurePath | str, error: OSError) -> BadInput:
    """A file the system would not read, in its words ("Permission denied") for the listener to act on."""
    if isinstance(error, FileNotFoundError):
        return BadInput(path, "does not exist")
    return BadInput(path, f"cannot be read: {error.strerror or error}")


class JobCancelled(Exception):
    """A job was cancelled while it waited or ran; what it had finished stays stored."""
