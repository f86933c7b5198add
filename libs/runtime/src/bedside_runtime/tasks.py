"""Stopping background tasks for certain."""

import asyncio
from typing import Any

RECANCEL_EVERY_S = 0.5


async def cancel_and_wait(*tasks: "asyncio.Task[Any] | None") -> None:
    """Cancel the tasks and return once every one has ended.

    Python 3.11's ``asyncio.wait_for`` swallows a cancel that lands just as the future it
    waits on completes (nats-py's requests and watchers wait that way), and the task then
    runs on. So a task still running after a short wait is cancelled again. What a task
    ended with is not raised here: each one reports its own failure.
    """
    pending = {task for task in tasks if task is not None and not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=RECANCEL_EVERY_S)
