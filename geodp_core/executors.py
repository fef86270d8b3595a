"""Run independent cells of a study locally, on a ``concurrent.futures`` executor or on a Dask cluster.

A study (utility curve, sweep, audit table, reproductions) is a list of independent cells, each with its own
deterministic random stream (``SeedSequence(seed, spawn_key=...)``), so its results do not depend on where or in
which order the cells run: the same seed gives the same table locally, on a process pool or on a cluster.

``executor`` may be

* ``None`` or ``"local"``: the cells run one after the other in this process (the default);
* a :class:`concurrent.futures.Executor` (thread or process pool);
* a ``dask.distributed.Client`` (its ``get_executor()`` is used);
* a scheduler address ``"tcp://host:port"`` (a Client is connected for the call and closed after).

Cell functions must be importable module-level functions and their arguments picklable (a process pool or a
cluster sends them to other processes).
"""

import concurrent.futures
import contextlib

from geodp_core.exceptions import InvalidParameterError

__all__ = ["run_cells", "check_executor"]


def _is_dask_client(obj):
    return type(obj).__module__.startswith("distributed") and hasattr(obj, "get_executor")


def check_executor(executor):
    """Validate ``executor``; raises :class:`InvalidParameterError` (``param="executor"``) naming what is allowed."""
    if executor is None or executor == "local":
        return executor
    if isinstance(executor, str):
        if not executor.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
            raise InvalidParameterError(
                f"executor must be None, 'local', a concurrent.futures.Executor, a dask.distributed.Client or a "
                f"scheduler address like 'tcp://host:8786'; got {executor[:60]!r}", param="executor")
        return executor
    if isinstance(executor, concurrent.futures.Executor) or _is_dask_client(executor):
        return executor
    raise InvalidParameterError(
        f"executor must be None, 'local', a concurrent.futures.Executor, a dask.distributed.Client or a scheduler "
        f"address; got {type(executor).__name__}", param="executor")


@contextlib.contextmanager
def _pool(executor):
    """A ``concurrent.futures``-style executor for ``executor`` (a Client opened here is closed on exit)."""
    if isinstance(executor, str):
        from distributed import Client  # noqa: PLC0415 - optional dependency, only for a scheduler address

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
    results = [None] * total
    with _pool(executor) as pool:
        futures = {pool.submit(function, *args): i for i, args in enumerate(cells)}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            results[futures[future]] = future.result()
            if progress is not None:
                progress(done / total)
    return results
