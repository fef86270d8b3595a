r"""Heat-diffusion mechanisms (Chang et al. 2026): ``heat_sphere``, ``heat_hyperbolic``, ``heat_ewg``, ``heat_escape``.

:func:`reproduce_heat_diffusion` — §6: Brownian motion vs the Riemannian Laplace on S² (Figure 3, ``heat_sphere``);
Langevin vs the Riemannian Laplace (Figure 4, ``heat_hyperbolic``) and vs the EW Gaussian (Figure 5, ``heat_ewg``)
on H², at ONE target (2, ε)-RDP; each id declares the paper's panels (n ∈ {10, 50, 100}, and on H² both anchor
scenarios). :func:`reproduce_heat_escape`
— a new quantitative illustration of §5 and Figure 2 (Brownian paths on H² drift to the boundary), not a
reproduction: the paper's figure has no number. Settings and discussion: docs/derivations/reproductions.md §2.
"""

import math

import numpy as np
import pandas as pd

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.data import sample_uniform_ball
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms.registry import get_mechanism
from geodp_core.pipeline import mean_and_standard_error
from geodp_core.privacy import RDP
from geodp_core.studies.reproductions.common import (
    _MAX_GRID,
    _MAX_REPS,
    _TAG_HEAT,
    PaperClaim,
    Reproduction,
    _budgets_with,
    _check_grid,
    _check_seed,
    _compare,
    _fmt_budgets,
    _frame,
    _stream,
    _uniform_ball_data,
    _utility_row,
    _wins,
    expect_cells,
    finish,
)
from geodp_core.studies.reproductions.spec import Clause, reproduction

__all__ = ["HEAT_PAPER_ALPHA", "HEAT_PAPER_EPS", "HEAT_PAPER_SETUPS", "HEAT_SPACES", "HEAT_PAPER_LAMBDA",
           "HEAT_SCENARIOS", "HEAT_SPHERE_PANELS", "HEAT_H2_PANELS", "HEAT_H2_COMPETITORS", "HEAT_SPHERE_CLAIM",
           "HEAT_H2_LAPLACE_CLAIM", "HEAT_H2_EWG_CLAIM", "HEAT_ESCAPE_CHECKS",
           "reproduce_heat_diffusion", "reproduce_heat_escape"]

_PAPER = "Geometric Rényi DP: Ricci curvature characterized by heat diffusion mechanisms (Chang et al.)"

#: §6: "α = 2 and ε ∈ {0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1, 1.5, 2, 2.5, 3}", 1000 repetitions.
HEAT_PAPER_ALPHA = 2.0
HEAT_PAPER_EPS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0)
#: §6.1 / §6.2: data uniform in B(p, r); S²: p = (0, 0, 1), r = π/5; H²: p = (1, 0, 0), r = 3; n ∈ {10, 50, 100}.
#: Keyed by the paper's section; ``space`` is the ``space`` argument of :func:`reproduce_heat_diffusion`.
HEAT_PAPER_SETUPS = {"§6.1": dict(space="sphere", radius=math.pi / 5.0, n=(10, 50, 100)),
                     "§6.2": dict(space="hyperbolic", radius=3.0, n=(10, 50, 100))}
#: The spaces of the heat-diffusion reproduction, in the paper's order.
HEAT_SPACES = tuple(setup["space"] for setup in HEAT_PAPER_SETUPS.values())
#: §6.2: "We fix λ = 1.1, where the lower bound for λ is 1 on H²".
HEAT_PAPER_LAMBDA = 1.1

#: The paper's two ways of choosing the PUBLIC Langevin anchor / EW footpoint on H² (§6.2), by scenario number.
HEAT_SCENARIOS = {"1": dict(anchor="center"), "2": dict(anchor="random")}
#: The paper's panels of Figures 3–5: n ∈ {10, 50, 100} (× both scenarios on H²).
HEAT_SPHERE_PANELS = tuple(dict(n=n) for n in HEAT_PAPER_SETUPS["§6.1"]["n"])
HEAT_H2_PANELS = tuple(dict(n=n, **arguments) for arguments in HEAT_SCENARIOS.values()
                       for n in HEAT_PAPER_SETUPS["§6.2"]["n"])
