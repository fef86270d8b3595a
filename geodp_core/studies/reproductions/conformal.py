r"""Density-aware conformal DP (He, Tang, Rahimian & Joshi): ``conformal``, ``conformal_dimension``, ``conformal_n``,
``conformal_spread``, ``conformal_eps`` and ``conformal_images``.

:func:`reproduce_conformal` — §VII-A on S²; :func:`reproduce_conformal_figure` — Figures 2–5 (both panels);
:func:`reproduce_conformal_images` — Figures 7–8 on stand-in image descriptors. The tangent Gaussian is the paper's
baseline at a weaker (ε, δ) target with no formal guarantee. Settings and discussion:
docs/derivations/reproductions.md §4.
"""

import math
import os

import numpy as np
import pandas as pd

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.data import (
    CIFAR10_CLASSES,
    DESCRIPTOR_BALL_RADIUS,
    DESCRIPTOR_SIZES,
    FASHION_MNIST_CLASSES,
    descriptor_public_center,
    load_cifar10,
    load_fashion_mnist,
)
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms.registry import MECHANISM_NAMES, get_mechanism
from geodp_core.pipeline import mean_and_standard_error, prepare, scenario_options, summarise
from geodp_core.privacy import ApproxDP, PureDP
from geodp_core.scenario import Scenario
from geodp_core.studies.reproductions.common import (
    _TAG_CONF,
    PaperClaim,
    Reproduction,
    _check_grid,
    _check_seed,
    _compare,
    _empty_row,
    _fmt_budgets,
    _frame,
    _prepared,
    _stream,
    _utility_row,
    _wins,
    cell_done,
    expect_cells,
    finish,
)
from geodp_core.studies.reproductions.spec import Clause, RealData, reproduction

__all__ = ["CONFORMAL_PAPER_DIMENSIONS", "CONFORMAL_PAPER_N", "CONFORMAL_PAPER_EPS", "CONFORMAL_PAPER_DELTA", "CONFORMAL_FIGURES",
           "CONFORMAL_FIGURE_GRIDS", "CONFORMAL_PAPER_FIXED_EPS", "CONFORMAL_FLOOR_EPS", "CONFORMAL_IMAGE_DATASETS",
           "CONFORMAL_PAPER_IMAGE_EPS", "CONFORMAL_IMAGE_METRIC", "CONFORMAL_CLAIM", "CONFORMAL_FIGURE_CLAIMS",
           "CONFORMAL_IMAGES_CLAIM", "reproduce_conformal", "reproduce_conformal_figure", "reproduce_conformal_images",
           "CONFORMAL_IMAGE_FILES", "CONFORMAL_IMAGE_MAX_IMAGES"]

_PAPER = "Density-aware noise mechanisms for DP on Riemannian manifolds via conformal transformation (He et al.)"

#: §VII-A, Figure 2: "std = 0.1, N = 500 … total privacy budget set to ε_total = 0.3"; Figure 5: ε_total ∈ [0.1, 2].
CONFORMAL_PAPER_N = 500
CONFORMAL_PAPER_EPS = (0.1, 0.3, 1.0, 2.0)
#: Appendix I: "δ = 10⁻⁹" and the classical σ = Δ sqrt(2 ln(1.25/δ))/ε for the tangent Gaussian.
CONFORMAL_PAPER_DELTA = 1e-9

# DP geodesic regression (docs/specification.md §12.7)


_BASELINES = ("“the baselines” are the Riemannian Laplace at the same ε-DP target and the tangent Gaussian at the "
              "weaker (ε, 1e-9) target; the tangent Gaussian has no formal guarantee on the sphere")
#: §VII-A (Figure 2 setting and Figure 5), clause by clause.
CONFORMAL_CLAIM = (
    Clause("“our mechanism shows better utility across various scenarios even with tighter privacy budgets”: holds "
           "when the conformal mechanism is clearly better (2 s.e.) than both baselines at every ε",
           lambda n: n["conformal_better"] == n["n_budgets"] > 0
           and n["better_than_tangent_gaussian"] == n["n_tangent_gaussian"]),
    Clause("“The advantage is most significant in the small ε_total scenario”: holds when the conformal mechanism is "
           "clearly better than the Riemannian Laplace at the smallest ε and its ratio of mean distances is smallest "
           "there", lambda n: n["conformal_better_at_smallest_eps"] and n["ratio_smallest_eps_is_min"]),
    Clause("“tighter confidence bounds for all privacy levels”", None,
           note="the conformal s.e. here is over sanitisations, the baselines' over releases: not comparable"),
)


def _every_cell(n):
    return n["better_than_laplace"] == n["cells"] > 0 and n["better_than_tangent_gaussian"] == n["cells_tangent_gaussian"]


_EVERY_CELL = " holds when the conformal mechanism is clearly better than both baselines at every point of both panels"
#: Figs. 2–5, clause by clause.
CONFORMAL_FIGURE_CLAIMS = {
    "dimension": (Clause("“Under both std=0.1 and std=10.0 conditions, and with a fixed privacy budget of "
                         "ε_total=0.3, our Conformal Laplace mechanism consistently exhibits superior utility”:"
                         + _EVERY_CELL, _every_cell),),
    "n": (Clause("“our Conformal Laplace mechanism consistently achieves lower Riemannian distance compared to the "
                 "baselines”:" + _EVERY_CELL, _every_cell),
          Clause("“particularly when the sample size is small”: holds when in both panels the conformal mechanism is "
                 "clearly better than the Riemannian Laplace at the smallest n, with its largest advantage there",
                 lambda n: n["advantage_largest_at_smallest_x"])),
    "spread": (Clause("“our mechanism consistently yields lower distortion”:" + _EVERY_CELL, _every_cell),
               Clause("“and tighter error dispersion”", None,
                      note="the conformal s.e. here is over sanitisations, the baselines' over releases")),
    "eps": (Clause("“the Conformal Laplace mechanism maintains lower distortion … for all privacy levels”:"
                   + _EVERY_CELL, _every_cell),
            Clause("“and tighter confidence bounds”", None,
                   note="the conformal s.e. here is over sanitisations, the baselines' over releases")),
}
#: §VII-B (Figures 7–8), clause by clause.
CONFORMAL_IMAGES_CLAIM = (
    Clause("“our Conformal-Laplace DP mechanism achieves lower Riemannian distances ρ_g(η_p, η_np) than the other two "
           "mechanisms under the same privacy budget ε” and “stays below the other two mechanisms across all privacy "
           "levels”: holds when it is clearly better than both at every ε on both datasets",
           lambda n: n["beats_both_everywhere"]),
    Clause("“distance decreases as ε increases”: holds when, on each dataset, the conformal mean distance at the "
           "largest ε is clearly (2 s.e.) below the one at the smallest ε", lambda n: n["decreases_everywhere"]),
)

@reproduction("conformal", paper=_PAPER, figure="§VII-A (Figure 2 setting, Figure 5)", space="S²",
              claim=CONFORMAL_CLAIM,
              description="Conformal paper §VII-A: conformal vs Riemannian Laplace on heterogeneous S² data at ε-DP",
              quick=dict(eps_values=(0.5, 2.0), n_calibrations=2, n_reps=50), full=dict(n_calibrations=16, n_reps=1000))
