"""Benchmarks (see README.md). They share the test doubles of tests/support, as the tests do."""

import sys
from pathlib import Path

_SUPPORT = str(Path(__file__).resolve().parents[1] / "tests" / "support")
if _SUPPORT not in sys.path:
    sys.path.append(_SUPPORT)
