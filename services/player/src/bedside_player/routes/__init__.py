"""The HTTP API's routers, one per concern, and what their routes depend on (``deps``)."""

from bedside_player.routes import books, listening, live, session, turns

API_ROUTERS = (session.router, books.router, listening.router, live.router, turns.router)
"""In the order of the OpenAPI document; ``fallback``'s router goes after them all."""