def reproduce_conformal(eps_values=CONFORMAL_PAPER_EPS, n=CONFORMAL_PAPER_N, spread=0.1, n_calibrations=4,
                        n_reps=250, seed=0):
    r"""Conformal paper §VII-A: heterogeneous vMF data on S², conformal vs Riemannian Laplace at ε-DP.

    Data: ``n`` points from a mixture of three vMF laws (spreads s, s/3, 2s; weights 0.6/0.3/0.1; centres
    on a circle of radius 0.42 around the public centre), clipped to the public ball
    :math:`B(m_0, 0.7)`; Fréchet mean and Δ (Reimherr). ONE target ε-DP:

    * conformal (public FEM mesh, :math:`\varepsilon_\phi = 0.3\varepsilon`,
      :math:`\lambda^* = \varepsilon_{conf}/(2\sqrt{\phi_{\max}}\Delta)`): ``n_calibrations`` independent
      sanitisations × ``n_reps`` releases each; s.e. from the per-calibration means
      (:math:`s_{\bar U}/\sqrt K`, which accounts for the random φ);
    * Riemannian Laplace :math:`\sigma = \Delta/\varepsilon`;
    * tangent Gaussian (the paper's baseline) at the weaker target :math:`(\varepsilon, 10^{-9})`-DP,
      classical σ for ε < 1 (analytic otherwise), at the data-dependent mean: "no formal guarantee".

    Parameters
    ----------
    eps_values : array_like
        Total ε values (at most 12), each in (0, 50].
    n : int
        Records, in [20, 5000].
    spread : float
        vMF std s (κ = 1/s²) of the main component, in (0, 1].
    n_calibrations : int
        Independent conformal sanitisations per ε, in [2, 50].
    n_reps : int
        Releases per calibration (and per Laplace / tangent-Gaussian cell: ``n_calibrations · n_reps``),
        in [10, 5000].
    seed : int

    Returns
    -------
    Reproduction
        ``table``: :data:`UTILITY_COLUMNS` (``budget`` = ε) plus ``phi_max`` (mean over calibrations); the
        conformal rows' ``bound`` is the paper's Theorem V.2 (``Conformal.utility_bound``), averaged over the
        calibrations.
    """
    eps_grid = _check_grid(eps_values, "eps_values", low=0.0, high=50.0)
    n = check_int(n, "n", low=20, high=5000)
    spread = check_real(spread, "spread", low=0.0, high=1.0, high_closed=True)
    n_cal = check_int(n_calibrations, "n_calibrations", low=2, high=50)
    n_reps = check_int(n_reps, "n_reps", low=10, high=5000)
    seed = _check_seed(seed)

    prepared = _prepared(("sphere", 2), "vmf_mixture", spread, 0.7, n, seed)  # the app's "vMF mixture"
    manifold, data, true_mean = prepared.manifold, prepared.data, prepared.true_mean
    n_clipped, delta = prepared.n_clipped, prepared.sensitivity

    conformal = get_mechanism("conformal", manifold)
    rows = []
    expect_cells(len(eps_grid) * (n_cal + 2))  # each budget: n_cal conformal calibrations, the Laplace, the tangent
    for j, eps in enumerate(eps_grid):
        target = PureDP(eps)
        means, phis, label, achieved, lam, bounds = [], [], "", "", [], []
        streams = np.random.SeedSequence(seed, spawn_key=(_TAG_CONF, MECHANISM_NAMES.index("conformal"), j)).spawn(2 * n_cal)
        for c in range(n_cal):
            calibration = conformal.calibrate(target, delta, data=data, seed=np.random.default_rng(streams[2 * c]))
            releases = conformal.sample(true_mean, calibration, n_reps, np.random.default_rng(streams[2 * c + 1]))
            means.append(float(np.mean(manifold.dist(true_mean, releases, check=False))))
            phis.append(calibration.noise["phi_max"])
            lam.append(calibration.noise["lambda_star"])
            bounds.append(conformal.utility_bound(calibration))
            label, achieved = calibration.label, calibration.achieved.describe()
            cell_done()
        mean, se = mean_and_standard_error(means)
        rows.append(dict(mechanism="conformal", title=conformal.title, budget=eps, target=target.describe(), mean=mean,
                         se=se, n_reps=n_cal * n_reps, label=label, status="ok", reason="",
                         bound=float(np.mean(bounds)),
                         achieved=achieved, noise=f"lambda_star ≈ {np.mean(lam):.4g}, eps_phi = {0.3 * eps:.3g}",
                         scale=float(np.mean(lam)),
                         phi_max=float(np.mean(phis))))
        row = _utility_row(prepared, "riemannian_laplace", target, n_cal * n_reps,
                           _stream(seed, _TAG_CONF, "riemannian_laplace", j))
        row.update(budget=eps, target=target.describe(), n_reps=n_cal * n_reps, phi_max=np.nan)
        rows.append(row)
        tg_target = ApproxDP(eps, CONFORMAL_PAPER_DELTA)
        row = _utility_row(prepared, "tangent_gaussian", tg_target, n_cal * n_reps,
                           _stream(seed, _TAG_CONF, "tangent_gaussian", j),
                           options=dict(calibration="classical" if eps < 1.0 else "analytic"))
        row.update(budget=eps, target=tg_target.describe(), n_reps=n_cal * n_reps, phi_max=np.nan,
                   title="Tangent Gaussian (paper baseline, weaker (ε, δ) target)")
        rows.append(row)
    table = _frame(rows, ("phi_max",))
    common, diff, se = _compare(table, "conformal", "riemannian_laplace")
    better, worse, tied = _wins(diff, se)
    conf = table[table["mechanism"] == "conformal"].set_index("budget")["mean"]
    lap = table[(table["mechanism"] == "riemannian_laplace") & (table["status"] == "ok")].set_index("budget")["mean"]
    ratio = (conf[lap.index] / lap).to_numpy()
    tg_common, tg_diff, tg_se = _compare(table, "conformal", "tangent_gaussian")
    tg_better, tg_worse, _ = _wins(tg_diff, tg_se)
    numbers = dict(sensitivity=delta, n_clipped=int(n_clipped), conformal_better=better, conformal_worse=worse,
                   conformal_tied=tied, n_budgets=len(common), conformal_over_laplace_min=float(np.min(ratio)),
                   conformal_over_laplace_max=float(np.max(ratio)), better_than_tangent_gaussian=tg_better,
                   worse_than_tangent_gaussian=tg_worse)
    tg_text = (f" Against the paper's tangent-Gaussian baseline (weaker (ε, 1e-9) target, no guarantee) the conformal "
               f"mechanism is clearly better at {tg_better}/{len(tg_common)} ε.")
    smallest = min(common) if common else None
    numbers.update(n_tangent_gaussian=len(tg_common),
                   conformal_better_at_smallest_eps=bool(smallest is not None and diff[0] < -2 * se[0]),
                   ratio_smallest_eps_is_min=bool(len(ratio) and ratio[0] <= ratio.min()))
    if better == len(common):
        details = "the conformal mechanism is clearly better than Riemannian Laplace at every ε." + tg_text
    else:
        details = (f"at the same ε-DP target the conformal mechanism's mean distance is "
                   f"{numbers['conformal_over_laplace_min']:.1f}–{numbers['conformal_over_laplace_max']:.1f}× the "
                   f"Riemannian Laplace's (clearly worse at {worse}/{len(common)} ε). This follows from the paper's "
                   "own calibration: λ* = ε_conf/(2√φ_max Δ) has a factor 2 that Laplace (σ = Δ/ε on a homogeneous "
                   "space) does not pay (the conformal metric is not homogeneous, so the normaliser depends on η), "
                   "ε_conf is only 70% of ε (our split; the paper does not state one) and φ_max ≥ 1 inflates Δ* — a "
                   "rate about 0.7/(2√φ_max) of Laplace's; even with ε_φ → 0 and φ ≡ 1 it would be half. "
                   "Density-adaptive distances do not make that up here." + tg_text)
    claims = (
        PaperClaim("“our mechanism shows better utility across various scenarios even with tighter privacy budgets.”",
                   "§VII-A Results (Figures 2–6; N = 500, std = 0.1, ε_total = 0.3)"),
        PaperClaim("“the Conformal Laplace mechanism maintains lower distortion and tighter confidence bounds for all "
                   "privacy levels. The advantage is most significant in the small ε_total scenario”",
                   "§VII-A, Figure 5 (ε_total from 0.1 to 2)"),
    )
    setup = (f"S², n = {n} from a heterogeneous 3-component vMF mixture (main std {spread:g}), clipped to the public "
             f"ball B(m₀, 0.7) ({n_clipped} clipped); Δ = {delta:.4g}. ONE target ε-DP, ε in {_fmt_budgets(eps_grid)}: "
             f"conformal (public 600-vertex mesh, ε_φ = 0.3ε, {n_cal} independent sanitisations × {n_reps} releases) "
             f"vs Riemannian Laplace ({n_cal * n_reps} releases). Tangent Gaussian at (ε, δ = 1e-9) as the paper's "
             "baseline (no formal guarantee on S²).")
    notes = (
        "The paper's calibration λ* = ε_conf/(2Δ*) with Δ* ≤ √φ_max Δ (Table II, §IV-C eq. (40)) is the one used here.",
        "Our conformal mechanism is a DP version of the paper's (public mesh, FEM Laplacian, exact sampler); the "
        "paper builds its graph Laplacian on the data points (not DP as written) and samples by MCMC.",
        "The paper's 'std' data (a single vMF, std 0.1 or 10) is replaced by a heterogeneous mixture inside the "
        "public ball: the Fréchet-mean sensitivity needs the data in a ball of radius < π/4.",
        "The tangent Gaussian is shown at a weaker (ε, δ) target and has no guarantee at the data-dependent mean.",
    )
    return Reproduction(
        key="conformal",
        paper="Density-aware noise mechanisms for DP on Riemannian manifolds via conformal transformation (He et al.)",
        source="He, Tang, Rahimian & Joshi", setup=setup, claims=claims, table=table, numbers=numbers,
        notes=notes, **finish(CONFORMAL_CLAIM, numbers, details),
    )


