"""Times every garbage collection of each Python process started with this folder on its path.

``BEDSIDE_GC_LOG=/tmp/gc PYTHONPATH=bench/gc_log:. .venv/bin/python -m bench.player_reports``

Each process (the benchmark and the player it starts) appends one line per collection to
``$BEDSIDE_GC_LOG.<pid>``: the wall clock at its end, the generation, the CPU it took on its
own thread (µs) and how many objects it freed. Without ``BEDSIDE_GC_LOG`` nothing happens.
"""

import gc
import os
import time
from typing import Any

LOG = os.environ.get("BEDSIDE_GC_LOG")

if LOG:
    out = open(f"{LOG}.{os.getpid()}", "w", buffering=1)  # noqa: SIM115 (open for the process's life)
    started = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.thread_time()
            return
        spent_us = (time.thread_time() - started[0]) * 1e6
        out.write(f"{time.time():.3f} {info['generation']} {spent_us:.0f} {info['collected']}\n")

    gc.callbacks.append(timed)
