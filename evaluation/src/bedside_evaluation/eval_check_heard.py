"""Heard text checked as if a model had said it: how often the answer check cuts it.

``python -m bedside_evaluation.eval_check_heard [samples]``: for each corpus book, random
passages (a fixed seed) are checked whole, as a model's answer, with the line anywhere
after the passage has ended; every sentence of them has been heard, so every cut is wrong.
"""

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from bedside_contracts.search import CheckAnswer
from bedside_embedding import Embedder, load_minilm
from bedside_guard import sentences_of
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store

from bedside_evaluation.corpus import corpus_dir, corpus_missing
from bedside_evaluation.corpus_books import corpus_artifact
from bedside_evaluation.recall_at_chapters import CORPUS_FILE

SEED = 1


async def run(embedder: Embedder, samples: int, corpus: Path | None = None) -> str:
    corpus = corpus_dir() if corpus is None else corpus
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bedside-heard-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for name in CORPUS_FILE.values():
                artifact = await asyncio.to_thread(corpus_artifact, corpus / f"{name}.json", embedder)
                await engine.index(artifact)
                book = engine.book(artifact.book)
                chosen = random.Random(SEED)
                sentences = cut = 0
                for _ in range(samples):
                    passage = book.passages[chosen.randrange(len(book.passages) - 1)]
                    here_ms = chosen.randint(passage.end_ms, book.passages[-1].end_ms)
                    request = CheckAnswer(
                        book=book.id, here_ms=here_ms, question="tell me", answer=passage.text
                    )
                    cut += (await engine.check(request)).cut
                    sentences += len(sentences_of(passage.text))
                lines.append(f"{name}: {samples} heard passages, {cut} of {sentences} sentences cut")
        finally:
            await store.close()
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if corpus_missing():
        return 2
    print(asyncio.run(run(load_minilm(), int(args[0]) if args else 120)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