#: Records n the heat-diffusion runner accepts.
HEAT_N_RANGE = (2, 10_000)
#: The H² competitors of Langevin: Figure 4 (the Riemannian Laplace) and Figure 5 (the EW Gaussian).
HEAT_H2_COMPETITORS = ("riemannian_laplace", "ew_gaussian")

_FALLS = Clause(
    "“the Riemannian error decreases as the privacy budget ε increases” (every mechanism of the figure): holds when "
    "each mechanism's mean distance at the largest ε where it runs is below its mean at the smallest by more than 2 "
    "standard errors",
    lambda n: n["errors_fall_with_eps"])
_COMPARABLY = Clause("“Under Scenario 1, the three mechanisms perform comparably overall”", None,
                     note="'comparably' states no tolerance: reported, not tested")
_RL_EVERYWHERE = Clause(
    "(Figure 4 plots the Riemannian Laplace at every ε): holds when the Laplace can be released at every ε of the run "
    "(its law exists and its releases stay where double precision represents H²)",
    lambda n: n["unavailable_riemannian_laplace"] == 0)
#: §6.1, Figure 3: Brownian motion vs the Riemannian Laplace on S².
HEAT_SPHERE_CLAIM = (
    Clause("“the BM mechanism … outperforms the RL mechanism across a wide range of privacy budgets”: holds when "
           "Brownian motion is clearly better (2 s.e.) at half of the ε values or more, and at least as often as the "
           "Laplace is", lambda n: n["better_than_riemannian_laplace"] >= n["n_common_riemannian_laplace"] / 2
           and n["better_than_riemannian_laplace"] >= n["worse_than_riemannian_laplace"]),
    Clause("“For both mechanisms, the distance to the true sample Fréchet mean decreases as ε increases”: holds when "
           "each mechanism's mean distance at the largest ε is below its mean at the smallest by more than 2 standard "
           "errors",
           lambda n: n["errors_fall_with_eps"]),
)
#: §6.2, Figure 4: Langevin vs the Riemannian Laplace on H², both scenarios.
HEAT_H2_LAPLACE_CLAIM = (
    _COMPARABLY,
    Clause("Scenario 1: “with the RL mechanism showing a slight advantage over the Langevin mechanism”: holds when the "
           "Laplace is clearly better at least as many ε as Langevin is",
           lambda n: n["worse_than_riemannian_laplace"] >= n["better_than_riemannian_laplace"], when={"scenario": (1,)}),
    Clause("Scenario 2: “the Langevin mechanism performs better for small n and small ε”: holds when Langevin is "
           "clearly better than the Laplace at the smallest ε where the Laplace runs (panels with n < 50)",
           lambda n: n["langevin_beats_riemannian_laplace_at_smallest_eps"],
           when={"scenario": (2,), "n": slice(None, 50)}),
    Clause("Scenario 2: “and remains competitive, though slightly less accurate, as n and ε become larger”: holds when "
           "the Laplace is clearly better than Langevin at the largest ε (panels with n ≥ 50; 'competitive' is not "
           "tested)", lambda n: n["riemannian_laplace_beats_langevin_at_largest_eps"],
           when={"scenario": (2,), "n": slice(50, None)}),
    _FALLS,
    _RL_EVERYWHERE,
)
#: §6.2, Figure 5: Langevin vs the exponential-wrapped Gaussian on H², both scenarios.
HEAT_H2_EWG_CLAIM = (
    _COMPARABLY,
    Clause("Scenario 1: “and the latter [Langevin] outperforming the EWG mechanism when both n and ε are small”: holds "
           "when Langevin is clearly better than EWG at the smallest ε (panels with n < 50)",
           lambda n: n["langevin_beats_ewg_at_smallest_eps"], when={"scenario": (1,), "n": slice(None, 50)}),
    Clause("Scenario 2: “the Langevin mechanism uniformly outperforms the EWG mechanism across all privacy budgets”: "
           "holds when Langevin is clearly better at every ε where both run",
           lambda n: n["better_than_ew_gaussian"] == n["n_common_ew_gaussian"] > 0, when={"scenario": (2,)}),
    _FALLS,
)


def _heat_claim(compact, competitors):
    """The clauses of the figures a run covers (S²: Figure 3; H²: Figure 4 and/or 5), each clause once."""
    if compact:
        return HEAT_SPHERE_CLAIM
    parts = (HEAT_H2_LAPLACE_CLAIM if "riemannian_laplace" in competitors else ()) + (
        HEAT_H2_EWG_CLAIM if "ew_gaussian" in competitors else ())
    return tuple({clause.text: clause for clause in parts}.values())


