"""A small invented book with words that belong to one passage each, to catch any leak."""

from bedside_contracts.search import BookInfo, ChapterInfo
from bedside_guard import Cue, Passage

BOOK_ID = "lamplight"
PASSAGE_MS = 30_000

CHAPTERS: list[tuple[str, list[str]]] = [
    (
        "The Harbour Bell",
        [
            "Old Wren the ferryman rang the harbour bell at dawn while gulls circled the mackerel boats.",
            "A girl named Tamsin arrived with a carpetbag and a brass telescope wrapped in oilcloth.",
            "Wren gave Tamsin a bowl of barley soup and told her the lighthouse keeper had vanished.",
        ],
    ),
    (
        "The Keeper's Ledger",
        [
            "In the empty lighthouse Tamsin found a ledger full of tide tables and pressed sea lavender.",
            "The last page of the ledger mentioned a cormorant, a locked cellar and a silver key.",
            "A storm rolled in from the west and the lamp room rattled like a kettle on the hob.",
        ],
    ),
    (
        "The Cellar Door",
        [
            "Tamsin pried open the cellar door with a crowbar and smelled damp rope and tar.",
            "Behind the barrels she discovered a smuggler's tunnel lined with green glass bottles.",
            "Far down the tunnel a lantern flickered and somebody was humming a sea shanty.",
        ],
    ),
    (
        "The Keeper Returns",
        [
            "The humming stranger was the keeper himself, Ambrose Pell, thinner and bearded.",
            "Ambrose confessed he had hidden from a debt collector called Mortimer Sleet for weeks.",
            "At midnight Tamsin and Ambrose relit the great lamp and the whole bay glowed amber.",
        ],
    ),
]


def passages() -> list[Passage]:
    """Twelve thirty-second passages; the second of chapter two has cues (finer timing)."""
    out: list[Passage] = []
    for chapter_no, (title, texts) in enumerate(CHAPTERS, start=1):
        for text in texts:
            start = len(out) * PASSAGE_MS
            cues: tuple[Cue, ...] = ()
            if len(out) == 4:
                half = text.index(", a locked")
                cues = (
                    Cue(start_ms=start, end_ms=start + 15_000, text=text[:half]),
                    Cue(start_ms=start + 15_000, end_ms=start + PASSAGE_MS, text=text[half + 2 :]),
                )
            out.append(
                Passage(
                    id=len(out) + 100,
                    start_ms=start,
                    end_ms=start + PASSAGE_MS,
                    chapter=chapter_no,
                    chapter_title=title,
                    text=text,
                    cues=cues,
                )
            )
    return out


def book_info() -> BookInfo:
    all_passages = passages()
    chapters = []
    for n, (title, _) in enumerate(CHAPTERS, start=1):
        mine = [p for p in all_passages if p.chapter == n]
        chapters.append(ChapterInfo(n=n, title=title, start_ms=mine[0].start_ms, end_ms=mine[-1].end_ms))
    return BookInfo(
        id=BOOK_ID,
        title="Lamplight",
        duration_ms=all_passages[-1].end_ms,
        estimated=True,
        passages=len(all_passages),
        chapters=chapters,
    )


LEAD_IN_MS = 2_000


def lead_in_book(book_id: str) -> tuple[BookInfo, list[Passage]]:
    """The test book with a lead-in of silence at each chapter's start, as ingest makes one from
    chapter marks: each chapter runs on the clock from its mark to the next one's, and its first
    words start ``LEAD_IN_MS`` after the mark. The first chapter's mark is at its first words
    (0:00:02), as the sample book's is (0:00:01): at 0:00:00 no chapter has begun on the clock."""
    read = [
        p.model_copy(update={"start_ms": p.start_ms + LEAD_IN_MS}) if i % 3 == 0 else p
        for i, p in enumerate(passages())
    ]
    info = book_info()
    chapters = [
        c.model_copy(update={"end_ms": nxt.start_ms})
        for c, nxt in zip(info.chapters, info.chapters[1:], strict=False)
    ]
    chapters[0] = chapters[0].model_copy(update={"start_ms": LEAD_IN_MS})
    return info.model_copy(update={"id": book_id, "chapters": [*chapters, info.chapters[-1]]}), read
