"""Exact vectorised samplers vs the generic Riemannian Metropolis–Hastings baseline.

For the Riemannian Laplace (ε-DP, ε = 1) and Riemannian Gaussian (μ-GDP, μ = 1)
mechanisms with sensitivity Δ = 0.2 on S^2, H^2 and SPD(2) affine-invariant, time
``mechanism.sample(center, calibration, n, rng)`` with

* the exact sampler (``sampler="exact"``, the default): n = 10^4 releases;
* random-walk Metropolis–Hastings (``calibrate(..., sampler="mh")``, geodp_core/mechanisms/mcmc.py):
  one chain per release, default chain length (burn-in 200 with scale adaptation + 300 steps);
  n = 2000 releases by default (``--mh-releases 10000`` for the full 10^4: about 1 minute more
  on SPD(2)). MH is vectorised over chains, so its cost is linear in n: the throughput
  (releases/s) at 2000 chains was within ~15% of that at 10^4 chains when this script was written
  (check: ``--mh-releases 10000 --mh-repeats 1 --output bench_samplers_mh10k``).

Reported: releases per second (median of the repeats after one warm-up call), the MH chain
length and mean post-burn-in acceptance rate, the speed-up exact/MH, and as a sanity check the
mean distance dist(η, Y) of each sample next to the exact E dist (quadrature).

Run: ``.venv/bin/python benchmarks/bench_samplers.py`` (about 30–40 s on 2 shared cores).
"""

import argparse

import _common  # noqa: F401  (puts the repository root on sys.path)
import numpy as np
from _common import fmt_seconds, machine_info, print_machine, print_table, time_call, timing_record, write_results

from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import GDP, PureDP

SENSITIVITY = 0.2
MANIFOLDS = (("sphere", 2), ("hyperbolic", 2), ("spd", 2, "affine"))
MECHANISMS = (("riemannian_laplace", PureDP(1.0)), ("riemannian_gaussian", GDP(1.0)))
SEED = 12345


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exact-releases", type=int, default=10_000)
    parser.add_argument("--mh-releases", type=int, default=2_000)
    parser.add_argument("--exact-repeats", type=int, default=5)
    parser.add_argument("--mh-repeats", type=int, default=3)
    parser.add_argument("--output", default="bench_samplers", help="results file name (without .json)")
    args = parser.parse_args()

    info = machine_info()
    print_machine(info)
    rows, records = [], []
    for manifold_args in MANIFOLDS:
        manifold = get_manifold(*manifold_args)
        center = manifold.default_center()
        for name, target in MECHANISMS:
            mechanism = get_mechanism(name, manifold)
            exact_cal = mechanism.calibrate(target, SENSITIVITY)
            mh_cal = mechanism.calibrate(target, SENSITIVITY, sampler="mh")
            sigma = exact_cal.noise["sigma"]
            reference = mechanism.expected_distance(exact_cal)

            rng = np.random.default_rng(SEED)
            mechanism.sample(center, exact_cal, 100, rng)  # warm-up (caches of the radial law etc.)
            exact = time_call(lambda: mechanism.sample(center, exact_cal, args.exact_releases, rng),
                              args.exact_repeats, warmup=False)
            exact_mean = float(np.mean(manifold.dist(center, exact["last"], check=False)))

            acceptances = []

            def run_mh():
                out = mechanism.sample(center, mh_cal, args.mh_releases, rng)
                acceptances.append(mechanism.last_mcmc.acceptance_rate)
                return out

            mechanism.sample(center, mh_cal, 100, rng)  # warm-up
            mh = time_call(run_mh, args.mh_repeats, warmup=False)
            mh_mean = float(np.mean(manifold.dist(center, mh["last"], check=False)))
            result = mechanism.last_mcmc
            chain_length = result.burn_in + result.n_steps

            exact_rate = args.exact_releases / exact["median_s"]
            mh_rate = args.mh_releases / mh["median_s"]
            speedup = exact_rate / mh_rate
            acceptance = float(np.mean(acceptances))
            rows.append([
                manifold.label, name.replace("riemannian_", "R. "), f"{sigma:.4g}", exact_cal.label,
                fmt_seconds(exact["median_s"]), f"{exact_rate:,.0f}",
                fmt_seconds(mh["median_s"]), f"{mh_rate:,.0f}", f"{result.burn_in}+{result.n_steps}",
                f"{acceptance:.3f}", f"{speedup:,.0f}x",
                f"{reference:.4f}", f"{exact_mean:.4f}", f"{mh_mean:.4f}",
            ])
            records.append({
                "manifold": manifold.label,
                "mechanism": name,
                "target": target.describe(),
                "sensitivity": SENSITIVITY,
                "sigma": sigma,
                "exact_label": exact_cal.label,
                "exact": {"releases": args.exact_releases, **timing_record(exact),
                          "releases_per_s": exact_rate, "mean_dist": exact_mean},
                "mh": {"releases": args.mh_releases, **timing_record(mh), "releases_per_s": mh_rate,
                       "burn_in": result.burn_in, "n_steps": result.n_steps, "chain_length": chain_length,
                       "acceptance_rate_mean_over_repeats": acceptance, "mean_dist": mh_mean},
                "speedup_exact_over_mh": speedup,
                "expected_dist_exact_law": reference,
            })
            print(f"  done: {manifold.label}, {name}")

    print()
    print_table(
        ["manifold", "mechanism", "sigma", "label", f"exact t({args.exact_releases})", "exact rel/s",
         f"MH t({args.mh_releases})", "MH rel/s", "MH chain", "MH acc", "speed-up",
         "E dist", "mean exact", "mean MH"],
        rows,
        title=(f"Exact samplers vs Metropolis–Hastings (median of {args.exact_repeats} / {args.mh_repeats} repeats "
               "after a warm-up; rel/s = releases per second; MH chain = burn-in + steps per release)"),
    )
    write_results(args.output, {
        "benchmark": "bench_samplers",
        "description": "exact vectorised samplers vs generic Riemannian random-walk Metropolis-Hastings "
                       "(one chain per release), mechanism.sample(...) only (calibration not timed)",
        "machine": info,
        "settings": vars(args) | {"sensitivity": SENSITIVITY, "seed": SEED},
        "results": records,
    })


if __name__ == "__main__":
    main()