_H2_SIZES = dict(default=dict(space="hyperbolic"), quick=dict(space="hyperbolic", n_reps=200),
                 full=dict(space="hyperbolic", eps_values=HEAT_PAPER_EPS[:_MAX_GRID], n_reps=1000))
_H2_PAPER_SETTING = ("H², data uniform in B((1,0,0), 3), λ = 1.1, α = 2, 11 ε from 0.1 to 3, 1000 repetitions; "
                     "n ∈ {10, 50, 100} × Scenarios 1 (anchor = ball centre) and 2 (anchor random in the ball)")


@reproduction("heat_ewg", paper=_PAPER, figure="§6.2, Figure 5 (Scenarios 1–2, n = 10, 50, 100)", space="H²",
              claim=HEAT_H2_EWG_CLAIM,
              description="Heat-diffusion paper Fig. 5: Langevin vs the exponential-wrapped Gaussian on H² at "
                          "(2, ε)-RDP, anchor = footpoint (Scenarios 1–2)",
              **{size: dict(arguments, compare=("ew_gaussian",)) for size, arguments in _H2_SIZES.items()},
              panels=HEAT_H2_PANELS, paper_setting=_H2_PAPER_SETTING, scenarios=HEAT_SCENARIOS, n_range=HEAT_N_RANGE)
@reproduction("heat_hyperbolic", paper=_PAPER, figure="§6.2, Figure 4 (Scenarios 1–2, n = 10, 50, 100)", space="H²",
              claim=HEAT_H2_LAPLACE_CLAIM,
              description="Heat-diffusion paper Fig. 4: Langevin vs the Riemannian Laplace on H² at (2, ε)-RDP "
                          "(Scenarios 1–2)",
              **{size: dict(arguments, compare=("riemannian_laplace",)) for size, arguments in _H2_SIZES.items()},
              panels=HEAT_H2_PANELS, paper_setting=_H2_PAPER_SETTING, scenarios=HEAT_SCENARIOS, n_range=HEAT_N_RANGE)
@reproduction("heat_sphere", paper=_PAPER, figure="§6.1, Figure 3 (n = 10, 50, 100)", space="S²",
              claim=HEAT_SPHERE_CLAIM,
              description="Heat-diffusion paper Fig. 3: Brownian motion vs Riemannian Laplace on S² at (2, ε)-RDP",
              default=dict(space="sphere"), quick=dict(space="sphere", n_reps=200),
              full=dict(space="sphere", eps_values=HEAT_PAPER_EPS[:_MAX_GRID], n_reps=1000),
              panels=HEAT_SPHERE_PANELS, n_range=HEAT_N_RANGE,
              paper_setting="S², data uniform in B((0,0,1), π/5), α = 2, 11 ε from 0.1 to 3, 1000 repetitions; "
                            "n ∈ {10, 50, 100}")