#: Figs. 2–5 of the conformal paper, by id suffix: x-axis column, the paper's panels (a)/(b) and its x range.
#: The paper's "dim" is the ambient dimension: points on S^{dim-1} ⊂ R^dim (§VII-A, "S^{d-1}(R) ⊂ R^d").
#: Its std 5 and 10 (nearly uniform) become our widest mixture spread 1.0 (data clipped to the public ball).
CONFORMAL_FIGURES = {
    "dimension": dict(figure="Fig. 2", x="dim", label="ambient dimension d (points on S^(d−1))",
                      panels=(dict(dim=None, spread=0.1, n=500), dict(dim=None, spread=1.0, n=500)),
                      paper_panels="(a) std = 0.1, N = 500; (b) std = 10, N = 500; ε_total = 0.3; d from 3 to 1000"),
    "n": dict(figure="Fig. 3", x="n", label="records n",
              panels=(dict(dim=3, spread=0.1, n=None), dict(dim=10, spread=1.0, n=None)),
              paper_panels="(a) dim = 3, std = 0.1; (b) dim = 10, std = 10; ε_total = 0.3"),
    "spread": dict(figure="Fig. 4", x="spread", label="main vMF std",
                   panels=(dict(dim=3, spread=None, n=1000), dict(dim=10, spread=None, n=500)),
                   paper_panels="(a) dim = 3, N = 1000; (b) dim = 10, N = 500; ε_total = 0.3; std from 0.1 to 10"),
    "eps": dict(figure="Fig. 5", x="eps", label="total ε",
                panels=(dict(dim=3, spread=0.1, n=500), dict(dim=10, spread=1.0, n=500)),
                paper_panels="(a) std = 0.1, dim = 3; (b) std = 5, dim = 10; ε_total from 0.1 to 2"),
}
#: The ``--full`` d grid of ``conformal_dimension``: the paper's range of Fig. 2 (ambient d from 3 to 1000).
CONFORMAL_PAPER_DIMENSIONS = (3, 5, 10, 20, 50, 100, 200, 500, 1000)
#: Default x grids of Figs. 2–5 (the paper's ranges, cut to what runs in seconds here).
CONFORMAL_FIGURE_GRIDS = {"dimension": (3, 5, 10, 20), "n": (100, 250, 500, 1000, 2000),
                          "spread": (0.05, 0.1, 0.3, 0.6, 1.0), "eps": (0.1, 0.3, 0.5, 1.0, 2.0)}
#: Paper's fixed budget of Figs. 2–4 and the ε at which the conformal floors (continuous and vertex sampler) are measured.
CONFORMAL_PAPER_FIXED_EPS = 0.3
CONFORMAL_FLOOR_EPS = 50.0
_TAG_CONF_FIG = 45


def _conformal_options(prepared, stream, sampler="continuous"):
    """The app's public conformal options (:func:`pipeline.scenario_options`: public domain around the PUBLIC
    centre, public data-ball radius) with this reproduction's sanitisation stream and the release sampler:
    ``"continuous"`` (exact, no output discretisation; the default here on every space) or ``"vertex"`` (a public
    point of the mesh / point set plus a uniform point of its cell: the output resolution is the point spacing)."""
    return {**scenario_options("conformal", prepared), "seed": np.random.default_rng(stream), "sampler": sampler}


def _conformal_cells(prepared, eps, n_cal, n_reps, seed, index):
    """Conformal (``n_cal`` sanitisations × ``n_reps``), Riemannian Laplace and tangent Gaussian rows at one ε."""
    manifold, true_mean, delta = prepared.manifold, prepared.true_mean, prepared.sensitivity
    target = PureDP(eps)
    conformal = get_mechanism("conformal", manifold)
    ok, why = conformal.available()
    if not ok:
        rows = [_empty_row("conformal", conformal.title, "unavailable", why)]
    else:
        streams = np.random.SeedSequence(seed, spawn_key=(_TAG_CONF_FIG, MECHANISM_NAMES.index("conformal"),
                                                          *index)).spawn(2 * n_cal)
        means, phis, lam, label, achieved = [], [], [], "", ""
        for c in range(n_cal):
            calibration = conformal.calibrate(target, delta, **_conformal_options(prepared, streams[2 * c]))
            releases = conformal.sample(true_mean, calibration, n_reps, np.random.default_rng(streams[2 * c + 1]))
            means.append(float(np.mean(manifold.dist(true_mean, releases, check=False))))
            phis.append(calibration.noise["phi_max"])
            lam.append(calibration.noise["lambda_star"])
            label, achieved = calibration.label, calibration.achieved.describe()
        mean, se = mean_and_standard_error(means)
        domain = calibration.options.get("domain_radius")
        rows = [dict(mechanism="conformal", title=conformal.title, mean=mean, se=se, label=label, status="ok",
                     reason="", bound=np.nan, achieved=achieved,
                     noise=f"lambda_star ≈ {np.mean(lam):.4g}, eps_phi = {0.3 * eps:.3g}", scale=float(np.mean(lam)),
                     phi_max=float(np.mean(phis)), domain_radius=np.nan if domain is None else float(domain))]
    rows[0].update(budget=eps, target=target.describe(), n_reps=n_cal * n_reps)
    n_base = n_cal * n_reps
    row = _utility_row(prepared, "riemannian_laplace", target, n_base,
                       np.random.default_rng(np.random.SeedSequence(
                           seed, spawn_key=(_TAG_CONF_FIG, MECHANISM_NAMES.index("riemannian_laplace"), *index))))
    row.update(budget=eps, target=target.describe(), n_reps=n_base, phi_max=np.nan)
    rows.append(row)
    tg_target = ApproxDP(eps, CONFORMAL_PAPER_DELTA)
    row = _utility_row(prepared, "tangent_gaussian", tg_target, n_base,
                       np.random.default_rng(np.random.SeedSequence(
                           seed, spawn_key=(_TAG_CONF_FIG, MECHANISM_NAMES.index("tangent_gaussian"), *index))),
                       options=dict(calibration="classical" if eps < 1.0 else "analytic"))
    row.update(budget=eps, target=tg_target.describe(), n_reps=n_base, phi_max=np.nan,
               title="Tangent Gaussian (paper baseline, weaker (ε, δ) target, no formal guarantee)")
    rows.append(row)
    return rows


