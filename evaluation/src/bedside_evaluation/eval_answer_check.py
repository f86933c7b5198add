"""The answer check on scripted replies: how many spoilers it cuts, how many faithful replies.

Pure: the guard's rule on each corpus book's names, one passage per chapter (a chapter's
names count as heard once it has ended), the line at the start of the reply's chapter.
"""

import json
from importlib.resources import files
from pathlib import Path

from bedside_guard import Passage, book_names, check_answer

from bedside_evaluation.corpus import corpus_dir, corpus_missing
from bedside_evaluation.recall_at_chapters import CORPUS_FILE


def chapter_passages(path: Path) -> list[Passage]:
    chapters = json.loads(path.read_text(encoding="utf-8"))["chapters"]
    return [
        Passage(
            id=i,
            start_ms=i * 1000,
            end_ms=i * 1000 + 1000,
            chapter=c["n"],
            chapter_title=c["title"],
            text=c["text"],
        )
        for i, c in enumerate(chapters)
    ]


def run(corpus: Path) -> str:
    written = json.loads(files("bedside_evaluation").joinpath("questions", "answer_replies.json").read_text())
    counts: dict[str, list[int]] = {"spoiler, named": [0, 0], "spoiler, nameless": [0, 0], "faithful": [0, 0]}
    lines: list[str] = []
    for book in written["books"]:
        passages = chapter_passages(corpus / f"{CORPUS_FILE[book['book']]}.json")
        names = book_names(passages)
        for reply in book["replies"]:
            here_ms = next(p.start_ms for p in passages if p.chapter == reply["at"])
            cut = check_answer(reply["text"], "tell me", names, here_ms).cut > 0
            kind = (
                "faithful"
                if not reply["spoils"]
                else "spoiler, named"
                if reply["named"]
                else "spoiler, nameless"
            )
            counts[kind][0] += int(cut)
            counts[kind][1] += 1
            lines.append(f"{'cut ' if cut else 'kept'} {kind:17} at ch {reply['at']}: {reply['text']}")
    for kind, (cut_count, total) in counts.items():
        lines.append(f"{kind}: cut {cut_count}/{total} ({cut_count / max(total, 1):.0%})")
    return "\n".join(lines)


def main() -> int:
    if corpus_missing():
        return 2
    print(run(corpus_dir()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