def reproduce_heat_diffusion(space="sphere", n=10, eps_values=(0.1, 0.5, 1.0, 3.0), n_reps=1000, anchor="center",
                             compare=HEAT_H2_COMPETITORS, seed=0):
    r"""Heat-diffusion paper §6: diffusion mechanisms vs Riemannian Laplace (and EW Gaussian) at (2, ε)-RDP.

    ONE target :math:`(\alpha = 2, \varepsilon)`-RDP for every mechanism. Data: ``n`` points uniform in
    the public ball (S²: :math:`B((0,0,1), \pi/5)`; H²: :math:`B((1,0,0), 3)`), Fréchet mean and its
    sensitivity Δ (Theorem 13 with p = 2 = Reimherr et al.).

    * ``space="sphere"`` (Figure 3): Brownian motion :math:`B_t(\hat\eta)` (exact heat-kernel series sampler,
      :math:`\rho`-zCDP with :math:`\rho = \varepsilon/\alpha`) vs Riemannian Laplace at the
      :math:`\varepsilon^*` with :math:`\varepsilon^*(\alpha) \le \varepsilon` (paper eq. 12).
    * ``space="hyperbolic"``: Langevin (λ = 1.1, anchor o; Euler–Maruyama, approximate sampler) vs
      Riemannian Laplace (Figure 4) and/or exponential-wrapped Gaussian with footpoint o,
      :math:`\sigma = \Delta\sqrt{\alpha/(2\varepsilon)}` (Figure 5), as ``compare`` says.
      ``anchor="center"``: o = the ball centre (Scenario 1); ``"random"``: o uniform in the ball, drawn
      from a public stream independent of the data (Scenario 2).

    The claim judged is that of the figures covered (S²: Figure 3; H²: Figure 4 if the Laplace is compared,
    Figure 5 if the EW Gaussian is); a clause about one scenario or about small / large n is *not applicable*
    on the other panels.

    Parameters
    ----------
    space : {"sphere", "hyperbolic"}
    n : int
        Records, in [2, 10000] (the paper: 10, 50, 100).
    eps_values : array_like
        RDP ε values (at most 12), each in (0, 100].
    n_reps : int
        Releases per (mechanism, ε), in [10, 20000].
    anchor : {"center", "random"}
        H² only.
    compare : sequence of {"riemannian_laplace", "ew_gaussian"}
        H² only: Langevin's competitors (at least one). S² always compares with the Riemannian Laplace.
    seed : int

    Returns
    -------
    Reproduction
        ``table``: :data:`UTILITY_COLUMNS` (``budget`` = ε); ``numbers``: counts of ε where the
        diffusion mechanism is clearly better / worse (2 s.e.) than each competitor, unavailable cells, the
        scenario (H²), whether every mechanism's error falls with ε.
    """
    space = check_option(space, "space", HEAT_SPACES)
    n = check_int(n, "n", low=HEAT_N_RANGE[0], high=HEAT_N_RANGE[1])
    eps_grid = _check_grid(eps_values, "eps_values", low=0.0, high=100.0)
    n_reps = check_int(n_reps, "n_reps", low=10, high=_MAX_REPS)
    anchor = check_option(anchor, "anchor", ("center", "random"))
    if isinstance(compare, str):
        compare = (compare,)
    competitors = tuple(dict.fromkeys(check_option(c, "compare", HEAT_H2_COMPETITORS) for c in compare))
    if not competitors:
        raise InvalidParameterError(f"compare must name at least one of {HEAT_H2_COMPETITORS}; got {compare!r}",
                                    param="compare")
    seed = _check_seed(seed)

    paper_setup = next(s for s in HEAT_PAPER_SETUPS.values() if s["space"] == space)
    radius = paper_setup["radius"]
    prepared = _uniform_ball_data((space, 2), radius, n, seed)
    manifold, center, true_mean, delta = prepared.manifold, prepared.center, prepared.true_mean, prepared.sensitivity
    if manifold.is_compact:  # §6.1, S²: Brownian motion (exact heat-kernel sampler); §6.2, H²: Langevin
        ours, others, options = "brownian_motion", ("riemannian_laplace",), {}
        anchor_point = None
    else:
        ours, others = "langevin", competitors
        anchor_point = center
        if anchor == "random":  # PUBLIC: its own stream, independent of the data
            anchor_point = sample_uniform_ball(manifold, center, radius, 1, np.random.default_rng([seed, 4242]))[0]
        options = {"langevin": dict(anchor=anchor_point, lam=HEAT_PAPER_LAMBDA),
                   "ew_gaussian": dict(footpoint=anchor_point)}
    rows = []
    expect_cells(len((ours,) + others) * len(eps_grid))
    for name in (ours,) + others:
        for j, eps in enumerate(eps_grid):
            target = RDP(HEAT_PAPER_ALPHA, eps)
            row = _utility_row(prepared, name, target, n_reps, _stream(seed, _TAG_HEAT, name, j),
                               options=options.get(name))
            row.update(budget=eps, target=target.describe(), n_reps=n_reps)
            rows.append(row)
    table = _frame(rows)

    numbers = dict(sensitivity=delta, n=n, n_budgets=len(eps_grid), errors_fall_with_eps=_errors_fall(table))
    if not manifold.is_compact:
        numbers["scenario"] = 1 if anchor == "center" else 2
    ours_title = get_mechanism(ours, manifold).title
    parts, cmp = [], {}
    for other in others:
        common, diff, se = _compare(table, ours, other)
        better, worse, tied = _wins(diff, se)
        missing = _budgets_with(table, other, "unavailable")
        failed = _budgets_with(table, other, "error")
        cmp[other] = dict(common=common, better=better, worse=worse, tied=tied, missing=missing,
                          worse_eps=[c for c, d, s in zip(common, diff, se) if d > 2 * s],
                          better_eps=[c for c, d, s in zip(common, diff, se) if d < -2 * s])
        numbers[f"better_than_{other}"] = better
        numbers[f"worse_than_{other}"] = worse
        numbers[f"tied_with_{other}"] = tied
        numbers[f"unavailable_{other}"] = len(missing)
        numbers[f"n_common_{other}"] = len(common)
        title = get_mechanism(other, manifold).title
        text = f"{ours_title} clearly better than {title} at {better}/{len(common)} ε"
        if worse:
            text += f", worse at ε = {_fmt_budgets(cmp[other]['worse_eps'])}"
        if missing:
            text += f"; {title} unavailable at ε = {_fmt_budgets(missing)}"
        if failed:
            text += f"; {title}'s distances not evaluable in double precision at ε = {_fmt_budgets(failed)}"
        parts.append(text)
    if anchor_point is not None:
        numbers["anchor_distance"] = float(manifold.dist(anchor_point, true_mean))

    claim = _heat_claim(manifold.is_compact, others)
    if manifold.is_compact:
        rl = cmp["riemannian_laplace"]
        claims = (PaperClaim("“Overall, the BM mechanism remains highly competitive and outperforms the RL mechanism "
                             "across a wide range of privacy budgets.”", "§6.1, Figure 3 (n = 10, 50, 100)"),)
        details = parts[0] + "."
        if rl["worse"]:
            details += (" At large ε the Laplace wins: there ε* ≈ ε (eq. 12) and its error decays like 2Δ/ε, while "
                        "Brownian motion's decays like Δ/√ε (t ≈ αΔ²/(4ε)).")
        setup_space = f"S², data uniform in B((0,0,1), π/5), n = {n}"
    else:
        pieces = []
        claims = (PaperClaim("“Under Scenario 1, the three mechanisms perform comparably overall, with the RL "
                             "mechanism showing a slight advantage over the Langevin mechanism, and the latter "
                             "outperforming the EWG mechanism when both n and ε are small.”",
                             "§6.2, Figures 4–5 (top rows)"),
                  PaperClaim("“Under Scenario 2, by contrast, the Langevin mechanism uniformly outperforms the EWG "
                             "mechanism across all privacy budgets … as shown in the bottom row of Figure 4, the "
                             "Langevin mechanism performs better for small n and small ε, and remains competitive, "
                             "though slightly less accurate, as n and ε become larger.”",
                             "§6.2, Figures 4–5 (bottom rows)"))
        if "ew_gaussian" in cmp:
            ewg = cmp["ew_gaussian"]
            smallest = min(eps_grid)
            numbers["langevin_beats_ewg_at_smallest_eps"] = bool(smallest in ewg["better_eps"])
            pieces.append(f"Langevin {'' if numbers['langevin_beats_ewg_at_smallest_eps'] else 'not '}clearly better "
                          f"than EWG at the smallest ε = {smallest:g}")
        if "riemannian_laplace" in cmp:
            rl = cmp["riemannian_laplace"]
            if rl["common"]:
                low, high = min(rl["common"]), max(rl["common"])
                numbers["langevin_beats_riemannian_laplace_at_smallest_eps"] = bool(low in rl["better_eps"])
                numbers["riemannian_laplace_beats_langevin_at_largest_eps"] = bool(high in rl["worse_eps"])
                pieces.append(f"at the smallest ε where the Laplace runs ({low:g}) Langevin is "
                              f"{'' if low in rl['better_eps'] else 'not '}clearly better, at the largest ({high:g}) "
                              f"the Laplace is {'' if high in rl['worse_eps'] else 'not '}clearly better")
            else:
                numbers["langevin_beats_riemannian_laplace_at_smallest_eps"] = None
                numbers["riemannian_laplace_beats_langevin_at_largest_eps"] = None
            rl_table = table[(table["mechanism"] == "riemannian_laplace") & (table["status"] == "unavailable")]
            no_law = rl_table[rl_table["reason"].str.contains("normalisable")]["budget"].tolist()
            refused = [b for b in rl["missing"] if b not in no_law]
            if no_law:
                pieces.append(f"no Riemannian Laplace law exists at ε = {_fmt_budgets(no_law)} (exp(−r/σ)·sinh r "
                              "is integrable on H² only for σ = Δ/ε* < 1), where the paper plots one")
            if refused:
                pieces.append(f"at ε = {_fmt_budgets(refused)} the Laplace's releases would reach beyond the radius "
                              "where double precision represents H² with probability above 1e-15, so it is refused "
                              "from public inputs (σ, the public ball)")
        details = "; ".join(pieces + parts) + "."
        if "riemannian_laplace" in cmp:
            rl_rows = table[(table["mechanism"] == "riemannian_laplace") & table["budget"].isin(rl["better_eps"])]
            heavy = rl_rows[rl_rows["scale"] >= 0.5]
            if len(heavy):
                details += (f" At ε = {_fmt_budgets(heavy['budget'])} the Laplace scale σ = Δ/ε* "
                            f"({_fmt_budgets(np.round(heavy['scale'], 3))}) is near the limit σ = 1 where the law stops "
                            "existing: its exact radius law is very heavy-tailed there (the mean diverges as σ → 1), "
                            "which short MCMC chains would understate.")
        scenario_text = ("the ball centre (Scenario 1)" if anchor == "center"
                         else "a public random point of the ball (Scenario 2)")
        setup_space = (f"H², data uniform in B((1,0,0), 3), n = {n}, λ = {HEAT_PAPER_LAMBDA:g}, "
                       f"anchor = EW footpoint = {scenario_text}")
    details += (" Every mechanism's error falls from the smallest to the largest ε (2 s.e.)."
                if numbers["errors_fall_with_eps"] else
                " Not every mechanism's error clearly falls from the smallest to the largest ε."
                if numbers["errors_fall_with_eps"] is not None else "")
    setup = (f"{setup_space}; Δ = {delta:.4g}. ONE target (α = {HEAT_PAPER_ALPHA:g}, ε)-RDP for ε in "
             f"{_fmt_budgets(eps_grid)}; the Riemannian Laplace gets the ε* of paper eq. 12; {n_reps} releases per "
             "cell (the paper: 1000), mean ± s.e. of dist(release, true mean).")
    notes = [
        "Brownian motion on S² uses the exact heat-kernel series sampler (the paper: a geodesic random walk or "
        "exact sampling only for t > 0.05).",
    ]
    if not manifold.is_compact:
        notes.append("Langevin on H² has no closed-form law: Euler–Maruyama (paper Algorithm 2), labelled "
                     "'approximate sampler'. The Riemannian Laplace and EW Gaussian are exact.")
        notes.append("Brownian motion is not compared on H²: its privacy floor ε > KαΔ²/2 (K = 1) excludes the small "
                     "budgets, as the paper notes.")
    return Reproduction(
        key="heat_diffusion",
        paper="Geometric Rényi DP: Ricci curvature characterized by heat diffusion mechanisms (Chang et al.)",
        source="Chang et al. (2026), arXiv:2604.20761", setup=setup, claims=claims, table=table, numbers=numbers,
        notes=tuple(notes), **finish(claim, numbers, details),
    )


