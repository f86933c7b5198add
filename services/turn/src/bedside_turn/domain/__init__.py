"""The turn's rules without I/O: reading an utterance, what one turn may still do, what the
keyless router offers and says, what the model reads of each tool, and history guarded again.

The tool box, the router's driver, the model loop and the handlers call into these.
"""
