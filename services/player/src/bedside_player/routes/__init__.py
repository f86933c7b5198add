"""The HTTP API's routers, one per concern, and what their routes depend on (``deps``)."""

from bedside_player.routes import adding, books, listening, live, session, turns

API_ROUTERS = (listening.router, session.router, books.router, adding.router, live.router, turns.router)
"""In the order of the OpenAPI document and of matching; ``fallback``'s router goes after them
all. Listening comes first, its report first of all: a playing device reports every 15 s, far
more often than anything else is asked, and a request is matched route by route."""