def _errors_fall(table):
    """Whether every mechanism's mean distance at its largest available ε is below its mean at its smallest by more
    than 2 s.e. of the difference; ``None`` when a mechanism has fewer than two available ε."""
    falls = []
    for _, rows in table[table["status"] == "ok"].groupby("mechanism", sort=False):
        rows = rows.sort_values("budget")
        if len(rows) < 2:
            return None
        first, last = rows.iloc[0], rows.iloc[-1]
        falls.append(bool(last["mean"] < first["mean"] - 2 * math.hypot(first["se"], last["se"])))
    return all(falls) if falls else None

# ============================================================================ 2b. heat diffusion, Figure 2
#: The checks of the escape illustration (the theory of the radial SDE, not a claim of the paper).
HEAT_ESCAPE_CHECKS = (
    Clause("on H² the distance from the start grows linearly at rate ≈ d − 1 = 1 over [T/2, T] (within 0.15 or 3 s.e.)",
           lambda n: n["rate_hyperbolic_linear"]),
    Clause("it grows faster than on R² (by more than 4 s.e. of the difference)", lambda n: n["rate_hyperbolic_faster"]),
    Clause("at least half of the H² paths end beyond |z| = 0.9 in the Poincaré disk (“drift toward the boundary”)",
           lambda n: n["escaped_fraction"] >= 0.5),
)


