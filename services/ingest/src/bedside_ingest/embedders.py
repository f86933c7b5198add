"""The embedders an ingest runs on: one single-threaded MiniLM session per core.

Batches run side by side, one per session, instead of one session splitting each batch
over two threads: the intra-op threads of one session wait on each other (and spin) and
cost more CPU for the same work. Measured with bench/ingest_black_beauty.py on the
shared 2-core machine: one 2-thread session took 70.8-75.9 CPU-s for Black Beauty's 733
passages, a 1-thread session 51.8 CPU-s.
"""

from bedside_embedding.minilm import MODEL_FILE, TOKENIZER_FILE, MiniLMEmbedder, installed_file

EMBEDDING_WORKERS = 2


def load_embedders(workers: int = EMBEDDING_WORKERS) -> list[MiniLMEmbedder]:
    """``workers`` independent sessions of the pinned model (each checks the files' sha256)."""
    model, tokenizer = installed_file(*MODEL_FILE), installed_file(*TOKENIZER_FILE)
    return [MiniLMEmbedder(model, tokenizer, threads=1) for _ in range(workers)]