def _conformal_floor(prepared, n_reps, seed, index, sampler="continuous"):
    """Mean distance of one conformal sanitisation at ε = :data:`CONFORMAL_FLOOR_EPS`: with ``sampler="vertex"`` the
    resolution floor of the public discretisation (it does not fall with ε); with the continuous sampler the
    mechanism's own error at that ε (no floor: it falls like 1/ε)."""
    conformal = get_mechanism("conformal", prepared.manifold)
    streams = np.random.SeedSequence(seed, spawn_key=(_TAG_CONF_FIG, 99, *index)).spawn(2)
    calibration = conformal.calibrate(PureDP(CONFORMAL_FLOOR_EPS), prepared.sensitivity,
                                      **_conformal_options(prepared, streams[0], sampler))
    releases = conformal.sample(prepared.true_mean, calibration, n_reps, np.random.default_rng(streams[1]))
    return float(np.mean(prepared.manifold.dist(prepared.true_mean, releases, check=False)))


def _floor_row(prepared, n_reps, seed, index):
    """``floor`` (the continuous sampler used for the curves, at ε = 50) and ``point_set_floor`` (the vertex sampler
    on the public mesh / point set at ε = 50: the resolution floor the releases would have without the continuous
    sampler)."""
    return dict(floor=_conformal_floor(prepared, n_reps, seed, index),
                point_set_floor=_conformal_floor(prepared, n_reps, seed, index, sampler="vertex"))


def _conformal_panel_wins(table, panel, x):
    """Per panel: cells where conformal is clearly better / worse than each baseline (2 s.e.)."""
    out = {}
    sub = table[table["panel"] == panel]
    for base in ("riemannian_laplace", "tangent_gaussian"):
        _, diff, se = _compare(sub, "conformal", base, by=x)
        better, worse, tied = _wins(diff, se)
        out[base] = (better, worse, tied, len(diff))
    return out


@reproduction("conformal_eps", paper=_PAPER, figure="Figure 5 (both panels)", space="S², S⁹",
              claim=CONFORMAL_FIGURE_CLAIMS["eps"],
              description="Conformal paper Fig. 5 (both panels, d = 3 and 10): mean distance vs the total ε",
              default=dict(figure="eps"), quick=dict(figure="eps", values=(0.3, 2.0), n_calibrations=2, n_reps=40),
              full=dict(figure="eps", values=(0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0), n_calibrations=8, n_reps=500))
@reproduction("conformal_spread", paper=_PAPER, figure="Figure 4 (both panels)", space="S², S⁹",
              claim=CONFORMAL_FIGURE_CLAIMS["spread"],
              description="Conformal paper Fig. 4 (both panels, d = 3 and 10): mean distance vs the data spread "
                          "(vMF std)",
              default=dict(figure="spread"), quick=dict(figure="spread", values=(0.1, 1.0), n_calibrations=2, n_reps=40),
              full=dict(figure="spread", n_calibrations=8, n_reps=500))
@reproduction("conformal_n", paper=_PAPER, figure="Figure 3 (both panels)", space="S², S⁹",
              claim=CONFORMAL_FIGURE_CLAIMS["n"],
              description="Conformal paper Fig. 3 (both panels, d = 3 and 10): mean distance vs the number of records n",
              default=dict(figure="n"), quick=dict(figure="n", values=(100, 1000), n_calibrations=2, n_reps=40),
              full=dict(figure="n", n_calibrations=8, n_reps=500))
@reproduction("conformal_dimension", paper=_PAPER, figure="Figure 2 (both panels)", space="S^(d−1), d = 3…1000",
              claim=CONFORMAL_FIGURE_CLAIMS["dimension"],
              description="Conformal paper Fig. 2 (both panels): mean distance vs ambient dimension d (S^(d−1)), "
                          "conformal vs Riemannian Laplace vs tangent Gaussian on the vMF mixture",
              default=dict(figure="dimension"), quick=dict(figure="dimension", values=(3, 10), n_calibrations=2, n_reps=40),
              full=dict(figure="dimension", values=CONFORMAL_PAPER_DIMENSIONS, n_calibrations=8, n_reps=500))
