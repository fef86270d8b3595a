"""Tests of geodp_core.experiments: utility curves, sweeps, GDP mu curves, accounting tables.

Statistical tests use fixed seeds; each states its type-I error (per comparison, normal
approximation of the Monte Carlo mean, alpha = 1e-6 => |z| threshold 4.89 two-sided or
4.75 one-sided) and the bug it has power against.
"""

import math

import mpmath
import numpy as np
import pandas as pd
import pytest

from geodp_core.experiments import (
    CURVE_COLUMNS,
    budget_parameter,
    conversion_table,
    gdp_mu_curves,
    grid_values,
    native_budget_table,
    sweep,
    target_for_budget,
    utility_curve,
)
from geodp_core.explorer import run_scenario
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP, gdp_delta, implies
from geodp_core.scenario import Scenario

Z_ONE_SIDED = 4.753  # P(Z > 4.753) = 1e-6
Z_TWO_SIDED = 4.892  # P(|Z| > 4.892) = 1e-6

RL = "riemannian_laplace"
SPHERE = Scenario(mechanisms=(RL,), notion="pure_dp")  # explicit: independent of the Scenario defaults


# ----------------------------------------------------------------------------- utility_curve
def test_curve_shape_and_columns():
    scenario = SPHERE.with_changes(mechanisms=(RL, "riemannian_gaussian"))
    frame = utility_curve(scenario, [0.5, 2.0, 8.0], 20)
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == list(CURVE_COLUMNS)
    for column in ("mechanism", "budget", "mean", "se", "label", "status", "reason", "bound"):
        assert column in frame.columns
    assert len(frame) == 2 * 3
    assert list(frame["mechanism"]) == [RL] * 3 + ["riemannian_gaussian"] * 3
    assert list(frame["budget"]) == [0.5, 2.0, 8.0] * 2
    assert (frame["n_reps"] == 20).all()
    assert frame["target"].iloc[0] == "ε=0.5-DP"


def test_rl_mean_distance_decreases_with_budget_on_s2():
    """One-sided z-tests of mean(eps_k) > mean(eps_{k+1}); alpha = 1e-6 per pair (3 pairs).

    Power against: the budget ignored or inverted in the calibration (sigma not ~ 1/eps),
    releases drawn around the wrong point (distance would not shrink to 0).
    """
    budgets = [0.25, 1.0, 4.0, 16.0]
    frame = utility_curve(SPHERE, budgets, 2000)
    assert (frame["status"] == "ok").all() and (frame["label"] == "exact").all()
    mean, se = frame["mean"].to_numpy(), frame["se"].to_numpy()
    z = (mean[:-1] - mean[1:]) / np.sqrt(se[:-1] ** 2 + se[1:] ** 2)
    assert np.all(z > Z_ONE_SIDED), z
    # at eps = 16 the noise scale is Delta/16 and E dist ~ 2 sigma on S^2 (small sigma)
    sigma = frame["sensitivity"].iloc[0] / 16.0
    assert abs(mean[-1] - 2.0 * sigma) < Z_TWO_SIDED * se[-1] + 0.02 * sigma


def test_euclidean_laplace_matches_closed_form():
    """On R^d, E dist of the Laplace release is d * sigma = d * Delta / eps exactly.

    Two-sided z-test, alpha = 1e-6. Power against: a missing factor (e.g. 2 Delta/eps on a
    homogeneous space, or the radius law Gamma(1) instead of Gamma(d)).
    """
    scenario = Scenario(manifold="euclidean", dim=3, data="wrapped_normal", radius=1.0, mechanisms=(RL,),
                        notion="pure_dp")
    frame = utility_curve(scenario, [1.0], 4000)
    row = frame.iloc[0]
    expected = 3 * row["sensitivity"] / 1.0
    assert abs(row["mean"] - expected) < Z_TWO_SIDED * row["se"]


