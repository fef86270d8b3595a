"""Shared helpers of the benchmark scripts: machine note, timing, tables, JSON results.

Timing protocol (every script): ``time.perf_counter``, one warm-up call that is not
timed, then the median (and min/max) of several timed repeats. The machine is shared
with other processes, so the numbers are indicative: the load average at start is
recorded next to them.
"""

import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"

if str(REPO_ROOT) not in sys.path:  # run as `.venv/bin/python benchmarks/<name>.py` from anywhere
    sys.path.insert(0, str(REPO_ROOT))


def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _git_commit():
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine_info():
    """Date, machine and software versions, and the load average at the start of the run."""
    import numpy
    import scipy

    try:
        load = list(os.getloadavg())
    except OSError:
        load = None
    return {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu_model": _cpu_model(),
        "load_average_1_5_15_at_start": load,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "platform": platform.platform(),
        "git_commit": _git_commit(),
        "note": "shared machine: other processes (tests, other engineers' jobs) may run at the same time; "
                "timings are medians of a few repeats and indicative only",
    }


def print_machine(info):
    load = info["load_average_1_5_15_at_start"]
    load_text = "n/a" if load is None else " / ".join(f"{x:.2f}" for x in load)
    print(f"date {info['date_utc']} | commit {info['git_commit']} | nproc {info['nproc']} | "
          f"load avg (1/5/15 min) at start {load_text}")
    print(f"{info['cpu_model']} | Python {info['python']}, numpy {info['numpy']}, scipy {info['scipy']}")
    print("note: the machine is shared; other processes may have been running during these timings.\n")


def time_call(fn, repeats, warmup=True):
    """Time ``fn()``: one untimed warm-up call (if ``warmup``), then ``repeats`` timed calls.

    Returns
    -------
    dict
        ``median_s``, ``min_s``, ``max_s``, ``times_s`` (every repeat, wall clock ``perf_counter``),
        ``cpu_median_s`` (median process CPU time: close to the wall time when the process was not
        starved by other jobs; larger when numpy used several threads), ``repeats`` and
        ``last`` (the return value of the last call, not JSON-serialised by :func:`write_results`).
    """
    if warmup:
        fn()
    times, cpu_times, value = [], [], None
    for _ in range(repeats):
        cpu_start = time.process_time()
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    return {
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "times_s": times,
        "cpu_median_s": statistics.median(cpu_times),
        "repeats": repeats,
        "last": value,
    }


def fmt_seconds(seconds):
    if seconds != seconds:  # NaN
        return "n/a"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"
