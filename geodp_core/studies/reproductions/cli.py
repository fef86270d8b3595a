"""The ``geodp-reproduce`` command line (``python -m geodp_core.reproduce``), above the figures.

For each id (:data:`~geodp_core.studies.reproductions.REPRODUCTIONS`, ``--list``) it runs the reproduction at the
chosen size, prints the paper's claim, each clause's outcome and the verdict, and writes a CSV table and a
self-contained HTML page of the figures. ``--all-panels`` runs every panel a spec declares (one cell each, so any
executor spreads them; outputs ``ID_PANEL``), ``--n`` / ``--scenario`` set the runner's records / the paper's
scenario where the spec declares them, ``--data-dir`` hands a folder to the specs' real-file hooks; every run writes
and prints a summary table (``summary.csv``, :data:`SUMMARY_COLUMNS`) with an "all panels" row per figure. This
module may import :mod:`geodp_core.viz` (it sits above it); the paper modules never do.
"""

import sys

from geodp_core.exceptions import InvalidParameterError
from geodp_core.executors import check_executor, run_cells
from geodp_core.studies.reproductions import REPRODUCTIONS, run_reproduction
from geodp_core.studies.reproductions.spec import argument_words, combine_panels
from geodp_core.viz.reproduce import reproduction_html

__all__ = ["main", "SCHEDULER_TIMEOUT", "SUMMARY_COLUMNS"]


def _run_command(key, mode, seed, panel=None):
    """One cell of the command line (module level: runs on any executor): the reproduction ``key`` at ``mode`` with
    ``panel`` (runner arguments, or ``None``) merged over the size's; returns (result, seconds)."""
    import time

    mode = {True: "quick", False: "default"}.get(mode, mode)  # older callers passed quick=True/False
    start = time.perf_counter()
    result = run_reproduction(key, mode, seed, panel)
    return result, time.perf_counter() - start


def _write_outputs(name, result, out, data_text=""):
    """The CSV table and a self-contained HTML page of the figures (plotly.js inlined once), named ``name``."""
    csv_path = out / f"{name}.csv"
    result.table.to_csv(csv_path, index=False)
    for table_name, frame in result.tables.items():
        frame.to_csv(out / f"{name}_{table_name}.csv", index=False)
    html_path = out / f"{name}.html"
    html_path.write_text(reproduction_html(result, name, data_text), encoding="utf-8")
    return csv_path, html_path


#: How the summary spells a clause outcome.
_MARKS = {"holds": "✓", "fails": "✗", "inconclusive": "?", "not measured": "?", "not tested": "–",
          "not applicable": "n/a"}
#: Columns of ``summary.csv``.
SUMMARY_COLUMNS = ("id", "panel", "paper_setting", "our_setting", "data", "runtime_s", "verdict", "clauses")


def _words(value):
    if isinstance(value, (tuple, list)):
        return "{" + ", ".join(_words(v) for v in value) + "}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("_", " ")


def _setting_text(arguments):
    """The runner arguments of a cell in words (``n = 50; anchor = random; ε = {0.1, 0.5}``)."""
    return "; ".join(f"{argument_words(key)} = {_words(value)}" for key, value in arguments.items())


def _effective_arguments(spec, arguments):
    """The runner's defaults with ``arguments`` over them (the seed apart): what the cell actually ran."""
    import inspect

    defaults = {name: p.default for name, p in inspect.signature(spec.runner).parameters.items()
                if p.default is not inspect.Parameter.empty and name != "seed"}
    return {**defaults, **arguments}


def _summary_row(spec, slug, arguments, data_text, result, seconds):
    verdict = result.status + (" (smoke run)" if result.size == "quick" else "")
    clauses = " ".join(_MARKS.get(c.outcome, c.outcome) for c in result.clauses)
    return dict(id=spec.id, panel=slug or "—", paper_setting=spec.paper_setting or spec.figure,
                our_setting=_setting_text(_effective_arguments(spec, arguments)), data=data_text, runtime_s=round(seconds, 2), verdict=verdict,
                clauses=clauses)