def test_same_seed_same_frame_and_other_seed_differs():
    a = utility_curve(SPHERE, [1.0, 3.0], 50)
    b = utility_curve(SPHERE, [1.0, 3.0], 50)
    pd.testing.assert_frame_equal(a, b)
    c = utility_curve(SPHERE.with_changes(seed=1), [1.0, 3.0], 50)
    assert not np.allclose(a["mean"], c["mean"])


def test_results_do_not_depend_on_the_other_selected_mechanisms():
    alone = utility_curve(SPHERE, [1.0], 50)
    together = utility_curve(SPHERE.with_changes(mechanisms=("brownian_motion", RL)), [1.0], 50)
    assert alone["mean"].iloc[0] == together[together["mechanism"] == RL]["mean"].iloc[0]


def test_same_dataset_and_sensitivity_as_the_explorer():
    scenario = Scenario(manifold="hyperbolic", dim=2, data="uniform_ball", radius=1.0, n=60, mechanisms=(RL,))
    frame = utility_curve(scenario, [2.0], 10)
    result = run_scenario(scenario)
    assert frame["sensitivity"].iloc[0] == pytest.approx(result.sensitivity, rel=1e-15)


def test_unavailable_mechanisms_are_reported_with_reason():
    scenario = SPHERE.with_changes(mechanisms=("ew_laplace", "riemannian_gaussian", RL))
    frame = utility_curve(scenario, [1.0, 4.0], 10)
    ew = frame[frame["mechanism"] == "ew_laplace"]
    assert (ew["status"] == "unavailable").all() and (ew["label"] == "unavailable").all()
    assert ew["reason"].str.contains("Hadamard").all()
    assert ew["mean"].isna().all() and ew["se"].isna().all()
    rg = frame[frame["mechanism"] == "riemannian_gaussian"]  # Gaussian noise cannot meet a pure-DP target
    assert (rg["status"] == "unavailable").all()
    assert rg["reason"].str.contains("pure").all()
    assert (frame[frame["mechanism"] == RL]["status"] == "ok").all()


def test_paper_bounds_recorded_and_not_beaten():
    """E dist <= bound for EW Laplace (Hadamard paper); one-sided z-test, alpha = 1e-6.

    Power against: a bound evaluated at the wrong sigma (e.g. Delta instead of Delta/eps).
    """
    scenario = Scenario(manifold="hyperbolic", dim=2, data="uniform_ball", radius=1.0, mechanisms=("ew_laplace",),
                        notion="pure_dp")
    frame = utility_curve(scenario, [0.5, 5.0], 1000)
    assert frame["bound"].notna().all()
    z = (frame["mean"] - frame["bound"]) / frame["se"]
    assert (z < Z_ONE_SIDED).all()


def test_budget_notions_and_targets():
    assert budget_parameter("approx_dp") == "eps" and budget_parameter("gdp") == "mu"
    assert budget_parameter("zcdp") == "rho" and budget_parameter("rdp") == "eps"
    s = Scenario(notion="approx_dp", delta=1e-6)
    assert target_for_budget(s, 2.0) == ApproxDP(2.0, 1e-6)
    assert target_for_budget(s.with_changes(notion="rdp", alpha=3.0), 2.0) == RDP(3.0, 2.0)
    assert target_for_budget(s.with_changes(notion="zcdp"), 0.3) == ZCDP(0.3)
    frame = utility_curve(Scenario(notion="zcdp", mechanisms=("brownian_motion",)), [0.1, 1.0], 20)
    assert list(frame["target"]) == ["ρ=0.1-zCDP", "ρ=1-zCDP"]
    assert (frame["status"] == "ok").all()


def test_progress_callback():
    seen = []
    utility_curve(SPHERE.with_changes(mechanisms=(RL, "ew_laplace")), [1.0, 2.0, 3.0], 5, progress=seen.append)
    assert len(seen) == 6
    assert seen == sorted(seen) and seen[-1] == 1.0


