"""The answer check, as search serves it, on the scripted replies: spoilers cut, faithful kept.

``python -m bedside_evaluation.eval_check_replies check_replies [check_replies_final ...]``
Each reply is checked by search's own ``check`` (names and meaning, the real MiniLM vectors
and BM25 index of the corpus book, chunked by ingest) with the line at the first moment of
its chapter (or as far into it as its ``into`` says). Each named set is counted on its own, then all together.
"""

import asyncio
import tempfile
from pathlib import Path

from bedside_contracts.search import CheckAnswer
from bedside_embedding import Embedder
from bedside_guard import check_answer
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store

from bedside_evaluation.check_replies import kind_of, line_of, load_replies
from bedside_evaluation.command import run_named
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.corpus_books import corpus_artifact
from bedside_evaluation.recall_at_chapters import CORPUS_FILE

KINDS = ("spoiler, named", "spoiler, nameless", "faithful")
Counts = dict[str, list[int]]


def _tally(counts: Counts) -> list[str]:
    spoilers = [sum(counts[k][i] for k in KINDS[:2]) for i in (0, 1)]
    rows = [*counts.items(), ("spoilers", spoilers)]
    return [f"  {kind}: cut {cut}/{total} ({cut / max(total, 1):.0%})" for kind, (cut, total) in rows]


async def run(embedder: Embedder, names: list[str], corpus: Path | None = None) -> str:
    corpus = corpus_dir() if corpus is None else corpus
    lines: list[str] = []
    totals: Counts = {kind: [0, 0] for kind in KINDS}
    by_set: dict[str, Counts] = {}
    with tempfile.TemporaryDirectory(prefix="bedside-check-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for name in names:
                counts = by_set.setdefault(name, {kind: [0, 0] for kind in KINDS})
                for written in load_replies(name).books:
                    path = corpus / f"{CORPUS_FILE[written.book]}.json"
                    artifact = await asyncio.to_thread(corpus_artifact, path, embedder)
                    await engine.index(artifact)
                    book = engine.book(artifact.book)
                    for reply in written.replies:
                        here_ms = line_of(reply, book.passages)
                        request = CheckAnswer(
                            book=book.id, here_ms=here_ms, question="tell me", answer=reply.text
                        )
                        cut = (await engine.check(request)).cut > 0
                        named = check_answer(reply.text, request.question, book.names, here_ms)
                        kind = kind_of(reply)
                        for tally in (counts, totals):
                            tally[kind][0] += int(cut)
                            tally[kind][1] += 1
                        how = "names" if named.cut else "meaning" if cut else ""
                        lines.append(
                            f"{'cut ' if cut else 'kept'} {how:7} {kind:17} {name} {written.book} "
                            f"at ch {reply.at}{f'+{reply.into:.0%}' if reply.into else ''}: {reply.text}"
                        )
        finally:
            await store.close()
    for name, counts in by_set.items():
        lines += [f"{name}:", *_tally(counts)]
    if len(by_set) > 1:
        lines += ["all:", *_tally(totals)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_named(run, argv, "check_replies")


if __name__ == "__main__":
    raise SystemExit(main())