def _with_figure_rows(rows, plan, results, mode):
    """After the panels of an id run with several panels, one row "all panels": its clauses combined over the panels
    and the verdict of the combination (:func:`~geodp_core.studies.reproductions.spec.combine_panels`)."""
    out, i = [], 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j]["id"] == rows[i]["id"]:
            j += 1
        out.extend(rows[i:j])
        if j - i > 1:
            spec = plan[i][0]
            status, outcomes = combine_panels([(plan[k][1], results[k][0].clauses) for k in range(i, j)], spec.kind)
            out.append(dict(id=spec.id, panel="all panels", paper_setting=spec.paper_setting or spec.figure,
                            our_setting=f"{j - i} panels at the {mode} size", data=rows[i]["data"],
                            runtime_s=round(sum(results[k][1] for k in range(i, j)), 2),
                            verdict=status + (" (smoke run)" if mode == "quick" else ""),
                            clauses=" ".join(_MARKS.get(c.outcome, c.outcome) for c in outcomes)))
            print(f"== {spec.id}, all {j - i} panels: [{status}] "
                  + "; ".join(c.describe() for c in outcomes))
        i = j
    return out


def _print_summary(rows):
    """The summary as an aligned text table (long settings cut to fit; summary.csv keeps them whole)."""
    shown = ("id", "panel", "runtime_s", "verdict", "clauses", "our_setting")
    cells = [[str(row[c]) for c in shown] for row in rows]
    cells = [[text if len(text) <= 70 else text[:69] + "…" for text in row] for row in cells]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(shown)]
    print("Summary (✓ holds, ✗ fails, ? inconclusive or not measured, – not tested, n/a not applicable):")
    print("  " + "  ".join(c.ljust(w) for c, w in zip(shown, widths)))
    for row in cells:
        print("  " + "  ".join(text.ljust(w) for text, w in zip(row, widths)))


def _data_choice(spec, folder):
    """``(runner arguments, words)``: the paper's real files for ``spec`` from ``folder`` when the id has a real
    dataset and the files are there, else the offline data (and why)."""
    if spec.real_data is None:
        return {}, "built-in data (generated as the paper says, or an offline stand-in; no real-file loader for this id)"
    if folder is None:
        return {}, "offline stand-in (no --data-dir given)"
    found = spec.real_data(folder)
    if found is None:
        return {}, f"offline stand-in (the paper's files were not found in {str(folder)!r})"
    return dict(found.arguments), f"real files: {found.source}"


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
    for key in list(keys) + ["summary"]:
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


def _plan(args, parser):
    """The cells of a run: ``[(spec, slug or None, panel arguments, data words)]``, every flag checked first."""
    import pathlib

    keys = list(dict.fromkeys(args.papers)) or list(REPRODUCTIONS)
    folder = None
    if args.data_dir is not None:
        folder = pathlib.Path(args.data_dir)
        if not folder.is_dir():
            parser.error(f"--data-dir must be an existing folder; got {args.data_dir[:80]!r}")
    plan = []
    for key in keys:
        spec = REPRODUCTIONS[key]
        try:
            overrides = spec.overrides(n=args.n, scenario=args.scenario)
        except InvalidParameterError as exc:
            parser.error(str(exc))
        data, data_text = _data_choice(spec, folder)
        panels = spec.panels if args.all_panels and spec.panels else (None,)
        seen = set()
        for panel in panels:
            named = {**(panel or {}), **overrides}
            arguments = {**named, **data}
            marker = repr(sorted(arguments.items(), key=lambda item: item[0]))
            if marker in seen:  # --n / --scenario made two panels the same: run it once
                continue
            seen.add(marker)
            slug = spec.panel_slug(named) if panel is not None else None
            plan.append((spec, slug, arguments or None, data_text))
    return plan


