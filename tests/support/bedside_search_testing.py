"""A small book for search tests, built from guard Passages, and the leak check the
property tests use. A plain module (never imported from conftest)."""

import re

from bedside_contracts.search import BookInfo, ChapterInfo
from bedside_guard import NOT_TOLD, Cue, Passage, heard_text

PASSAGE_MS = 30_000
CUE_MS = 10_000

# Each chapter's words are its own (invented names and things), so a word of a chapter
# ahead showing up in a line can only be a leak.
CHAPTERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "The Lantern Maker",
        (
            "Oswin polished brass lanterns in his harbour workshop. "
            "Sailors brought cracked glass for mending. He trimmed every wick by candlelight.",
            "A fisherman asked for a lantern that never blew out. Oswin worked through the night soldering. "
            "By dawn the lamp glowed amber and steady.",
            "The harbour master praised the amber lamp loudly. Orders came from every quay and jetty. "
            "Oswin hired his niece Marigold as apprentice.",
        ),
    ),
    (
        "The Frozen Canal",
        (
            "Winter froze the canal solid and children skated between the barges. Pepper the terrier chased "
            "their scarves. Chestnut sellers warmed their hands.",
            "Near the old mill the ice groaned and split open. Pepper plunged into the black water. "
            "Marigold shouted for rope.",
            "A bargeman hauled the shivering terrier onto the towpath. "
            "They wrapped Pepper in a horse blanket. Everyone drank hot cider afterwards.",
        ),
    ),
    (
        "The Clockwork Heron",
        (
            "Marigold built a heron from springs, cogs and copper feathers. "
            "Its beak snapped at passing moths. The neighbours called it uncanny.",
            "At the spring fair the clockwork heron rose above the market stalls. Its wings ticked like a "
            "cathedral clock. Crowds gasped below.",
            "A gust tangled the heron in the weathervane of the guildhall. A chimney sweep climbed the roof "
            "and freed it with a broom.",
        ),
    ),
    (
        "The Last Ferry",
        (
            "Fog smothered the estuary on the evening the ferry departed. Oswin carried a trunk of lanterns "
            "aboard. The foghorn moaned twice.",
            "Marigold waved from the lighthouse gallery with the amber lamp. Its beam cut through the mist "
            "toward the ferry deck.",
            "The ferry vanished past the sandbar into the dark. Marigold kept the workshop open ever after, "
            "mending lanterns for the sailors.",
        ),
    ),
)


def _cues(start_ms: int, text: str) -> tuple[Cue, ...]:
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    return tuple(
        Cue(start_ms=start_ms + i * CUE_MS, end_ms=start_ms + (i + 1) * CUE_MS, text=s)
        for i, s in enumerate(sentences)
    )


def small_passages(*, with_cues: bool = True) -> list[Passage]:
    passages: list[Passage] = []
    for n, (title, texts) in enumerate(CHAPTERS, start=1):
        for text in texts:
            start = len(passages) * PASSAGE_MS
            passages.append(
                Passage(
                    id=len(passages),
                    start_ms=start,
                    end_ms=start + PASSAGE_MS,
                    chapter=n,
                    chapter_title=title,
                    text=text,
                    cues=_cues(start, text) if with_cues else (),
                )
            )
    return passages


def chapters_of(passages: list[Passage]) -> list[ChapterInfo]:
    infos: dict[int, ChapterInfo] = {}
    for p in passages:
        first = infos.get(p.chapter)
        start = first.start_ms if first else p.start_ms
        infos[p.chapter] = ChapterInfo(n=p.chapter, title=p.chapter_title, start_ms=start, end_ms=p.end_ms)
    return list(infos.values())


def small_info(version: str = "v1") -> BookInfo:
    passages = small_passages()
    return BookInfo(
        id="small",
        title="The Harbour Lamps",
        duration_ms=passages[-1].end_ms,
        estimated=False,
        passages=len(passages),
        chapters=chapters_of(passages),
        version=version,
    )


_WORD = re.compile(r"[a-z0-9]+")
FIXED_VOCABULARY = frozenset(_WORD.findall(NOT_TOLD.lower())) | {"chapter", "id"}
"""Words a line may carry whatever the place: the guard's own sentence and labels."""


_LABELS = re.compile(r"^\[\d+:\d\d:\d\d, id=\d+\] (chapter \d+, )?")
"""The guard's stamp and chapter number: a time, an id and a number say nothing of the story."""


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def leaks(line: str, passages: list[Passage], here_ms: int) -> set[str]:
    """Words of ``line`` that exist only in what a listener at ``here_ms`` has not heard,
    and chapter titles of chapters that start ahead (when they were never heard), in the
    quoted form in which the guard prints a title."""
    heard = set(FIXED_VOCABULARY)
    unheard: set[str] = set()
    for p in passages:
        said = heard_text(p, here_ms)
        heard |= words(said)
        if said != p.text:
            unheard |= words(p.text)
    firsts: dict[int, Passage] = {}
    for p in passages:
        firsts.setdefault(p.chapter, p)
    heard_titles = {p.chapter_title for p in firsts.values() if p.start_ms < here_ms}
    for title in heard_titles:  # a chapter begun behind the line may be named with its words
        heard |= words(title)
    leaked = (words(_LABELS.sub("", line)) & unheard) - heard
    for first in firsts.values():
        title = first.chapter_title
        if first.start_ms >= here_ms and title not in heard_titles and f'"{title}"' in line:
            leaked.add(f"title:{title}")
    return leaked
