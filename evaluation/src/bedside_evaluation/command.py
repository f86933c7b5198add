"""How an evaluation over named sets runs from the command line."""

import asyncio
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bedside_embedding import Embedder, load_minilm

from bedside_evaluation.corpus import corpus_missing

Evaluation = Callable[[Embedder, list[str]], Coroutine[Any, Any, str]]
"""An evaluation: the sets it is given, measured with the model, as a printable report."""


def run_named(evaluation: Evaluation, argv: Sequence[str] | None, default: str) -> int:
    """Print ``evaluation``'s report on the sets named in ``argv`` (the command line's when None,
    ``default`` when it names none): 0, or 2 when the corpus it needs is absent."""
    names = list(argv if argv is not None else sys.argv[1:]) or [default]
    if corpus_missing():
        return 2
    print(asyncio.run(evaluation(load_minilm(), names)))
    return 0