@pytest.mark.parametrize(
    "kwargs, param",
    [
        (dict(budgets=[]), "budgets"),
        (dict(budgets=[-1.0]), "budgets"),
        (dict(budgets=[float("nan")]), "budgets"),
        (dict(budgets=[2000.0]), "budgets"),
        (dict(n_reps=1), "n_reps"),
        (dict(n_reps=True), "n_reps"),
        (dict(mechanisms=["nope"]), "mechanisms"),
        (dict(mechanisms=[]), "mechanisms"),
        (dict(progress=3), "progress"),
        (dict(scenario="sphere"), "scenario"),
    ],
)
def test_curve_validation(kwargs, param):
    args = dict(scenario=SPHERE, budgets=[1.0], n_reps=5)
    args.update(kwargs)
    with pytest.raises(ValueError) as info:
        utility_curve(**args)
    assert param in str(info.value)


# ----------------------------------------------------------------------------- sweep
def test_sweep_over_n():
    frame = sweep(SPHERE, "n", [20, 80, 320], 400)
    assert {"parameter", "value"} <= set(frame.columns)
    assert list(frame["value"]) == [20, 80, 320]
    assert (frame["parameter"] == "n").all() and (frame["budget"] == 1.0).all()
    # the Fréchet-mean sensitivity is proportional to 1/n
    product = frame["sensitivity"] * frame["value"]
    assert np.allclose(product, product.iloc[0], rtol=1e-12)
    # One-sided z-test (alpha = 1e-6 per pair): more records, less noise. Power against a sensitivity
    # that ignores n.
    mean, se = frame["mean"].to_numpy(), frame["se"].to_numpy()
    assert np.all((mean[:-1] - mean[1:]) / np.hypot(se[:-1], se[1:]) > Z_ONE_SIDED)


def test_sweep_over_dim_and_spread():
    frame = sweep(Scenario(manifold="hyperbolic", data="uniform_ball", radius=1.0, mechanisms=(RL, "ew_gaussian"),
                           notion="approx_dp"), "dim", [2, 3], 10)
    assert list(frame["mechanism"]) == [RL, RL, "ew_gaussian", "ew_gaussian"]
    assert list(frame["value"]) == [2, 3, 2, 3]
    frame = sweep(SPHERE, "spread", [0.1, 0.5], 10)
    assert list(frame["value"]) == [0.1, 0.5] and (frame["status"] == "ok").all()


def test_sweep_validation():
    with pytest.raises(ValueError, match="parameter"):
        sweep(SPHERE, "radius", [0.1], 5)
    with pytest.raises(ValueError, match="data"):
        sweep(SPHERE.with_changes(data="cities"), "n", [10, 20], 5)
    with pytest.raises(ValueError, match="center_offset"):
        sweep(SPHERE.with_changes(center_offset=(0.1, 0.0)), "dim", [2, 3], 5)
    with pytest.raises(ValueError, match="integers"):
        sweep(SPHERE, "n", [10.5], 5)
    with pytest.raises(ValueError, match="dim"):
        sweep(SPHERE, "dim", [1001], 5)
    with pytest.raises(ValueError, match="values"):
        sweep(SPHERE, "spread", [4.0], 5)


def test_grid_values():
    assert grid_values(0.1, 10.0, 3) == pytest.approx([0.1, 1.0, 10.0])
    assert grid_values(0.0, 1.0, 3, log=False) == pytest.approx([0.0, 0.5, 1.0])
    assert grid_values(10, 1000, 3, integer=True) == [10, 100, 1000]
    with pytest.raises(ValueError, match="high"):
        grid_values(2.0, 1.0, 3)
    with pytest.raises(ValueError, match="low"):
        grid_values(0.0, 1.0, 3)
    with pytest.raises(ValueError, match="count"):
        grid_values(0.1, 1.0, 1)