def reproduce_conformal_figure(figure="eps", values=None, n_calibrations=3, n_reps=100, seed=0):
    r"""Conformal paper Figs. 2–5 (both panels): mean distance to the true mean vs d, n, spread or ε.

    The paper's "dim" is the AMBIENT dimension: its data lie on :math:`S^{d-1} \subset \mathbb{R}^d`, so
    d = 3 is :math:`S^2` and d = 10 is :math:`S^9`. Data: ``n`` points from the heterogeneous vMF mixture
    (``data="vmf_mixture"``: three components of spreads s, s/3, 2s, weights 0.6/0.3/0.1) clipped to the
    public ball :math:`B(m_0, 0.7)`; Fréchet mean :math:`\bar x` and Reimherr's sensitivity
    :math:`\Delta`. Utility :math:`U = \mathbb E\,\rho(\bar x, \tilde x)` at ONE target ε-DP:

    * conformal (public point set / mesh, :math:`\varepsilon_\phi = 0.3\varepsilon`,
      :math:`\lambda^* = \varepsilon_{conf}/(2\sqrt{\phi_{\max}}\Delta)`): ``n_calibrations`` sanitisations ×
      ``n_reps`` releases, s.e. :math:`s_{\bar U}/\sqrt K` over the sanitisations;
    * Riemannian Laplace, density :math:`\propto e^{-\rho(\bar x, z)\varepsilon/\Delta}` (exact sampler);
    * tangent Gaussian at :math:`(\varepsilon, 10^{-9})`, :math:`\sigma = \Delta\sqrt{2\ln(1.25/\delta)}/\varepsilon`
      (analytic for ε ≥ 1) at the data-dependent mean: "no formal guarantee".

    The conformal releases use the exact continuous sampler (no output discretisation, on the mesh of S² and on
    the public point set beyond): its mean distance at :math:`\varepsilon \to \infty` tends to 0 (``floor``, measured
    at ε = :data:`CONFORMAL_FLOOR_EPS`, falls like 1/ε). Beside it, ``point_set_floor`` is the mean distance at
    that ε of the vertex sampler (a public point plus a uniform point of its cell), the resolution floor of the
    discretisation: its cell radius grows like :math:`N^{-1/\dim}`, so it rises with d whatever ε.

    Parameters
    ----------
    figure : {"dimension", "n", "spread", "eps"}
        Paper Fig. 2, 3, 4 or 5 (:data:`CONFORMAL_FIGURES`).
    values : array_like, optional
        The x grid (at most 12 values; default :data:`CONFORMAL_FIGURE_GRIDS`): ambient d in [3, 1000]; n in
        [20, 5000]; spread in (0, 1]; ε in (0, 50].
    n_calibrations : int
        Independent conformal sanitisations per cell, in [2, 50].
    n_reps : int
        Releases per sanitisation (baselines: ``n_calibrations · n_reps``), in [10, 5000].
    seed : int

    Returns
    -------
    Reproduction
        ``table``: :data:`UTILITY_COLUMNS` plus ``panel`` ("a"/"b"), ``dim`` (ambient), ``n``, ``spread``,
        ``x`` (the figure's axis value), ``phi_max``, ``floor`` and ``point_set_floor`` (conformal rows: the two
        mean distances at ε = 50 of the panel and d); ``tables["floor"]``: the same per panel and d.
    """
    figure = check_option(figure, "figure", tuple(CONFORMAL_FIGURES))
    spec = CONFORMAL_FIGURES[figure]
    bounds = {"dimension": (3, 1000), "n": (20, 5000), "spread": (0.0, 1.0), "eps": (0.0, 50.0)}[figure]
    closed = dict(low_closed=figure in ("dimension", "n"), high_closed=True)
    grid = _check_grid(CONFORMAL_FIGURE_GRIDS[figure] if values is None else values, "values", low=bounds[0],
                       high=bounds[1], **closed)
    if figure in ("dimension", "n"):
        grid = tuple(sorted({round(v) for v in grid}))
    n_cal = check_int(n_calibrations, "n_calibrations", low=2, high=50)
    n_reps = check_int(n_reps, "n_reps", low=10, high=5000)
    seed = _check_seed(seed)

    rows, floors = [], []
    for p, panel in enumerate(spec["panels"]):
        name = "ab"[p]
        floor_done = set()
        for i, x in enumerate(grid):
            cell = dict(panel)
            cell[{"dimension": "dim", "n": "n", "spread": "spread", "eps": "eps"}[figure]] = x
            eps = cell.get("eps", CONFORMAL_PAPER_FIXED_EPS)
            dim, n, spread = int(cell["dim"]), int(cell["n"]), float(cell["spread"])
            prepared = _prepared(("sphere", dim - 1), "vmf_mixture", spread, 0.7, n, seed)
            for row in _conformal_cells(prepared, eps, n_cal, n_reps, seed, (p, i)):
                row.update(panel=name, dim=dim, n=n, spread=spread, x=float(x))
                rows.append(row)
            if dim not in floor_done:  # the floor is a resolution limit: once per panel and dimension
                floor_done.add(dim)
                floors.append(dict(panel=name, dim=dim, n=n, spread=spread,
                                   **_floor_row(prepared, n_cal * n_reps, seed, (p, i))))
    floor = pd.DataFrame(floors, columns=["panel", "dim", "n", "spread", "floor", "point_set_floor"])
    levels = {(r.panel, r.dim): (r.floor, r.point_set_floor) for r in floor.itertuples()}
    for row in rows:
        fl = levels.get((row["panel"], row["dim"])) if row["mechanism"] == "conformal" else None
        row.update(floor=np.nan if fl is None else fl[0], point_set_floor=np.nan if fl is None else fl[1])
    table = _frame(rows, ("phi_max", "domain_radius", "panel", "dim", "n", "spread", "x", "floor", "point_set_floor"))

    numbers, parts = {}, []
    total_cells = 0
    all_better_lap = all_better_tg = all_cells_tg = 0
    for name in ("a", "b"):
        wins = _conformal_panel_wins(table, name, "x")
        b_l, w_l, _, n_l = wins["riemannian_laplace"]
        b_t, _, _, n_t = wins["tangent_gaussian"]
        total_cells += n_l
        all_better_lap += b_l
        all_better_tg += b_t
        all_cells_tg += n_t
        sub = table[(table["panel"] == name) & (table["mechanism"] == "conformal")]
        lap = table[(table["panel"] == name) & (table["mechanism"] == "riemannian_laplace")]
        dims = sorted(set(sub["dim"]))
        numbers.update({f"panel_{name}_better_than_laplace": b_l, f"panel_{name}_worse_than_laplace": w_l,
                        f"panel_{name}_better_than_tangent_gaussian": b_t, f"panel_{name}_cells": n_l,
                        f"panel_{name}_conformal_min": float(sub["mean"].min()),
                        f"panel_{name}_laplace_min": float(lap["mean"].min())})
        fl = floor[floor["panel"] == name]
        fl_text = ", ".join(f"{r.floor:.3g} (vertex sampler {r.point_set_floor:.3g}) at d = {r.dim}"
                            for r in fl.itertuples())
        parts.append(f"panel ({name}: {_panel_text(spec['panels']['ab'.index(name)])}, d = {_fmt_budgets(dims)}): conformal clearly better than Riemannian Laplace "
                     f"at {b_l}/{n_l} points (clearly worse at {w_l}), than the tangent Gaussian at {b_t}/{n_t}; "
                     f"smallest mean distance conformal {sub['mean'].min():.3g} vs Laplace {lap['mean'].min():.3g}; "
                     f"conformal mean distance at ε = {CONFORMAL_FLOOR_EPS:g} {fl_text}")
        extra = _conformal_win_text(table[table["panel"] == name], "x", {"dimension": "d", "eps": "ε"}.get(
            figure, figure))
        if extra:
            parts[-1] += f" ({extra})"
    for r in floor.itertuples():
        numbers[f"floor_d{r.dim}_{r.panel}"] = float(r.floor)
        numbers[f"point_set_floor_d{r.dim}_{r.panel}"] = float(r.point_set_floor)
    numbers.update(better_than_laplace=all_better_lap, better_than_tangent_gaussian=all_better_tg, cells=total_cells,
                   cells_tangent_gaussian=all_cells_tg, advantage_largest_at_smallest_x=_advantage_at_smallest(table))
    details = "; ".join(parts) + "."
    if all_better_lap < total_cells or not total_cells:
        details += " " + _conformal_loss_text(table, floor)
    x_text = _fmt_budgets(grid)
    setup = (f"{spec['figure']} ({spec['paper_panels']} in the paper). Ours: x = {spec['label']} in {x_text}; "
             f"panel (a) {_panel_text(spec['panels'][0])}, panel (b) {_panel_text(spec['panels'][1])}; "
             f"ε = {CONFORMAL_PAPER_FIXED_EPS:g} unless ε is the axis. Heterogeneous 3-component vMF mixture on "
             f"S^(d−1) clipped to the public ball B(m₀, 0.7); conformal ({n_cal} sanitisations × {n_reps} releases; "
             f"density on a public 600-vertex mesh on S², on a 1000-point public quasi-random point set for d ≥ 4; "
             f"releases by the exact continuous sampler, no output discretisation) vs Riemannian Laplace "
             f"({n_cal * n_reps} releases) at ε-DP; tangent Gaussian at (ε, 1e-9) as the paper's baseline.")
    claims = (
        PaperClaim("“our mechanism shows better utility across various scenarios even with tighter privacy budgets.”",
                   "§VII-A Results"),
        PaperClaim({"dimension": "“Under both std=0.1 and std=10.0 conditions, and with a fixed privacy budget of "
                                 "ε_total=0.3, our Conformal Laplace mechanism consistently exhibits superior utility”",
                    "n": "“our Conformal Laplace mechanism consistently achieves lower Riemannian distance compared "
                         "to the baselines, particularly when the sample size is small”",
                    "spread": "“our mechanism consistently yields lower distortion and tighter error dispersion”",
                    "eps": "“the Conformal Laplace mechanism maintains lower distortion and tighter confidence bounds "
                           "for all privacy levels”"}[figure], f"§VII-A, {spec['figure']}"),
    )
    notes = (
        "Dimension convention: the paper's dim d is the ambient dimension (S^(d−1) ⊂ R^d), so d = 3 is S² and "
        "d = 10 is S⁹; the table's dim column uses that convention.",
        "The paper's std 5 and 10 (nearly uniform data on the whole sphere) are replaced by our widest mixture "
        "spread 1.0 inside the public ball B(m₀, 0.7): the Fréchet-mean sensitivity needs the data in a ball of "
        "radius < π/4.",
        "Our conformal mechanism is a DP version of the paper's (public mesh / point set, exact sampler); the "
        "paper builds its graph on the data points (not DP as written).",
        "Releases: the exact continuous sampler of the conformal density (rejection from a Riemannian Laplace "
        "proposal with a public number of proposals), so the error is the mechanism's, not the resolution of the "
        "public points. In high d the conformal volume factor φ^(d/2) would amplify any variation of the sanitised φ "
        "exponentially in d; the sampler caps (φ_max/φ_min)^(d/2) at e (public post-processing), so φ is nearly flat "
        "there and the mechanism is close to a Riemannian Laplace of rate λ*√φ. The 'vertex sampler' floor is what "
        "the releases could not beat on the 1000-point public point set (its nearest-point resolution).",
    )
    wrapped = table[(table["mechanism"] == "tangent_gaussian") & (table["status"] == "ok") & (table["dim"] >= 100)]
    if len(wrapped):
        notes += (f"From d = 100 on the tangent Gaussian's tangent vector has norm about σ√(d−1) > π, and the "
                  f"exponential map wraps it around the sphere: its mean distance there ({wrapped['mean'].min():.3g}–"
                  f"{wrapped['mean'].max():.3g}) reflects the wrap, not utility (and it has no formal guarantee).",)
    return Reproduction(
        key=f"conformal_{figure}",
        paper="Density-aware noise mechanisms for DP on Riemannian manifolds via conformal transformation (He et al.)",
        source="He, Tang, Rahimian & Joshi", setup=setup, claims=claims, table=table, tables={"floor": floor},
        numbers=numbers, notes=notes, labels=_panel_labels(table, spec, figure),
        **finish(CONFORMAL_FIGURE_CLAIMS[figure], numbers, details),
    )


