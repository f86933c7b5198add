"""What a benchmark reads of another process: its CPU so far, from /proc."""

import os
from pathlib import Path


def process_cpu_s(pid: int) -> float:
    """CPU seconds a process has used (user + system, all its threads), read from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
