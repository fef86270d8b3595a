"""The ``geodp-reproduce`` command line (``python -m geodp_core.reproduce``), above the figures.

For each id (:data:`~geodp_core.studies.reproductions.REPRODUCTIONS`, ``--list``) it runs the reproduction at the
chosen size, prints the paper's claim, each clause's outcome and the verdict, and writes a CSV table and a
self-contained HTML page of the figures. This module may import :mod:`geodp_core.viz` (it sits above it); the
paper modules never do.
"""

import sys
from html import escape

from geodp_core.executors import check_executor, run_cells
from geodp_core.studies.reproductions import REPRODUCTIONS, run_reproduction
from geodp_core.viz.reproduce import reproduction_figures

__all__ = ["main", "SCHEDULER_TIMEOUT"]


def _run_command(key, mode, seed):
    """One reproduction of the command line (module level: runs on any executor); returns (result, seconds)."""
    import time

    mode = {True: "quick", False: "default"}.get(mode, mode)  # older callers passed quick=True/False
    start = time.perf_counter()
    result = run_reproduction(key, mode, seed)
    return result, time.perf_counter() - start


def _write_outputs(key, result, out):
    """The CSV table and a self-contained HTML page of the figures (plotly.js inlined once)."""
    csv_path = out / f"{key}.csv"
    result.table.to_csv(csv_path, index=False)
    for name, frame in result.tables.items():
        frame.to_csv(out / f"{key}_{name}.csv", index=False)
    figures = reproduction_figures(result)
    body = "\n".join(fig.to_html(include_plotlyjs=(i == 0), full_html=False) for i, fig in enumerate(figures))
    html_path = out / f"{key}.html"
    clauses = "".join(f"<li>{escape(clause.describe())}</li>" for clause in result.clauses)
    html_path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{key}</title></head><body>"
                         f"<h2>{escape(result.paper)}</h2><p>[{escape(result.status)}] {escape(result.verdict)}</p>"
                         f"<ul>{clauses}</ul>{body}</body></html>",
                         encoding="utf-8")
    return csv_path, html_path


def _check_output_folder(out, keys):
    """``None`` if ``out`` is (or can be made) a writable folder where every output of ``keys`` can be written,
    else a message naming ``--out``. Creates the folder (as the run would)."""
    import tempfile

    if out.exists() and not out.is_dir():
        return f"--out must be a folder; {str(out)!r} exists and is not a folder"
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        return f"--out {str(out)!r} cannot be created or written ({exc.strerror or type(exc).__name__}); choose a writable folder"
    for key in keys:
        for path in (out / f"{key}.csv", out / f"{key}.html"):
            if path.exists() and not path.is_file():
                return f"--out {str(out)!r}: {path.name} exists and is not a file, so the results cannot be written there"
    return None


#: Seconds allowed to reach a scheduler before any work (a dead address fails at once instead of after 30 s).
SCHEDULER_TIMEOUT = 3.0


def _check_scheduler(address, timeout=SCHEDULER_TIMEOUT):
    """``None`` if the Dask scheduler at ``address`` accepts a TCP connection within ``timeout`` seconds (and the
    ``distributed`` package is installed), else a message naming ``--scheduler`` and what is accepted."""
    import importlib.util
    import socket
    from urllib.parse import urlsplit

    try:
        check_executor(address)
    except ValueError:
        return f"--scheduler must be an address like tcp://host:8786; got {address[:60]!r}"
    if importlib.util.find_spec("distributed") is None:
        return "--scheduler needs the optional package dask.distributed (pip install distributed); or use --workers N"
    parts = urlsplit(address)
    if parts.scheme in ("tcp", "tls", "ws", "wss"):
        try:
            host, port = parts.hostname, parts.port
        except ValueError:
            host, port = None, None
        if not host or port is None:
            return f"--scheduler must name a host and a port, like tcp://host:8786; got {address[:60]!r}"
        try:
            with socket.create_connection((host, port), timeout=timeout):
                pass
        except OSError as exc:
            return (f"--scheduler {address[:60]!r} is not reachable ({exc.strerror or type(exc).__name__} within "
                    f"{timeout:g} s): start the scheduler, fix the address, or use --workers N instead")
    return None


def main(argv=None):
    """``python -m geodp_core.reproduce``: rerun the papers' experiments, print claims and verdicts, write tables.

    ``--list`` prints the ids. Each reproduction is an independent cell with its own seed, so
    ``--scheduler tcp://host:8786`` (a Dask cluster) or ``--workers N`` (local processes) gives the same tables
    as a plain run.
    """
    import argparse
    import concurrent.futures
    import contextlib
    import pathlib

    parser = argparse.ArgumentParser(prog="python -m geodp_core.reproduce",
                                     description="Rerun the source papers' experiments with geodp_core: for each id a "
                                                 "CSV table, an HTML figure, the paper's claim and our verdict.")
    parser.add_argument("papers", nargs="*", choices=[[], *REPRODUCTIONS], default=[], metavar="ID",
                        help=f"which reproductions (default: all; see --list): {', '.join(REPRODUCTIONS)}")
    parser.add_argument("--list", action="store_true", help="print every id with a one-line description and exit")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true",
                      help="small grids for CI (each id under about 30 s); verdicts are labelled smoke runs")
    size.add_argument("--full", action="store_true", help="the papers' repetition counts (minutes per id)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the data and the releases (default 0)")
    parser.add_argument("--out", default="reproductions",
                        help="folder for the CSV tables and HTML figures (default: reproductions)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://10.0.0.5:8786")
    where.add_argument("--workers", type=int, default=0, help="local worker processes (default: run in this one)")
    args = parser.parse_args(argv)
    if args.list:
        width = max(map(len, REPRODUCTIONS))
        for key, spec in REPRODUCTIONS.items():
            print(f"{key:<{width}}  {spec.description}")
        return 0
    keys = list(dict.fromkeys(args.papers)) or list(REPRODUCTIONS)
    if not 0 <= args.seed <= 2**32 - 1:
        parser.error(f"--seed must be in [0, 2^32 - 1]; got {args.seed}")
    if args.workers < 0:
        parser.error(f"--workers must be >= 0; got {args.workers}")
    mode = "quick" if args.quick else "full" if args.full else "default"
    # every output path and the scheduler are checked before any cell runs (a --full run never loses its work)
    problem = _check_output_folder(pathlib.Path(args.out), keys)
    if problem:
        parser.error(problem)
    if args.scheduler is not None:
        problem = _check_scheduler(args.scheduler)
        if problem:
            parser.error(problem)
    with contextlib.ExitStack() as stack:
        executor = args.scheduler
        if args.workers:
            executor = stack.enter_context(concurrent.futures.ProcessPoolExecutor(args.workers))
        results = run_cells(_run_command, [(key, mode, args.seed) for key in keys], executor)
    out = pathlib.Path(args.out)
    for key, (result, seconds) in zip(keys, results):
        csv_path, html_path = _write_outputs(key, result, out)
        print(f"== {key} ({mode}, {seconds:.1f} s): {result.paper}")
        for claim in result.claims:
            print(f"   paper: {claim.text} ({claim.where})")
        for clause in result.clauses:
            print(f"   clause {clause.describe()}")
        print(f"   [{result.status}{', smoke run' if result.size == 'quick' else ''}] {key}: {result.verdict}\n"
              f"   table: {csv_path}   figure: {html_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