@reproduction("heat_escape", paper=_PAPER, figure="§5 and Figure 2 (a new quantitative illustration)", space="H², R²",
              claim=HEAT_ESCAPE_CHECKS, kind="illustration",
              description="Heat-diffusion paper Fig. 2, a new quantitative illustration: Brownian paths on H² escaping "
                          "to the Poincaré-disk boundary, distance growth vs R²",
              default=dict(n_paths=500), quick=dict(n_paths=100, n_steps=200), full=dict(n_paths=2000, n_steps=1000))
def reproduce_heat_escape(t_max=5.0, n_paths=200, n_steps=400, seed=0):
    r"""Heat-diffusion paper Figure 2 (right) and §5: Brownian paths on H² drift to the boundary at infinity.

    Geodesic random walks (:func:`~geodp_core.mechanisms.heat_kernel.geodesic_random_walk_paths`,
    :math:`Y_{k+1} = \mathrm{Exp}_{Y_k}(\sqrt{2h}\,\xi_k)`, generator Δ) from the origin o of H² and of
    R², ``n_paths`` paths of ``n_steps`` steps up to time ``t_max``. The radius :math:`r_t = d(o, Y_t)`
    solves :math:`dr = (d-1)\coth r\,dt + \sqrt2\,dW` on :math:`H^d` (linear growth at rate
    :math:`\approx d-1 = 1`, so the paths reach the disk's rim) and :math:`dr = \frac{d-1}{r}dt + \sqrt2\,dW`
    on :math:`R^d` (:math:`E r_t = \sqrt{\pi t}` for d = 2). Growth rate: the mean over paths of
    :math:`(r_T - r_{T/2})/(T/2)`, with its s.e. The escape is why the heat kernel on H² never forgets its
    start: the paths' limits on the boundary circle depend on the starting point, so diffusion time cannot
    drive the Rényi divergence to 0 (the paper's privacy floor).

    Parameters
    ----------
    t_max : float
        Diffusion time T, in [0.5, 6] (beyond, the farthest paths reach r ≈ 17, where hyperboloid
        coordinates near 1e7 make the Minkowski norms of the steps lose all precision).
    n_paths : int
        Paths per space, in [10, 5000].
    n_steps : int
        Steps per path, in [20, 5000].
    seed : int

    Returns
    -------
    Reproduction
        ``table``: ``space``, ``t``, ``mean_distance``, ``se``, ``theory`` (R²: :math:`\sqrt{\pi t}`; H²:
        NaN); ``tables["paths"]``: the Poincaré-disk coordinates of the first paths (``path``, ``step``,
        ``t``, ``x``, ``y``); ``numbers``: growth rates, escape fraction (|z| > 0.9 at T).
    """
    from geodp_core.mechanisms.heat_kernel import geodesic_random_walk_paths

    t_max = check_real(t_max, "t_max", low=0.5, high=6.0, low_closed=True, high_closed=True)
    n_paths = check_int(n_paths, "n_paths", low=10, high=5000)
    n_steps = check_int(n_steps, "n_steps", low=20, high=5000)
    seed = _check_seed(seed)
    times = np.linspace(0.0, t_max, n_steps + 1)
    half = n_steps // 2
    rows, radii = [], {}
    for si, space in enumerate(("hyperbolic", "euclidean")):
        manifold = get_manifold(space, 2)
        origin = manifold.default_center()
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(77, si)))
        paths = geodesic_random_walk_paths(manifold, origin, t_max, n_steps, n_paths, rng)
        flat = paths.reshape((-1,) + tuple(manifold.point_shape))
        r = manifold.dist(origin, flat, check=False).reshape(n_steps + 1, n_paths)
        radii[space] = r
        stride = max(1, n_steps // 80)
        for k in range(0, n_steps + 1, stride):
            mean, se = mean_and_standard_error(r[k]) if k else (0.0, 0.0)
            rows.append(dict(space=space, t=float(times[k]), mean_distance=mean, se=se,
                             theory=math.sqrt(math.pi * times[k]) if manifold.radial_volume.is_flat else np.nan))
        if manifold.view == "poincare_disk":
            n_draw = min(n_paths, 12)
            disk = manifold.to_poincare(paths[:, :n_draw].reshape(-1, 3)).reshape(n_steps + 1, n_draw, 2)
            path_rows = [dict(path=i, step=k, t=float(times[k]), x=float(disk[k, i, 0]), y=float(disk[k, i, 1]))
                         for i in range(n_draw) for k in range(n_steps + 1)]
            end_disk = np.linalg.norm(manifold.to_poincare(paths[-1]), axis=1)
    table = pd.DataFrame(rows, columns=["space", "t", "mean_distance", "se", "theory"])
    path_table = pd.DataFrame(path_rows, columns=["path", "step", "t", "x", "y"])
    span = times[-1] - times[half]
    rate = {}
    for space, r in radii.items():
        rate[space] = mean_and_standard_error((r[-1] - r[half]) / span)
    flat_theory = math.sqrt(math.pi) * (math.sqrt(t_max) - math.sqrt(times[half])) / span
    numbers = dict(t_max=t_max, rate_hyperbolic=rate["hyperbolic"][0], rate_hyperbolic_se=rate["hyperbolic"][1],
                   rate_flat=rate["euclidean"][0], rate_flat_se=rate["euclidean"][1], rate_flat_theory=float(flat_theory),
                   rate_hyperbolic_theory=1.0, mean_distance_hyperbolic=float(radii["hyperbolic"][-1].mean()),
                   mean_distance_flat=float(radii["euclidean"][-1].mean()),
                   escaped_fraction=float(np.mean(end_disk > 0.9)), mean_disk_radius=float(end_disk.mean()))
    rh, sh = rate["hyperbolic"]
    rf, sf = rate["euclidean"]
    linear = abs(rh - 1.0) < max(0.15, 3 * sh)
    faster = rh - rf > 4 * math.hypot(sh, sf)
    numbers.update(rate_hyperbolic_linear=bool(linear), rate_hyperbolic_faster=bool(faster))
    details = (f"on H² the distance from the start grows at {rh:.3f} ± {sh:.3f} per unit time over "
               f"[T/2, T] (theory ≈ d − 1 = 1: linear, {'as expected' if linear else 'not as expected'}), against "
               f"{rf:.3f} ± {sf:.3f} on R² (theory {flat_theory:.3f}, decaying like 1/√t); at T = {t_max:g} the mean "
               f"distance is {numbers['mean_distance_hyperbolic']:.2f} on H² vs {numbers['mean_distance_flat']:.2f} on "
               f"R², and {100 * numbers['escaped_fraction']:.0f}% of the H² paths end beyond |z| = 0.9 in the "
               "Poincaré disk (mean |z| = " f"{numbers['mean_disk_radius']:.3f}).")
    claims = (
        PaperClaim("“for manifolds with bounded negative sectional curvature … geodesics diverge and Brownian "
                   "trajectories tend to drift toward the boundary at infinity.” Brownian motion “converges almost "
                   "surely to a random limit” on the boundary (Sullivan 1983).", "§5, Figure 2 (Poincaré disk)"),
    )
    setup = (f"{n_paths} geodesic random walks (generator Δ, {n_steps} steps, step h = {t_max / n_steps:.3g}) from the "
             f"origin of H² and of R² up to T = {t_max:g}; mean ± s.e. of the distance to the start; growth rate "
             "over [T/2, T]; the first 12 H² paths drawn in the Poincaré disk.")
    notes = (
        "A new quantitative illustration, not a reproduction: the paper's Figure 2 is a picture (Escher's Circle "
        "Limit III and horospheres) with no number; the simulated paths, the growth rates and their checks are ours.",
        "The geodesic random walk has weak error O(h); the exact radial SDE is only used for the theory lines.",
    )
    return Reproduction(
        key="heat_escape",
        paper="Geometric Rényi DP: Ricci curvature characterized by heat diffusion mechanisms (Chang et al.)",
        source="Chang et al. (2026), arXiv:2604.20761", setup=setup, claims=claims, table=table,
        tables={"paths": path_table}, numbers=numbers, notes=notes,
        **finish(HEAT_ESCAPE_CHECKS, numbers, details, kind="illustration"),
    )


