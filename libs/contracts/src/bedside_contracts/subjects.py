"""Every stream, subject, bucket and durable name of Bedside, in one place.

Ids that go into subjects are ``Name``s (one safe token each), so a listener or book id
can never add a wildcard or a level.
"""

SERVICES = ("search", "player", "turn", "ingest")

# Core request-reply: one queue group per service, so copies share the load.
HEALTH = "bedside.health.{service}"
SEARCH_FIND = "bedside.search.find"
SEARCH_RECALL = "bedside.search.recall"
SEARCH_RESOLVE = "bedside.search.resolve"
SEARCH_CATALOG = "bedside.search.catalog"
SEARCH_CHECK = "bedside.search.check"
SEARCH_HINTS = "bedside.search.hints"
SEARCH_RECAP = "bedside.search.recap"
PLAYER_STATE = "bedside.player.state"
PLAYER_OFFER = "bedside.player.offer"
PLAYER_COMMAND = "bedside.player.command"
PLAYER_HISTORY = "bedside.player.history"
PLAYER_LOCATE = "bedside.player.locate"
PLAYER_LISTENERS = "bedside.player.listeners"
PLAYER_LISTENING = "bedside.player.listening"
"""Which book a listener is listening to (the terminal's `bedside ask` without --book)."""
PLAYER_REMOVE_LISTENER = "bedside.player.listeners.remove"
PLAYER_PARTITION_REQUEST = "bedside.player.partition.{partition}.{copy}.{operation}"
"""A request for a listener of one partition, sent to the copy its lease names (ADR 36): a copy
that stalled is not asked once its lease has passed to another."""
PLAYER_PARTITION_REQUESTS = "bedside.player.partition.{partition}.{copy}.*"
TURN_ASK = "bedside.turn.ask"
TURN_ASK_SPOKEN = "bedside.turn.ask_spoken"
INGEST_BOOK = "bedside.ingest.book"
INGEST_PROGRESS = "bedside.ingest.progress.{job}"
INGEST_JOBS = "bedside.ingest.jobs"
INGEST_CANCEL = "bedside.ingest.cancel"
INGEST_REMOVE = "bedside.ingest.remove"
INGEST_UPLOADED = "bedside.ingest.uploaded"
INGEST_CHECK_UPLOAD = "bedside.ingest.check_upload"
"""Whether files of these names could make a book, asked before they are sent."""
"""Make a book of files a device sent to the uploads bucket (the page's "Add a book")."""
DEAD_LETTER = "bedside.deadletter.{service}"

# JetStream: the log. Each stream is declared only by the service that owns it.
BOOKS_STREAM = "BOOKS"
BOOKS_SUBJECTS = "books.>"
BOOK_INGESTED = "books.ingested.{book}"
BOOK_READY = "books.ready.{book}"
BOOK_ARTIFACTS_BUCKET = "bedside-books"
TRANSCRIPTS_BUCKET = "bedside-transcripts"
INGEST_JOBS_BUCKET = "bedside-ingest-jobs"
MEDIA_BUCKET = "bedside-media"
"""Each book's recording and cover, named by content (declared by ingest; the player reads it)."""
UPLOADS_BUCKET = "bedside-uploads"
"""Files sent from a device, held until ingest takes them (declared by ingest; the player writes)."""

PLAYER_STREAM = "PLAYER"
PLAYER_SUBJECTS = "player.>"
PLAYER_EVENTS = "player.{partition}.{listener}.{book}"
"""The partition comes from ``bedside_contracts.partitions.partition_of(listener)``."""
PLAYER_PARTITION_EVENTS = "player.{partition}.>"
PLAYER_PUSH = "bedside.push.{listener}.{book}"
"""The listener's state (``ListenerState``) after every change, published on core NATS by the
copy that wrote it; every player copy's SSE hub subscribes for the listeners its devices watch."""
PLAYER_LEASES_BUCKET = "bedside-player-leases"
"""Partition leases (``partition.<n>``: the owner copy) and copy heartbeats (``copy.<id>``), with a TTL."""
PLAYER_SNAPSHOTS_BUCKET = "bedside-player-snapshots"
LISTENERS_BUCKET = "bedside-listeners"

TURNS_STREAM = "TURNS"
TURNS_SUBJECTS = "turns.>"
TURN_COMPLETED = "turns.completed.{listener}.{book}"
CONVERSATIONS_BUCKET = "bedside-conversations"


def queue_for(service: str) -> str:
    """The queue group that copies of one service share."""
    return f"bedside-{service}"


def service_of(subject: str) -> str:
    """The service a request subject belongs to ("bedside.search.find" -> "search")."""
    parts = subject.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "bedside" else subject
