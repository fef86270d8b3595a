r"""Exact GDP accounting (quadrature) vs the paper's Monte Carlo (Algorithm 2) on S^2.

Setting of the GDP-on-manifolds paper (§5.2): S^2, Δ = σ = 0.12146.

* ``gdp_mu("sphere", 2, σ, Δ)`` — deterministic quadrature of the privacy profile
  (reference value μ ≈ 0.99754, docs/derivations/riemannian_gaussian_gdp.md);
* ``gdp_mu_monte_carlo(..., n_samples=10^5, n_eps=1000)`` — the paper's Algorithm 2 (the paper
  reports μ ≈ 1.116); one call per seed, seeds 0–4: the maximum over ε of noisy per-ε
  estimates is biased upward, so its values scatter above the exact μ;
* ``riemannian_gaussian_sigma_for_mu("sphere", 2, μ, Δ)`` — calibration (root-find on σ, about
  ten ``gdp_mu`` calls), for μ = 1 and for μ = gdp_mu(σ = 0.12146) (round trip: σ ≈ 0.12146).

Timing: one warm-up call, then the median of the repeats (``time.perf_counter``).
Run: ``.venv/bin/python benchmarks/bench_accounting.py`` (about 15–25 s on 2 shared cores).
"""

import argparse
import statistics
import time

import _common  # noqa: F401  (puts the repository root on sys.path)
import numpy as np
from _common import fmt_seconds, machine_info, print_machine, print_table, time_call, timing_record, write_results

from geodp_core.mechanisms import gdp_mu
from geodp_core.mechanisms.gaussian_gdp import gdp_mu_monte_carlo, riemannian_gaussian_sigma_for_mu

SPACE, DIM = "sphere", 2
DELTA = SIGMA = 0.12146
MC_SAMPLES, MC_EPS = 100_000, 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats of gdp_mu")
    parser.add_argument("--mc-seeds", type=int, default=5, help="Monte Carlo calls (seeds 0, 1, ...)")
    parser.add_argument("--calibration-repeats", type=int, default=3)
    args = parser.parse_args()

    info = machine_info()
    print_machine(info)

    # exact quadrature
    exact = time_call(lambda: gdp_mu(SPACE, DIM, SIGMA, DELTA), args.repeats)
    mu_exact = exact["last"]

    # Monte Carlo (paper's Algorithm 2): warm-up with another seed, then one timed call per seed
    gdp_mu_monte_carlo(SPACE, DIM, SIGMA, DELTA, MC_SAMPLES, np.random.default_rng(10_000), n_eps=MC_EPS)
    mc_times, mc_values = [], []
    for seed in range(args.mc_seeds):
        rng = np.random.default_rng(seed)
        start = time.perf_counter()
        estimate = gdp_mu_monte_carlo(SPACE, DIM, SIGMA, DELTA, MC_SAMPLES, rng, n_eps=MC_EPS)
        mc_times.append(time.perf_counter() - start)
        mc_values.append(estimate.mu)

    # calibration sigma(mu)
    calibrations = []
    for mu_target in (1.0, mu_exact):
        timing = time_call(lambda: riemannian_gaussian_sigma_for_mu(SPACE, DIM, mu_target, DELTA),
                           args.calibration_repeats)
        calibrations.append((mu_target, timing))

    rows = [
        ["gdp_mu (exact quadrature)", fmt_seconds(exact["median_s"]), f"μ = {mu_exact:.6f}", "deterministic"],
        [f"gdp_mu_monte_carlo (n = 10^5, {MC_EPS} ε)", fmt_seconds(statistics.median(mc_times)),
         f"μ = {statistics.median(mc_values):.4f} (median)",
         "seeds 0–%d: %s" % (args.mc_seeds - 1, ", ".join(f"{v:.4f}" for v in mc_values))],
    ]
    for mu_target, timing in calibrations:
        rows.append([f"riemannian_gaussian_sigma_for_mu(μ = {mu_target:.6g})", fmt_seconds(timing["median_s"]),
                     f"σ = {timing['last']:.6f}", "smallest σ with gdp_mu(σ) ≤ μ"])
    print_table(
        ["computation", "median time", "value", "note"], rows,
        title=f"GDP accounting of the Riemannian Gaussian on S^2, Δ = σ = {SIGMA} (paper §5.2; the paper's "
              "Algorithm 2 reports μ ≈ 1.116)",
    )
    ratio = exact["median_s"] / statistics.median(mc_times)
    print(f"time of the exact quadrature / time of one Monte Carlo call = {ratio:.2f}; "
          f"Monte Carlo bias: median estimate - exact = {statistics.median(mc_values) - mu_exact:+.4f} "
          f"(spread over seeds {min(mc_values):.4f}..{max(mc_values):.4f})\n")

    write_results("bench_accounting", {
        "benchmark": "bench_accounting",
        "description": "exact GDP accounting (gdp_mu, quadrature) vs the paper's Monte Carlo Algorithm 2, and "
                       "calibration time, on S^2 with sensitivity = sigma = 0.12146",
        "machine": info,
        "settings": vars(args) | {"space": SPACE, "dim": DIM, "sensitivity": DELTA, "sigma": SIGMA,
                                  "mc_samples_per_law": MC_SAMPLES, "mc_n_eps": MC_EPS},
        "gdp_mu_exact": {"mu": mu_exact, **timing_record(exact)},
        "gdp_mu_monte_carlo": {"seeds": list(range(args.mc_seeds)), "mu": mc_values, "times_s": mc_times,
                               "median_s": statistics.median(mc_times), "median_mu": statistics.median(mc_values),
                               "exact_time_over_mc_time": exact["median_s"] / statistics.median(mc_times),
                               "bias_median_minus_exact": statistics.median(mc_values) - mu_exact},
        "sigma_for_mu": [{"mu_target": mu_target, "sigma": timing["last"], **timing_record(timing)}
                         for mu_target, timing in calibrations],
    })


if __name__ == "__main__":
    main()
