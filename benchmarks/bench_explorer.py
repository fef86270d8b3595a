"""The single-scenario computation behind the Explorer page, and one utility curve.

Target (DESIGN/SPEC): "a widget change answers within about a second".

For the default ``Scenario()`` (S^2, vMF data, n = 100, ε = 1, δ = 1e-5, Riemannian Laplace +
Riemannian Gaussian + Brownian motion, 200 releases each) and one scenario per manifold
(sphere, hyperbolic, SPD affine, SPD log-Euclidean, Euclidean; wrapped-normal data, other
fields at their defaults), ``geodp_core.explorer.run_scenario`` is timed in a FRESH process per
scenario: a child forked from the parent after it imported geodp_core and every mechanism module
(import time reported once) but before any geodp_core call, so every cache is empty:

* cold   — the first call in the process (fills the lru caches: radial-law tables, the exact
  GDP calibration of the Riemannian Gaussian, ...);
* warm   — the same scenario again (median of the repeats; what a rerun with unchanged
  inputs costs without Streamlit's own cache);
* new ε  — the budget changed to a value not seen before (ε × 1.1, 1.2, 1.3; median): what a
  budget-widget change costs, since it needs new calibrations.

The default scenario is also run with one mechanism at a time (where the cold time goes).
Then ``geodp_core.experiments.utility_curve`` for the default scenario with the Utility curves
page's default grid (5 log-spaced ε from 0.1 to 10, 200 repetitions, the 3 default mechanisms),
cold (fresh forked process) and warm (median of the repeats).

Streamlit's own caches (``st.cache_data`` on the pages) are not involved: these are the
computations a cache miss costs.

Run: ``.venv/bin/python benchmarks/bench_explorer.py`` (about 30–45 s on 2 shared cores).
"""

import argparse
import multiprocessing
import time

import _common  # noqa: F401  (puts the repository root on sys.path)
from _common import fmt_seconds, machine_info, print_machine, print_table, write_results

SCENARIOS = (
    ("default", {}),
    ("sphere", {"manifold": "sphere", "data": "wrapped_normal"}),
    ("hyperbolic", {"manifold": "hyperbolic", "data": "wrapped_normal"}),
    ("spd affine", {"manifold": "spd", "metric": "affine", "data": "wrapped_normal"}),
    ("spd log_euclidean", {"manifold": "spd", "metric": "log_euclidean", "data": "wrapped_normal"}),
    ("euclidean", {"manifold": "euclidean", "data": "wrapped_normal"}),
)
BUDGET_FACTORS = (1.1, 1.2, 1.3)
TARGET_SECONDS = 1.0


# ------------------------------------------------------------------------------ workers (fresh process)
def _median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


def worker_scenario(fields, repeats):
    from geodp_core.experiments import budget_parameter
    from geodp_core.explorer import run_scenario
    from geodp_core.scenario import Scenario

    scenario = Scenario(**fields)
    start = time.perf_counter()
    result = run_scenario(scenario)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(repeats):
        start = time.perf_counter()
        run_scenario(scenario)
        warm.append(time.perf_counter() - start)
    param = budget_parameter(scenario.notion)
    changed = []
    for factor in BUDGET_FACTORS:
        new = scenario.with_changes(**{param: getattr(scenario, param) * factor})
        start = time.perf_counter()
        run_scenario(new)
        changed.append(time.perf_counter() - start)
    return {
        "scenario": scenario.to_dict(),
        "manifold_label": result.manifold.label,
        "outcomes": [{"mechanism": o.name, "status": o.status, "label": o.label} for o in result.outcomes],
        "cold_s": cold,
        "warm_times_s": warm,
        "warm_median_s": _median(warm),
        "budget_parameter": param,
        "budget_values": [getattr(scenario, param) * f for f in BUDGET_FACTORS],
        "budget_change_times_s": changed,
        "budget_change_median_s": _median(changed),
    }


def worker_curve(repeats):
    from geodp_core.experiments import grid_values, utility_curve
    from geodp_core.scenario import Scenario

    scenario = Scenario()
    budgets = grid_values(0.1, 10.0, 5, log=True)  # pages/utility_curves.py defaults for ε
    n_reps = 200
    start = time.perf_counter()
    frame = utility_curve(scenario, budgets, n_reps)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(repeats):
        start = time.perf_counter()
        utility_curve(scenario, budgets, n_reps)
        warm.append(time.perf_counter() - start)
    return {
        "scenario": scenario.to_dict(),
        "budgets": budgets,
        "n_reps": n_reps,
        "cells": int(len(frame)),
        "status_counts": {k: int(v) for k, v in frame["status"].value_counts().items()},
        "cold_s": cold,
        "warm_times_s": warm,
        "warm_median_s": _median(warm),
    }


