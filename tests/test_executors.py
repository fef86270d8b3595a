"""Sweeps give the same frame whatever runs their cells: local, threads, processes, a Dask LocalCluster."""

import concurrent.futures
import multiprocessing
import os

import pandas as pd
import pytest

from geodp_core import executors
from geodp_core.exceptions import InvalidParameterError
from geodp_core.executors import check_executor, parallel_executor, run_cells
from geodp_core.experiments import sweep, utility_curve
from geodp_core.scenario import Scenario

SCENARIO = Scenario(manifold="sphere", dim=2, data="vmf", n=40, n_releases=5, notion="approx_dp",
                    mechanisms=("riemannian_laplace", "brownian_motion", "riemannian_gaussian"))
BUDGETS = [0.3, 1.0, 4.0]


def _square(x):
    return x * x


def test_run_cells_keeps_order_and_reports_progress():
    seen = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        assert run_cells(_square, [(i,) for i in range(7)], pool, progress=seen.append) == [i * i for i in range(7)]
    assert sorted(seen) == [k / 7 for k in range(1, 8)]
    assert run_cells(_square, [(3,)]) == [9]


@pytest.mark.parametrize("bad", [3, "http://x", object()])
def test_bad_executor_is_named(bad):
    with pytest.raises(InvalidParameterError) as info:
        check_executor(bad)
    assert info.value.param == "executor"


def _die_in_a_worker(x):
    if multiprocessing.parent_process() is not None:  # in a pool's worker: kill it (the pool breaks)
        os._exit(3)
    return x + 1


def test_a_dead_worker_discards_the_shared_pool_and_the_call_runs_here():
    seen = []
    assert run_cells(_die_in_a_worker, [(1,), (2,)], "processes", progress=seen.append) == [2, 3]
    assert seen[-1] == 1.0
    assert run_cells(_square, [(4,)], "processes") == [16]  # a fresh pool serves the next call


def test_parallel_executor_follows_the_cpu_count_and_the_cap(monkeypatch):
    monkeypatch.setenv(executors.WORKERS_VARIABLE, "1")
    assert parallel_executor() is None
    monkeypatch.setattr(executors.os, "cpu_count", lambda: 1)
    monkeypatch.delenv(executors.WORKERS_VARIABLE)
    assert parallel_executor() is None
    monkeypatch.setattr(executors.os, "cpu_count", lambda: 4)
    assert parallel_executor() == "processes"
    monkeypatch.setenv(executors.WORKERS_VARIABLE, "not a number")
    assert parallel_executor() == "processes"
    monkeypatch.setattr(executors.multiprocessing, "parent_process", lambda: object())  # inside a worker
    assert parallel_executor() is None


def test_same_frame_on_every_executor():
    local = utility_curve(SCENARIO, BUDGETS, 30)
    local_sweep = sweep(SCENARIO, "n", [20, 60], 30)
    assert (local["status"] == "ok").sum() >= 6
    pd.testing.assert_frame_equal(utility_curve(SCENARIO, BUDGETS, 30, executor="processes"), local)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(utility_curve(SCENARIO, BUDGETS, 30, executor=pool), local)
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(utility_curve(SCENARIO, BUDGETS, 30, executor=pool), local)
        pd.testing.assert_frame_equal(sweep(SCENARIO, "n", [20, 60], 30, executor=pool), local_sweep)


def test_dask_local_cluster_gives_the_same_frame():
    distributed = pytest.importorskip("distributed")
    local = utility_curve(SCENARIO, BUDGETS, 30)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            pd.testing.assert_frame_equal(utility_curve(SCENARIO, BUDGETS, 30, executor=client), local)
        # a scheduler address works too (a client is opened for the call and closed after)
        pd.testing.assert_frame_equal(utility_curve(SCENARIO, BUDGETS, 30, executor=cluster.scheduler_address),
                                      local)


def test_audit_rows_are_the_same_on_a_process_pool():
    from geodp_core.audit import audit_all
    from geodp_core.geometry import get_manifold
    from geodp_core.privacy import PureDP

    manifold = get_manifold("hyperbolic", 2)
    kwargs = dict(n_releases=400, mechanisms=["riemannian_laplace", "ew_laplace"])
    local = audit_all(manifold, PureDP(1.0), **kwargs)
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        remote = audit_all(manifold, PureDP(1.0), executor=pool, **kwargs)
    assert [r["name"] for r in remote] == [r["name"] for r in local]
    assert [r["eps_lower_bound"] for r in remote] == [r["eps_lower_bound"] for r in local]
    assert {r["verdict"] for r in local} == {"refuted", "not refuted"}  # the control is caught, the rest is not