# ----------------------------------------------------------------------------- GDP mu curves
def test_gdp_mu_curves():
    frame = gdp_mu_curves([0.25, 1.0, 4.0], 1.0, spaces=(("sphere", 1, "S1"), ("euclidean", 1, "R")))
    assert list(frame.columns) == ["space", "dim", "label", "sigma", "mu"]
    real = frame[frame["label"] == "R"]
    assert np.allclose(real["mu"], 1.0 / real["sigma"], rtol=1e-12)
    circle = frame[frame["label"] == "S1"].set_index("sigma")["mu"]
    # locally Euclidean for small sigma (the GDP paper's Figure 1: mu(0.25) = 4 on S^1), more private for large sigma
    assert circle[0.25] == pytest.approx(4.0, rel=1e-6)
    assert circle[4.0] < 0.25
    with pytest.raises(ValueError, match="sigmas"):
        gdp_mu_curves([0.0])


# ----------------------------------------------------------------------------- accounting tables
SOURCES = [PureDP(1.0), PureDP(0.1), ApproxDP(1.0, 1e-6), GDP(0.5), GDP(3.0), RDP(4.0, 0.8), ZCDP(0.2)]


@pytest.mark.parametrize("source", SOURCES, ids=lambda g: g.describe())
def test_conversion_table_rows_are_valid_or_explained(source):
    rows = conversion_table(source, delta=1e-5, alpha=3.0, eps=1.0)
    assert len(rows) >= 5
    for row in rows:
        assert row["theorem"], row
        if row["status"] == "ok":
            assert row["verified"] is True
            assert implies(source, row["guarantee"])
        else:
            assert row["guarantee"] is None and "no valid conversion" in row["theorem"]
    notions = {row["to"] for row in rows}
    assert "ε-DP" in notions and "ρ-zCDP" in notions


def test_conversion_values():
    rows = {r["to"]: r["guarantee"] for r in conversion_table(PureDP(1.0), alpha=2.0)}
    assert rows["ρ-zCDP"] == ZCDP(0.5)
    # mu = -2 Phi^{-1}(1/(1+e^eps)), Phi^{-1}(p) = sqrt(2) erfinv(2p - 1)
    expected = -2 * mpmath.sqrt(2) * mpmath.erfinv(2 / (1 + mpmath.e) - 1)
    assert rows["μ-GDP"].mu == pytest.approx(float(expected), rel=1e-12)
    rows = {r["to"]: r["guarantee"] for r in conversion_table(ZCDP(0.5), alpha=3.0)}
    assert rows["Rényi DP"] == RDP(3.0, 1.5)
    assert {r["to"]: r["status"] for r in conversion_table(ApproxDP(1.0, 1e-5))}["μ-GDP"] == "unavailable"


def _mp_gdp_delta(mu, eps):
    mpmath.mp.dps = 50
    mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


@pytest.mark.parametrize("mu, delta", [(1.0, 1e-5), (0.5, 1e-8), (3.0, 1e-3)])
def test_gdp_eps_at_delta_is_tight_against_mpmath(mu, delta):
    """The (eps, delta) read off the GDP profile: delta_mu(eps) <= delta, and barely (50-digit reference)."""
    row = next(r for r in conversion_table(GDP(mu), delta=delta) if r["to"] == "(ε, δ)-DP at the given δ")
    eps = row["guarantee"].eps
    assert _mp_gdp_delta(mu, eps) <= delta
    assert _mp_gdp_delta(mu, eps * (1 - 1e-9)) > delta
    assert gdp_delta(mu, eps) <= delta


def test_native_budget_table():
    rows = native_budget_table(PureDP(1.0))
    assert [r["status"] for r in rows] == ["ok", "unavailable", "unavailable"]
    assert all(r["note"] for r in rows)
    rows = native_budget_table(ApproxDP(1.0, 1e-5))
    assert [r["status"] for r in rows] == ["ok", "ok", "ok"]
    mu = float(rows[1]["budget"].split("=")[1])
    assert gdp_delta(mu, 1.0) <= 1e-5 * (1 + 1e-5)
    with pytest.raises(ValueError, match="target"):
        native_budget_table("eps=1")
    with pytest.raises(ValueError, match="guarantee"):
        conversion_table(1.0)
    with pytest.raises(ValueError, match="delta"):
        conversion_table(PureDP(1.0), delta=0.0)
    assert math.isfinite(mu)