def _child(spec, connection):
    try:
        answer = (worker_scenario(spec["fields"], spec["repeats"]) if spec["kind"] == "scenario"
                  else worker_curve(spec["repeats"]))
        connection.send(("ok", answer))
    except BaseException as exc:  # report, never hang the parent
        connection.send(("error", repr(exc)))
    finally:
        connection.close()


def _run_worker(spec):
    """Run one measurement in a child forked from the parent right after the imports.

    The child starts with every geodp_core module imported but no cache filled (the parent
    never calls geodp_core), i.e. the state of a fresh process after its imports.
    """
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(spec, send))
    process.start()
    send.close()
    status, answer = receive.recv()
    process.join()
    if status != "ok":
        raise RuntimeError(f"worker {spec} failed: {answer}")
    return answer


# ------------------------------------------------------------------------------ main
def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="warm repeats per scenario")
    parser.add_argument("--curve-repeats", type=int, default=2, help="warm repeats of utility_curve")
    args = parser.parse_args()

    info = machine_info()
    print_machine(info)
    start = time.perf_counter()
    import geodp_core.experiments  # noqa: F401  (imports explorer, scenario, data, summaries, ...)
    from geodp_core.mechanisms.registry import MECHANISM_NAMES, mechanism_class

    for name in MECHANISM_NAMES:  # the registry imports mechanism modules lazily; import them all here
        mechanism_class(name)
    import_s = time.perf_counter() - start
    print(f"import geodp_core.experiments + every mechanism module (once, in the parent): {fmt_seconds(import_s)}")
    records, rows = [], []
    for name, fields in SCENARIOS:
        answer = _run_worker({"kind": "scenario", "fields": fields, "repeats": args.repeats})
        answer["name"] = name
        records.append(answer)
        worst = max(answer["cold_s"], answer["budget_change_median_s"])
        labels = ", ".join(f"{o['mechanism'].replace('riemannian_', 'R.')}:{o['status'] if o['status'] != 'ok' else o['label']}"
                           for o in answer["outcomes"])
        rows.append([name, answer["manifold_label"], fmt_seconds(answer["cold_s"]),
                     fmt_seconds(answer["warm_median_s"]), fmt_seconds(answer["budget_change_median_s"]),
                     "yes" if worst <= TARGET_SECONDS else "NO", labels])
        print(f"  done: {name}")
    breakdown, breakdown_rows = [], []
    default_mechanisms = records[0]["scenario"]["mechanisms"]
    for name in default_mechanisms:  # where the default scenario's cold time goes
        answer = _run_worker({"kind": "scenario", "fields": {"mechanisms": [name]}, "repeats": 1})
        breakdown.append({"mechanism": name, "cold_s": answer["cold_s"], "warm_median_s": answer["warm_median_s"],
                          "budget_change_median_s": answer["budget_change_median_s"]})
        breakdown_rows.append([name, fmt_seconds(answer["cold_s"]), fmt_seconds(answer["warm_median_s"]),
                               fmt_seconds(answer["budget_change_median_s"])])
    curve = _run_worker({"kind": "curve", "repeats": args.curve_repeats})
    print()
    print_table(
        ["scenario", "manifold", "cold", "warm", "new ε", "cold & new ε ≤ 1 s", "mechanisms (label)"], rows,
        title=(f"run_scenario (fresh forked process per scenario, modules imported, caches empty; warm = median of {args.repeats}, new ε = median of "
               f"{len(BUDGET_FACTORS)} unseen budgets)"),
    )
    print_table(["mechanism alone", "cold", "warm", "new ε"], breakdown_rows,
                title="Default scenario with one mechanism at a time (fresh forked process each; data + mean included)")
    print_table(
        ["computation", "cells", "cold", "warm"],
        [[f"utility_curve(Scenario(), 5 ε in [0.1, 10], n_reps={curve['n_reps']})", curve["cells"],
          fmt_seconds(curve["cold_s"]), fmt_seconds(curve["warm_median_s"])]],
        title=f"Utility curve, default grid (warm = median of {args.curve_repeats}); status {curve['status_counts']}",
    )
    write_results("bench_explorer", {
        "benchmark": "bench_explorer",
        "description": "geodp_core.explorer.run_scenario per scenario (cold = first call in a fresh process, warm, "
                       "new budget) and one geodp_core.experiments.utility_curve with the page's default grid",
        "target": "a widget change answers within about a second",
        "machine": info,
        "import_s": import_s,
        "settings": {"repeats": args.repeats, "curve_repeats": args.curve_repeats,
                     "budget_factors": list(BUDGET_FACTORS)},
        "run_scenario": records,
        "default_scenario_one_mechanism_at_a_time": breakdown,
        "utility_curve": curve,
    })


if __name__ == "__main__":
    main()
