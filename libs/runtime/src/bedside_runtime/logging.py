"""structlog set up once per process: JSON lines for machines, readable lines on a terminal."""

import logging
import sys
from typing import Literal

import structlog

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def configure_logging(
    service: str,
    fmt: Literal["auto", "json", "console"] = "auto",
    level: str = "info",
) -> structlog.stdlib.BoundLogger:
    """Route structlog and the standard library through one renderer; every line names ``service``."""
    as_json = fmt == "json" or (fmt == "auto" and not sys.stdout.isatty())
    # a traceback's locals can hold a listener's token or a book's unheard lines, and drawing them
    # for a handler holding a book takes the event loop for seconds
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer()
        if as_json
        else structlog.dev.ConsoleRenderer(
            exception_formatter=structlog.dev.RichTracebackFormatter(show_locals=False)
        )
    )
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    # JSON lines carry the traceback as text; the console renderer draws its own.
    errors: list[structlog.types.Processor] = [structlog.processors.format_exc_info] if as_json else []
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *errors, renderer],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(LEVELS.get(level, logging.INFO))
    structlog.contextvars.bind_contextvars(service=service)
    logger: structlog.stdlib.BoundLogger = structlog.get_logger("bedside")
    return logger