def _panel_labels(table, spec, figure):
    """The figure's axis label and panel titles (plain text for :mod:`geodp_core.viz.reproduce`)."""
    titles = {}
    for name, panel in zip("ab", spec["panels"]):
        dims = sorted(dict.fromkeys(int(d) for d in table[table["panel"] == name]["dim"]))
        parts = [f"d = {dims[0]} (S^{dims[0] - 1})" if len(dims) == 1 else None,
                 None if panel["spread"] is None else f"std {panel['spread']:g}",
                 None if panel["n"] is None else f"n = {panel['n']}"]
        titles[name] = f"({name}) " + ", ".join(p for p in parts if p)
    return dict(x_label=spec["label"], panel_titles=titles, log_x=figure in ("n", "dimension"))


def _advantage_at_smallest(table):
    """In every panel: conformal clearly better than Riemannian Laplace at the smallest x, with its largest advantage
    (Laplace − conformal mean distance) there."""
    for _, sub in table.groupby("panel"):
        common, diff, se = _compare(sub, "conformal", "riemannian_laplace", by="x")
        if not common or not diff[0] < -2 * se[0] or -diff[0] < np.max(-diff):
            return False
    return True


def _conformal_win_text(sub, by, unit):
    """Where the conformal mechanism clearly wins over Riemannian Laplace, and where Laplace is unavailable."""
    texts = []
    conf = sub[(sub["mechanism"] == "conformal") & (sub["status"] == "ok")].set_index(by)
    lap = sub[(sub["mechanism"] == "riemannian_laplace") & (sub["status"] == "ok")].set_index(by)
    common = sorted(set(conf.index) & set(lap.index))
    wins = [k for k in common if conf.loc[k, "mean"] < lap.loc[k, "mean"]
            - 2.0 * math.hypot(conf.loc[k, "se"], lap.loc[k, "se"])]
    if wins:
        radius = float(np.nanmax(conf["domain_radius"])) if np.isfinite(conf["domain_radius"]).any() else np.nan
        domain = (f", while every conformal release stays in its public domain of radius {radius:.3g}"
                  if np.isfinite(radius) else "")
        values = ", ".join(f"{lap.loc[k, 'mean']:.3g}" for k in wins)
        texts.append(f"the conformal wins are at {unit} = {_fmt_budgets(wins)}, where Laplace's mean distance is "
                     f"{values}{domain}")
    missing = sub[(sub["mechanism"] == "riemannian_laplace") & (sub["status"] != "ok")][by].tolist()
    if missing:
        texts.append(f"Riemannian Laplace is unavailable at {unit} = {_fmt_budgets(missing)} (reason in the table)")
    return "; ".join(texts)


def _conformal_loss_text(table, floor):
    """Why the conformal mechanism loses, from the numbers: its calibration rate, with the floors beside."""
    lap = table[(table["mechanism"] == "riemannian_laplace") & (table["status"] == "ok")].set_index(["panel", "x"])
    conf = table[(table["mechanism"] == "conformal") & (table["status"] == "ok")].set_index(["panel", "x"])
    common = conf.index.intersection(lap.index)
    if not len(common):
        return ""
    ratio = (conf.loc[common, "mean"] / lap.loc[common, "mean"]).to_numpy()
    text = (f"The conformal mean distance is {ratio.min():.2g}–{ratio.max():.2g}× the Riemannian Laplace's: the paper's "
            "calibration λ* = ε_conf/(2√φ_max Δ) is at most 0.35 ε/Δ (ε_conf = 0.7ε, the factor 2, φ_max ≥ 1) against "
            "Laplace's ε/Δ. The releases come from the exact continuous sampler, so this is the mechanism's error, "
            "not a resolution floor: at ε = 50 its mean distance is "
            f"{floor['floor'].min():.3g}–{floor['floor'].max():.3g}, while the vertex sampler on the public points "
            f"stays at {floor['point_set_floor'].min():.3g}–{floor['point_set_floor'].max():.3g} there.")
    high = conf[conf["dim"] >= 100]
    if len(high):
        text += (f" From d = 100 on, every mechanism's mean distance is near π/2 (conformal "
                 f"{high['mean'].min():.3g}–{high['mean'].max():.3g}), the distance of a uniform point of the sphere: "
                 "the volume of S^(d−1) at radius r grows like sin^(d−2) r and swamps the noise's decay.")
    return text


def _panel_text(panel):
    return ", ".join(f"{k} = {v:g}" for k, v in panel.items() if v is not None and k != "dim")


#: Figs. 7–8 of the conformal paper: our stand-ins for CIFAR-10 (Fig. 7) and Fashion-MNIST (Fig. 8).
CONFORMAL_IMAGE_DATASETS = {
    "image_patches_covariance": dict(figure="Fig. 7", paper="CIFAR-10", label=0,
                                     name="colour-patch covariance descriptors"),
    "digits_covariance": dict(figure="Fig. 8", paper="Fashion-MNIST", label=3,
                              name="handwritten-digit covariance descriptors"),
}
#: Appendix I: "ε ∈ {0.1, 0.2, ···, 2.0} and δ = 10⁻⁹".
CONFORMAL_PAPER_IMAGE_EPS = (0.1, 0.2, 0.5, 1.0, 1.5, 2.0)
#: The descriptors' metric here: the conformal mechanism needs a flat SPD metric (see the notes).
CONFORMAL_IMAGE_METRIC = "log_euclidean"


#: The paper's real files per dataset: the runner's argument, the loader, the names the command line's data folder
#: is searched for (first found wins), and the classes' names (public metadata).
CONFORMAL_IMAGE_FILES = {
    "image_patches_covariance": dict(argument="cifar10_path", loader=load_cifar10, classes=CIFAR10_CLASSES,
                                     names=("cifar-10-batches-py", "cifar10.npz", "cifar-10.npz")),
    "digits_covariance": dict(argument="fashion_mnist_path", loader=load_fashion_mnist,
                              classes=FASHION_MNIST_CLASSES,
                              names=("fashion-mnist", "fashion_mnist.npz", "fashion-mnist.npz")),
}
#: Public cap on the images of one class read from a real file (descriptors cost about a millisecond each).
CONFORMAL_IMAGE_MAX_IMAGES = 2000


