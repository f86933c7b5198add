"""cancel_and_wait ends a task even when it swallows the first cancel."""

import asyncio

from bedside_runtime.tasks import cancel_and_wait


async def test_a_task_that_swallows_one_cancel_is_cancelled_again() -> None:
    swallowed = 0

    async def stubborn() -> None:
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                swallowed += 1
                if swallowed > 1:
                    raise

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await asyncio.wait_for(cancel_and_wait(task), timeout=5)
    assert task.cancelled()
    assert swallowed == 2


async def test_ended_and_missing_tasks_are_fine() -> None:
    async def fails() -> None:
        raise RuntimeError("its own failure")

    done = asyncio.create_task(fails())
    await asyncio.sleep(0)
    await cancel_and_wait(done, None)
    assert isinstance(done.exception(), RuntimeError)
