"""The shape every benchmark reports in, so one command can print them all in one table.

A benchmark script (``bench/<part>_<what>.py``, run as ``python -m bench.<part>_<what>``)
measures, builds ``Figure``s and calls ``report(figures)``. That prints its own table
and, when run by ``bench/run_all.py`` (which sets ``BEDSIDE_BENCH_OUT``), also appends the
figures as JSON lines for the combined table.

The floor is what a figure is compared to: the best the layer underneath can do in the
same run (a bare NATS round trip under a request's latency, a raw JetStream publish rate
under a service's throughput). ``ratio`` is value / floor: for a latency, how many times
the floor it takes; for a rate, what share of the floor it reaches. A figure without a
floor, or with a floor in another unit, has no ratio.
"""

import asyncio
import json
import os
import sys
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TextIO

OUT_ENV = "BEDSIDE_BENCH_OUT"


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile: always one of the values measured."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    floor: float | None = None
    floor_unit: str | None = None
    source: str = ""

    @property
    def ratio(self) -> float | None:
        if self.floor is None or self.floor == 0 or self.value == 0:
            return None
        if self.floor_unit is not None and self.floor_unit != self.unit:
            return None  # not comparable; the table shows both units
        return self.value / self.floor


def latency_figures(
    name: str,
    values_ms: Sequence[float],
    floor_ms: Sequence[float],
    detail: str = "",
    percentiles: Sequence[float] = (50, 95),
) -> list[Figure]:
    """Percentiles (the p50 and the p95 unless told) of some latencies, each beside the same
    percentile of its floor, named "<name> p50<detail>", "<name> p95<detail>"..."""
    return [
        Figure(f"{name} p{p}{detail}", percentile(values_ms, p), "ms", floor=percentile(floor_ms, p))
        for p in percentiles
    ]


def _number(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def table(figures: Iterable[Figure]) -> str:
    rows = [("name", "figure", "unit", "floor", "ratio")]
    for f in figures:
        floor = "" if f.floor is None else f"{_number(f.floor)} {f.floor_unit or f.unit}"
        ratio = "" if f.ratio is None else f"{f.ratio:.2f}x"
        rows.append((f.name, _number(f.value), f.unit, floor, ratio))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def report(figures: list[Figure], out: TextIO = sys.stdout) -> None:
    """Print ``figures`` as a table; under run_all, also hand them over as JSON lines."""
    print(table(figures), file=out)
    path = os.environ.get(OUT_ENV)
    if path:
        source = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
        with open(path, "a", encoding="utf-8") as handle:
            for f in figures:
                record = asdict(f)
                record["source"] = f.source or source
                handle.write(json.dumps(record) + "\n")


def read_figures(path: str) -> list[Figure]:
    figures = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                figures.append(Figure(**json.loads(line)))
    return figures


def run(main: Coroutine[Any, Any, None]) -> None:
    """A benchmark's entry point: each line printed as it comes (a run is read as it goes)."""
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    asyncio.run(main)