def _image_files(folder):
    """The command line's real-data hook: the CIFAR-10 / Fashion-MNIST files found in ``folder`` (or ``None``)."""
    import pathlib

    arguments, found = {}, []
    for info in CONFORMAL_IMAGE_FILES.values():
        for name in info["names"]:
            path = pathlib.Path(folder) / name
            if path.exists():
                arguments[info["argument"]] = str(path)
                found.append(f"{path}")
                break
    if not arguments:
        return None
    return RealData(arguments, "; ".join(found) + " (CIFAR-10 / Fashion-MNIST)")


def _image_dataset(name, path, seed):
    """``(prepared, source)``: one class of dataset ``name`` from the real file ``path``, or the bundled stand-in
    (``path`` ``None``), clipped to the public ball B(cI, r) and summarised."""
    info = CONFORMAL_IMAGE_DATASETS[name]
    if path is None:
        scenario = Scenario(manifold="spd", dim=DESCRIPTOR_SIZES[name], metric=CONFORMAL_IMAGE_METRIC, data=name,
                            data_class=info["label"], radius=DESCRIPTOR_BALL_RADIUS, n=5000, seed=seed,
                            mechanisms=("riemannian_laplace",))
        return prepare(scenario), f"{info['paper']} stand-in: {info['name']}"
    files = CONFORMAL_IMAGE_FILES[name]
    label = info["label"]
    dataset = files["loader"](path, label=label, max_images=CONFORMAL_IMAGE_MAX_IMAGES)
    points = np.asarray(dataset.points, dtype=float)
    m = points.shape[-1]
    source = f"{info['paper']} real file {str(path)!r}, class {label} ({files['classes'][label]})"
    # the scenario records the public choices (space, ball radius, seed); the points are the class's descriptors
    scenario = Scenario(manifold="spd", dim=m, metric=CONFORMAL_IMAGE_METRIC, data="upload",
                        radius=DESCRIPTOR_BALL_RADIUS, n=len(points), seed=seed, mechanisms=("riemannian_laplace",))
    prepared = summarise(get_manifold("spd", m, CONFORMAL_IMAGE_METRIC), points, descriptor_public_center(m),
                         DESCRIPTOR_BALL_RADIUS, note=source, scenario=scenario)
    if not math.isfinite(prepared.sensitivity) or prepared.true_mean is None:
        raise InvalidParameterError("the descriptors could not be represented in double precision",
                                    param=files["argument"])
    return prepared, source


@reproduction("conformal_images", paper=_PAPER, figure="Figures 7–8 (§VII-B)",
              space="SPD(11), SPD(9), log-Euclidean (stand-in data, or the paper's files)", claim=CONFORMAL_IMAGES_CLAIM,
              description="Conformal paper Figs. 7–8: private mean of one class of image covariance descriptors "
                          "(SPD(11), SPD(9); log-Euclidean) vs ε; CIFAR-10 / Fashion-MNIST files with --data-dir",
              quick=dict(eps_values=(0.5, 2.0), n_calibrations=2, n_reps=30),
              full=dict(eps_values=tuple(round(0.1 * k, 1) for k in (1, 2, 3, 5, 7, 10, 12, 15, 17, 20)),
                        n_calibrations=8, n_reps=500),
              real_data=_image_files)
