"""The embedders an ingest runs on: one single-threaded MiniLM session per core.

Batches run side by side, one per session, rather than one session splitting each batch over two
intra-op threads, which wait on (and spin for) each other: faster on a quiet machine, less CPU on a
busy one (measured in services/ingest/README.md, "One session per core").
"""

from bedside_embedding.minilm import MODEL_FILE, TOKENIZER_FILE, MiniLMEmbedder, installed_file

EMBEDDING_WORKERS = 2


def load_embedders(workers: int = EMBEDDING_WORKERS) -> list[MiniLMEmbedder]:
    """``workers`` independent sessions of the pinned model (each checks the files' sha256)."""
    model, tokenizer = installed_file(*MODEL_FILE), installed_file(*TOKENIZER_FILE)
    return [MiniLMEmbedder(model, tokenizer, threads=1) for _ in range(workers)]
