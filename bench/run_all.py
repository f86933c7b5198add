"""Run every benchmark of the project and print one table: name, figure, unit, floor, ratio.

    .venv/bin/python bench/run_all.py            # every bench/<part>_<what>.py
    .venv/bin/python bench/run_all.py search     # only those whose name contains "search"

Each script runs as its own process (``python -m bench.<name>``) from the repository
root, with ``BEDSIDE_BENCH_OUT`` pointing at a file where ``bench.report.report`` leaves
its figures. A script that fails, or reports nothing, is listed as such; the exit code
is 1 if any script failed.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.report import OUT_ENV, Figure, read_figures, table  # noqa: E402

NOT_BENCHMARKS = {"run_all.py", "report.py", "__init__.py"}
TIMEOUT_S = 1800


def is_benchmark(path: Path) -> bool:
    """A runnable script, not a helper module that benchmarks share (e.g. ``player_common``)."""
    return (
        path.name not in NOT_BENCHMARKS
        and not path.name.startswith("test_")
        and '__name__ == "__main__"' in path.read_text(encoding="utf-8")
    )


def scripts(selected: list[str]) -> list[Path]:
    found = sorted(path for path in (REPO / "bench").glob("*_*.py") if is_benchmark(path))
    if selected:
        found = [path for path in found if any(word in path.stem for word in selected)]
    return found


def run(script: Path, out: Path) -> tuple[int, float, str]:
    env = {
        **os.environ,
        OUT_ENV: str(out),
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", f"bench.{script.stem}"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return 124, time.monotonic() - started, f"timed out after {TIMEOUT_S} s"
    return done.returncode, time.monotonic() - started, (done.stdout + done.stderr)[-3000:]


def main(argv: list[str]) -> int:
    found = scripts(argv)
    if not found:
        print("no benchmark scripts (bench/<part>_<what>.py) found", file=sys.stderr)
        return 1
    figures: list[Figure] = []
    failed: list[str] = []
    silent: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bedside-bench-") as tmp:
        for script in found:
            out = Path(tmp) / f"{script.stem}.jsonl"
            print(f"== {script.name}", flush=True)
            code, took, output = run(script, out)
            print(output.rstrip())
            got = read_figures(str(out)) if out.exists() else []
            for figure in got:
                figures.append(
                    figure if figure.source else Figure(**{**figure.__dict__, "source": script.name})
                )
            if code != 0:
                failed.append(f"{script.name} (exit {code})")
            elif not got:
                silent.append(script.name)
            print(f"   {script.name}: exit {code}, {len(got)} figures, {took:.1f} s\n", flush=True)
    print("== every benchmark")
    print(table(figures))
    if silent:
        print(f"\nno figures through bench.report (see their own output above): {', '.join(silent)}")
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