def main(argv=None):
    """``python -m geodp_core.reproduce``: rerun the papers' experiments, print claims and verdicts, write tables.

    ``--list`` prints the ids. Each reproduction (each panel with ``--all-panels``) is an independent cell with its
    own seed, so ``--scheduler tcp://host:8786`` (a Dask cluster) or ``--workers N`` (local processes) gives the
    same tables as a plain run. Every run writes ``summary.csv`` (id, panel, paper setting, our setting, data,
    runtime, verdict, clause outcomes) and prints it.
    """
    import argparse
    import concurrent.futures
    import contextlib
    import pathlib

    import pandas as pd

    parser = argparse.ArgumentParser(prog="python -m geodp_core.reproduce",
                                     description="Rerun the source papers' experiments with geodp_core: for each id a "
                                                 "CSV table, an HTML figure, the paper's claim and our verdict; a "
                                                 "summary table of every run.")
    parser.add_argument("papers", nargs="*", choices=[[], *REPRODUCTIONS], default=[], metavar="ID",
                        help=f"which reproductions (default: all; see --list): {', '.join(REPRODUCTIONS)}")
    parser.add_argument("--list", action="store_true", help="print every id with a one-line description and exit")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true",
                      help="small grids for CI (each id under about 30 s); verdicts are labelled smoke runs")
    size.add_argument("--full", action="store_true", help="the papers' repetition counts (minutes per id)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the data and the releases (default 0)")
    parser.add_argument("--out", default="reproductions",
                        help="folder for the CSV tables, HTML figures and summary.csv (default: reproductions)")
    parser.add_argument("--n", type=int, default=None,
                        help="number of records n, for the ids that have one (e.g. the heat-diffusion ids)")
    parser.add_argument("--scenario", default=None,
                        help="the paper's scenario, for the ids that have them (heat diffusion on H²: 1 = anchor at "
                             "the ball centre, 2 = anchor random in the ball)")
    parser.add_argument("--all-panels", action="store_true",
                        help="run every panel of the paper's grid for each id (one cell per panel; outputs named "
                             "ID_PANEL.csv / .html)")
    parser.add_argument("--data-dir", default=None,
                        help="folder with the papers' real data files (MedMNIST .npz, CIFAR-10 / Fashion-MNIST "
                             "arrays, landmark files), used by the ids that have a real dataset; the offline "
                             "stand-ins otherwise (each output says which)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://10.0.0.5:8786")
    where.add_argument("--workers", type=int, default=0, help="local worker processes (default: run in this one)")
    args = parser.parse_args(argv)
    if args.list:
        width = max(map(len, REPRODUCTIONS))
        for key, spec in REPRODUCTIONS.items():
            panels = f" [{len(spec.panels)} panels]" if spec.panels else ""
            print(f"{key:<{width}}  {spec.description}{panels}")
        return 0
    if not 0 <= args.seed <= 2**32 - 1:
        parser.error(f"--seed must be in [0, 2^32 - 1]; got {args.seed}")
    if args.workers < 0:
        parser.error(f"--workers must be >= 0; got {args.workers}")
    mode = "quick" if args.quick else "full" if args.full else "default"
    plan = _plan(args, parser)
    names = [spec.id if slug is None else f"{spec.id}_{slug}" for spec, slug, _, _ in plan]
    # every output path and the scheduler are checked before any cell runs (a --full run never loses its work)
    problem = _check_output_folder(pathlib.Path(args.out), names)
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
        results = run_cells(_run_command, [(spec.id, mode, args.seed, arguments) for spec, _, arguments, _ in plan],
                            executor)
    out = pathlib.Path(args.out)
    rows = []
    for name, (spec, slug, arguments, data_text), (result, seconds) in zip(names, plan, results):
        csv_path, html_path = _write_outputs(name, result, out, data_text)
        panel = f" panel {slug}" if slug else ""
        print(f"== {spec.id}{panel} ({mode}, {seconds:.1f} s): {result.paper}")
        if data_text:
            print(f"   data: {data_text}")
        for claim in result.claims:
            print(f"   paper: {claim.text} ({claim.where})")
        for clause in result.clauses:
            print(f"   clause {clause.describe()}")
        print(f"   [{result.status}{', smoke run' if result.size == 'quick' else ''}] {name}: {result.verdict}\n"
              f"   table: {csv_path}   figure: {html_path}")
        rows.append(_summary_row(spec, slug, spec.panel_arguments(mode, arguments), data_text, result, seconds))
    rows = _with_figure_rows(rows, plan, results, mode)
    summary = pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
    summary.to_csv(out / "summary.csv", index=False)
    _print_summary(rows)
    print(f"   summary: {out / 'summary.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

