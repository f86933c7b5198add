"""Search's rules without I/O: terms, fusion, recall's line, the part prior, places, the served book.

The engine and the handlers call into these; nothing here touches the store, the model or the bus.
"""
