"""The embedders an ingest runs on: one single-threaded MiniLM session per core.

Batches run side by side, one per session, rather than one session splitting each batch
over two intra-op threads, whose threads wait on (and spin for) each other. Measured on
the shared 2-core machine (bench/ingest_black_beauty.py and a 160-passage A/B run):
- heavily loaded (load average ~10): Black Beauty's 733 passages took 50-53 CPU-s with
  the pool, 68-76 CPU-s with one 2-thread session;
- lightly loaded (load average ~3): 160 passages in 6.0-6.3 s (10.7 CPU-s) with the pool,
  5.3-5.8 s (10.3-11.1 CPU-s) with one 2-thread session, 9.2-10.2 s with one 1-thread one.
- nearly idle (load average 1.5), the whole book: 24.0 s with the pool, 30.5 s with one
  2-thread session (46.1 vs 50.5 CPU-s).
The pool is faster on a quiet machine and saves CPU on a busy one.
"""

from bedside_embedding.minilm import MODEL_FILE, TOKENIZER_FILE, MiniLMEmbedder, installed_file

EMBEDDING_WORKERS = 2


def load_embedders(workers: int = EMBEDDING_WORKERS) -> list[MiniLMEmbedder]:
    """``workers`` independent sessions of the pinned model (each checks the files' sha256)."""
    model, tokenizer = installed_file(*MODEL_FILE), installed_file(*TOKENIZER_FILE)
    return [MiniLMEmbedder(model, tokenizer, threads=1) for _ in range(workers)]
