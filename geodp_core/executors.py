"""Run independent cells of a study locally, on a ``concurrent.futures`` executor or on a Dask cluster.

A study (utility curve, sweep, audit table, reproductions) is a list of independent cells, each with its own
deterministic random stream (``SeedSequence(seed, spawn_key=...)``), so its results do not depend on where or in
which order the cells run: the same seed gives the same table locally, on a process pool or on a cluster.

``executor`` may be

* ``None`` or ``"local"``: the cells run one after the other in this process (the default);
* ``"processes"``: a pool of one worker process per CPU, started once and shared by every later call in this
  process (:func:`warm_up_processes` starts it ahead of time; :func:`parallel_executor` chooses it when the
  machine has more than one CPU). If a worker dies, the pool is discarded and the call runs locally;
* a :class:`concurrent.futures.Executor` (thread or process pool);
* a ``dask.distributed.Client`` (its ``get_executor()`` is used);
* a scheduler address ``"tcp://host:port"`` (a Client is connected for the call and closed after).

Cell functions must be importable module-level functions and their arguments picklable (a process pool or a
cluster sends them to other processes).
"""

import concurrent.futures
import concurrent.futures.process
import contextlib
import multiprocessing
import os
import sys
import threading
import types

from geodp_core.exceptions import InvalidParameterError

__all__ = ["run_cells", "check_executor", "parallel_executor", "warm_up_processes"]

#: Environment variable capping the shared pool's workers (``1`` turns the pool off for :func:`parallel_executor`).
WORKERS_VARIABLE = "GEODP_WORKERS"


def _is_dask_client(obj):
    return type(obj).__module__.startswith("distributed") and hasattr(obj, "get_executor")


def check_executor(executor):
    """Validate ``executor``; raises :class:`InvalidParameterError` (``param="executor"``) naming what is allowed."""
    if executor is None or executor in ("local", "processes"):
        return executor
    if isinstance(executor, str):
        if not executor.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
            raise InvalidParameterError(
                f"executor must be None, 'local', 'processes', a concurrent.futures.Executor, a dask.distributed.Client or "
                f"a scheduler address like 'tcp://host:8786'; got {executor[:60]!r}", param="executor")
        return executor
    if isinstance(executor, concurrent.futures.Executor) or _is_dask_client(executor):
        return executor
    raise InvalidParameterError(
        f"executor must be None, 'local', 'processes', a concurrent.futures.Executor, a dask.distributed.Client or a "
        f"scheduler address; got {type(executor).__name__}", param="executor")


def _worker_count():
    """Workers of the shared pool: the CPUs of this machine, capped by ``GEODP_WORKERS`` when set."""
    count = os.cpu_count() or 1
    cap = os.environ.get(WORKERS_VARIABLE, "").strip()
    if cap.isdigit() and int(cap) >= 1:
        count = min(count, int(cap))
    return count


def parallel_executor():
    """``"processes"`` when the shared pool would have more than one worker, else ``None`` (local).

    Also ``None`` inside a worker process of any pool or cluster: a worker never starts a pool of its own.
    """
    inside_worker = multiprocessing.parent_process() is not None
    starting_up = getattr(multiprocessing.current_process(), "_inheriting", False)  # a child importing its main
    if inside_worker or starting_up:
        return None
    return "processes" if _worker_count() > 1 else None


_SHARED = {"pool": None}
_SHARED_LOCK = threading.Lock()


def _warm_worker():
    """Worker initialiser: import the pipeline and fill its caches by evaluating the default scenario's mechanisms
    once (two releases each). The executors sit below every study and never import one."""
    import numpy as np  # runs in the worker

    from geodp_core.pipeline import evaluate, prepare
    from geodp_core.scenario import Scenario

    try:
        scenario = Scenario()
        prepared = prepare(scenario)
        for name in scenario.mechanisms:
            evaluate(prepared, name, scenario.target, 2, np.random.default_rng(0))
    except Exception:  # noqa: BLE001 - warming is best effort; real calls report their own errors
        pass


@contextlib.contextmanager
def _plain_main():
    """Hide the main script from the workers being started.

    A new worker re-imports the parent's ``__main__`` script when it has a file: under Streamlit that is the app
    (or a page under AppTest), which must not run again in a worker. During the spawn ``__main__`` is an empty
    module, so the workers import only what the cells need.
    """
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def _shared_pool():
    """The process pool shared by every ``executor="processes"`` call (created at first use).

    All its workers are started here, at once, so that no later call starts one (see :func:`_plain_main`).
    """
    with _SHARED_LOCK:
        if _SHARED["pool"] is None:
            count = _worker_count()
            pool = concurrent.futures.ProcessPoolExecutor(
                count, mp_context=multiprocessing.get_context("forkserver"), initializer=_warm_worker)
            with _plain_main():
                for _ in range(count):  # while no worker is idle, each submission starts one
                    pool.submit(int)
            _SHARED["pool"] = pool
        return _SHARED["pool"]


def _discard_shared_pool():
    with _SHARED_LOCK:
        pool, _SHARED["pool"] = _SHARED["pool"], None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def warm_up_processes():
    """Start the shared pool's workers now (non-blocking), so that the first parallel study does not wait.

    Only where studies would use the pool (:func:`parallel_executor`); returns the pool, or ``None``. Cheap to
    call again: the pool is created once (and again after a dead worker discarded it).
    """
    return _shared_pool() if parallel_executor() is not None else None


@contextlib.contextmanager
def _pool(executor):
    """A ``concurrent.futures``-style executor for ``executor`` (a Client opened here is closed on exit)."""
    if executor == "processes":
        yield _shared_pool()
        return
    if isinstance(executor, str):
        from distributed import Client  # optional dependency, only for a scheduler address

        with Client(executor) as client:
            yield client.get_executor()
        return
    if _is_dask_client(executor):
        yield executor.get_executor()
        return
    yield executor


def run_cells(function, cells, executor=None, progress=None):
    """``[function(*args) for args in cells]``, run on ``executor``; results in the order of ``cells``.

    Parameters
    ----------
    function : callable
        A module-level function (picklable).
    cells : sequence of tuple
        Arguments of each call.
    executor : see the module docstring
    progress : callable, optional
        ``progress(fraction)`` after each finished cell (in completion order).

    Returns
    -------
    list
    """
    executor = check_executor(executor)
    cells = list(cells)
    total = len(cells)
    if executor is None or executor == "local":
        results = []
        for args in cells:
            results.append(function(*args))
            if progress is not None:
                progress(len(results) / total)
        return results
    try:
        return _run_on_pool(function, cells, executor, progress)
    except concurrent.futures.process.BrokenProcessPool:
        if executor != "processes":
            raise
        _discard_shared_pool()  # a worker died (killed, out of memory): start afresh next time, run this call here
        return run_cells(function, cells, None, progress)


def _run_on_pool(function, cells, executor, progress):
    total = len(cells)
    results = [None] * total
    with _pool(executor) as pool:
        futures = {pool.submit(function, *args): i for i, args in enumerate(cells)}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            results[futures[future]] = future.result()
            if progress is not None:
                progress(done / total)
    return results