def reproduce_conformal_images(eps_values=CONFORMAL_PAPER_IMAGE_EPS, datasets=tuple(CONFORMAL_IMAGE_DATASETS),
                               n_calibrations=3, n_reps=100, cifar10_path=None, fashion_mnist_path=None, seed=0):
    r"""Conformal paper Figs. 7–8: private Fréchet mean of one class of image covariance descriptors vs ε.

    For each dataset (``image_patches_covariance``, SPD(11), the CIFAR-10 stand-in; ``digits_covariance``,
    SPD(9), the Fashion-MNIST stand-in) one class :math:`D` is kept; the descriptors live in
    :math:`\mathrm{SPD}(m)` with the log-Euclidean metric :math:`\rho(X, Y) = \|\log X - \log Y\|_F`
    (a flat space of dimension :math:`m(m+1)/2`). Records outside the PUBLIC ball
    :math:`B(cI, 8)` (centre :func:`geodp_core.pipeline.public_reference`, fixed by the descriptor's
    definition, never computed from the data) are clipped onto it; :math:`\bar x` is the Fréchet mean and
    :math:`\Delta = 2r/n`. Utility :math:`\mathbb E\,\rho(\bar x, \tilde x)` at ONE target ε-DP: conformal
    (density on a public point set of the ball, exact continuous sampler in the flat chart, each release projected
    onto the public ball; ``n_calibrations`` sanitisations × ``n_reps`` releases) and Riemannian
    Laplace; tangent Gaussian at :math:`(\varepsilon, 10^{-9})` as the paper's baseline.

    Parameters
    ----------
    eps_values : array_like
        Total ε (at most 12 values), each in (0, 50].
    datasets : sequence of str
        Keys of :data:`CONFORMAL_IMAGE_DATASETS`.
    n_calibrations : int
        Independent conformal sanitisations per ε, in [2, 50].
    n_reps : int
        Releases per sanitisation (baselines: ``n_calibrations · n_reps``), in [10, 5000].
    cifar10_path, fashion_mnist_path : str or None
        The paper's real files (read by :func:`geodp_core.data.load_cifar10` / :func:`~geodp_core.data.load_fashion_mnist`:
        CIFAR-10 batches or ``.npz``; Fashion-MNIST IDX files or ``.npz``) for the CIFAR-10 and the Fashion-MNIST
        dataset; ``None``: the bundled stand-in. The class is the same public label as the stand-in's; at most
        :data:`CONFORMAL_IMAGE_MAX_IMAGES` images of it are read (a public cap). The setup, the notes and
        ``numbers["real_data"]`` say which data were used.
    seed : int

    Returns
    -------
    Reproduction
        ``table``: :data:`UTILITY_COLUMNS` (``budget`` = ε) plus ``dataset``, ``n``, ``dim`` (of the manifold)
        ``phi_max``, ``floor`` and ``point_set_floor`` (conformal rows); ``tables["floor"]``: the conformal mean
        distance at ε = :data:`CONFORMAL_FLOOR_EPS` with the continuous sampler the curves use (``floor``: no
        resolution floor, it falls like 1/ε) and with the vertex sampler (``point_set_floor``: the resolution of the
        1000 public points, which no ε can beat).
    """
    eps_grid = _check_grid(eps_values, "eps_values", low=0.0, high=50.0, high_closed=True)
    if isinstance(datasets, str):
        datasets = (datasets,)
    names = tuple(dict.fromkeys(check_option(d, "datasets", tuple(CONFORMAL_IMAGE_DATASETS)) for d in datasets))
    if not names:
        raise InvalidParameterError("datasets must name at least one dataset", param="datasets")
    n_cal = check_int(n_calibrations, "n_calibrations", low=2, high=50)
    n_reps = check_int(n_reps, "n_reps", low=10, high=5000)
    seed = _check_seed(seed)
    paths = {"image_patches_covariance": cifar10_path, "digits_covariance": fashion_mnist_path}
    for name, path in paths.items():
        if path is not None and not isinstance(path, (str, os.PathLike)):
            argument = CONFORMAL_IMAGE_FILES[name]["argument"]
            raise InvalidParameterError(f"{argument} must be a path or None; got {type(path).__name__}",
                                        param=argument)

    rows, floors, parts, sources = [], [], [], {}
    numbers = {}
    beats, decreases = [], []
    for p, name in enumerate(names):
        info = CONFORMAL_IMAGE_DATASETS[name]
        prepared, sources[name] = _image_dataset(name, paths[name], seed)
        n, dim = len(prepared.data), prepared.manifold.dim
        for i, eps in enumerate(eps_grid):
            for row in _conformal_cells(prepared, eps, n_cal, n_reps, seed, (10 + p, i)):
                row.update(dataset=name, n=n, dim=dim)
                rows.append(row)
        levels = _floor_row(prepared, n_cal * n_reps, seed, (10 + p, 0))
        fl = levels["floor"]
        floors.append(dict(dataset=name, n=n, dim=dim, **levels))
        for row in rows:
            if row["dataset"] == name and row["mechanism"] == "conformal":
                row.update(levels)
        sub = _frame([r for r in rows if r["dataset"] == name], ("phi_max", "domain_radius", "dataset", "n", "dim",
                                                                  "floor", "point_set_floor"))
        _, diff, se = _compare(sub, "conformal", "riemannian_laplace")
        b_l, w_l, _ = _wins(diff, se)
        _, diff, se = _compare(sub, "conformal", "tangent_gaussian")
        b_t, _, _ = _wins(diff, se)
        lap = sub[(sub["mechanism"] == "riemannian_laplace") & (sub["status"] == "ok")]
        conf = sub[(sub["mechanism"] == "conformal") & (sub["status"] == "ok")]
        below = int(np.sum(lap["mean"] < fl))
        numbers.update({f"{name}_better_than_laplace": b_l, f"{name}_worse_than_laplace": w_l,
                        f"{name}_better_than_tangent_gaussian": b_t, f"{name}_floor": fl, f"{name}_n": n,
                        f"{name}_point_set_floor": levels["point_set_floor"],
                        f"{name}_laplace_below_floor": below,
                        f"{name}_conformal_min": float(conf["mean"].min()) if len(conf) else np.nan,
                        f"{name}_laplace_min": float(lap["mean"].min()) if len(lap) else np.nan})
        first, last = conf.sort_values("budget").iloc[0], conf.sort_values("budget").iloc[-1]
        numbers[f"{name}_conformal_decreases"] = bool(len(conf) > 1 and last["mean"] < first["mean"] - 2 * math.hypot(
            first["se"], last["se"]))
        beats.append(b_l == len(eps_grid) and b_t == len(eps_grid))
        decreases.append(numbers[f"{name}_conformal_decreases"])
        parts.append(f"{info['figure']} ({sources[name]}, class {info['label']}, n = {n}, SPD("
                     f"{DESCRIPTOR_SIZES[name]}) of dimension {dim}): conformal clearly better than Riemannian Laplace "
                     f"at {b_l}/{len(eps_grid)} ε (clearly worse at {w_l}), than the tangent Gaussian at "
                     f"{b_t}/{len(eps_grid)}; conformal {conf['mean'].min():.3g}–{conf['mean'].max():.3g} vs Laplace "
                     f"{lap['mean'].min():.3g}–{lap['mean'].max():.3g}; at ε = {CONFORMAL_FLOOR_EPS:g} the conformal "
                     f"mean distance is {fl:.3g} (the vertex sampler's floor on the 1000 public points: "
                     f"{levels['point_set_floor']:.3g}) and Laplace is below it at {below}/{len(lap)} ε")
        extra = _conformal_win_text(sub, "budget", "ε")
        if extra:
            parts[-1] += f" ({extra})"
    table = _frame(rows, ("phi_max", "domain_radius", "dataset", "n", "dim", "floor", "point_set_floor"))
    floor = pd.DataFrame(floors, columns=["dataset", "n", "dim", "floor", "point_set_floor"])
    real = [name for name in names if paths[name] is not None]
    numbers.update(beats_both_everywhere=bool(all(beats)), decreases_everywhere=bool(all(decreases)),
                   n_eps=len(eps_grid), real_data=bool(real), real_datasets=len(real))
    details = "; ".join(parts) + "."
    if not all(beats):
        details += (" The descriptors live in 45 to 66 dimensions. The releases come from the exact continuous "
                    "sampler (no floor: the conformal mean distance falls like 1/ε), so the gap to Laplace is the "
                    "paper's calibration λ* = ε_conf/(2√φ_max Δ) ≤ 0.35 ε/Δ against Laplace's ε/Δ; where Laplace's "
                    "releases go far beyond the public ball the conformal ones are projected back onto it (public "
                    "post-processing), which caps its distance at the ball's diameter.")
    claims = (
        PaperClaim("“Across both datasets, our Conformal-Laplace DP mechanism achieves lower Riemannian distances "
                   "ρ_g(η_p, η_np) than the other two mechanisms under the same privacy budget ε.”",
                   "§VII-B, Figures 7–8"),
        PaperClaim("“distance decreases as ε increases, and Conformal-Laplace DP stays below the other two "
                   "mechanisms across all privacy levels.”", "§VII-B, Figure 7"),
    )
    setup = (f"One class of each image-descriptor dataset "
             f"({'; '.join(sources[k] for k in names)}) on SPD(m) with the log-Euclidean "
             f"metric, clipped to the public ball B(cI, {DESCRIPTOR_BALL_RADIUS:g}) (centre fixed by the descriptor's "
             f"definition); Δ = 2r/n. ONE target ε-DP, ε in {_fmt_budgets(eps_grid)}: conformal ({n_cal} "
             f"sanitisations × {n_reps} releases, density on a 1000-point public point set, exact continuous "
             f"sampler) vs Riemannian Laplace "
             f"({n_cal * n_reps} releases); tangent Gaussian at (ε, 1e-9) as the paper's baseline.")
    notes = (
        "Metric: log-Euclidean. The conformal mechanism needs a public discretisation of a public geodesic ball; we "
        "have one for flat SPD metrics (log-Euclidean, log-Cholesky: a Euclidean ball in the chart) but not for the "
        "affine-invariant metric, so the affine-invariant conformal mechanism is unavailable. The paper follows "
        "Utpala et al. (Fréchet mean on SPD with the log-Euclidean metric) for its baselines and does not name a "
        "different metric for its own mechanism.",
        ("Data: " + "; ".join(sources[k] for k in names) + f" (at most {CONFORMAL_IMAGE_MAX_IMAGES} images of the "
         "class are read from a real file, a public cap)." if real else
         "Stand-ins: the paper uses CIFAR-10 (6000 images per class) and Fashion-MNIST (7000 per class); we use the "
         "bundled colour-patch descriptors (SPD(11)) and handwritten-digit descriptors (SPD(9)) with the same kind of "
         "covariance features, so n is much smaller and Δ = 2r/n much larger; the command line reads the paper's "
         "files from a data folder when you have them."),
        "The paper builds its graph on the data points (not DP as written); ours is a public point set.",
    )
    return Reproduction(
        key="conformal_images",
        paper="Density-aware noise mechanisms for DP on Riemannian manifolds via conformal transformation (He et al.)",
        source="He, Tang, Rahimian & Joshi", setup=setup, claims=claims, table=table, tables={"floor": floor},
        numbers=numbers, notes=notes,
        labels=dict(titles={name: (f"{info['figure']}: {info['paper']}, class {info['label']} (real file)"
                                   if paths[name] is not None else
                                   f"{info['figure']}: {info['name']} ({info['paper']} stand-in), class {info['label']}")
                            for name, info in CONFORMAL_IMAGE_DATASETS.items()}),
        **finish(CONFORMAL_IMAGES_CLAIM, numbers, details),
    )


