"""Fréchet p-means end to end: the Scenario's exponent p drives the summary, its sensitivity and every release
(the heat-diffusion paper's Algorithm 3), sweeps over p, and the phase transition of the sensitivity in n."""

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.experiments import sweep
from geodp_core.explorer import run_scenario
from geodp_core.pipeline import prepare
from geodp_core.scenario import Scenario
from geodp_core.summaries import empirical_sensitivity, frechet_mean, p_mean, p_mean_sensitivity
from geodp_core.viz import p_mean_sensitivity_figure

CASES = [("sphere", "vmf"), ("hyperbolic", "uniform_ball"), ("euclidean", "uniform_ball")]


@pytest.mark.parametrize("manifold, data", CASES)
@pytest.mark.parametrize("p", [1.3, 2.0, 3.0])
def test_prepare_uses_the_p_mean_and_its_theorem(manifold, data, p):
    scenario = Scenario(manifold=manifold, data=data, n=40, p=p)
    prepared = prepare(scenario)
    np.testing.assert_allclose(prepared.true_mean, p_mean(prepared.manifold, prepared.data, p), atol=1e-9)
    kappa = prepared.manifold.curvature_bounds[1]
    theorem = p_mean_sensitivity(40, scenario.radius, p, kappa)
    assert prepared.sensitivity == pytest.approx(min(theorem, prepared.manifold.diameter), rel=1e-12)  # capped
    if p == 2.0:  # the Fréchet mean and its bound, unchanged
        np.testing.assert_allclose(prepared.true_mean, frechet_mean(prepared.manifold, prepared.data), atol=1e-9)


@pytest.mark.parametrize("manifold, data", CASES[:2])
@pytest.mark.parametrize("p", [1.5, 3.0])
def test_the_theorem_bounds_the_observed_change_of_the_p_mean(manifold, data, p):
    scenario = Scenario(manifold=manifold, data=data, n=12, spread=0.5, p=p)
    prepared = prepare(scenario)
    observed = empirical_sensitivity(prepared.manifold, lambda x: p_mean(prepared.manifold, x, p), prepared.data,
                                     prepared.center, scenario.radius, 20, np.random.default_rng(0))
    assert 0.0 < observed.max_change <= prepared.sensitivity


def test_algorithm_3_releases_the_p_mean_with_heat_diffusion():
    """p-mean → its sensitivity → Brownian motion / Langevin calibrated to it (and every other mechanism)."""
    base = Scenario(manifold="hyperbolic", data="uniform_ball", n=50, n_releases=30, notion="rdp",
                    mechanisms=("brownian_motion", "langevin"))
    for p in (1.5, 3.0):
        result = run_scenario(base.with_changes(p=p))
        assert result.sensitivity == pytest.approx(p_mean_sensitivity(50, base.radius, p, 0.0))
        for outcome in result.outcomes:
            assert outcome.status == "ok", outcome.reason
            assert outcome.calibration.achieved.describe()  # the target is met, for this p's Δ
    # a larger sensitivity (p = 3 at n = 50) needs more noise: releases land farther
    near = run_scenario(base.with_changes(p=1.5)).outcomes[1].mean_distance
    far = run_scenario(base.with_changes(p=3.0)).outcomes[1].mean_distance
    assert far > near


def test_a_sweep_over_p_recomputes_the_sensitivity():
    scenario = Scenario(manifold="euclidean", dim=2, data="uniform_ball", n=30, mechanisms=("riemannian_laplace",))
    frame = sweep(scenario, "p", [1.5, 2.0, 4.0], 20)
    assert list(frame["value"]) == [1.5, 2.0, 4.0] and (frame["status"] == "ok").all()
    assert frame["mean"].iloc[2] > frame["mean"].iloc[1]  # Δ at p = 4 decays like n^(-1/3): more noise at n = 30
    real = Scenario(manifold="sphere", data="cities", radius=0.78, mechanisms=("riemannian_laplace",))
    assert len(sweep(real, "p", [1.5, 2.0], 5)) == 2  # real data: p changes the summary, not the data
    with pytest.raises(InvalidParameterError) as info:
        sweep(scenario, "p", [0.5, 2.0], 5)
    assert info.value.param == "values"


def test_scenario_p_round_trips_and_bad_values_are_named():
    scenario = Scenario(p=2.5)
    assert Scenario.from_json(scenario.to_json()).p == 2.5
    assert Scenario.from_query_params({"p": "1.7"}).p == 1.7
    for bad in (1.0, 0.5, 9.0, float("nan")):
        with pytest.raises(InvalidParameterError) as info:
            Scenario(p=bad)
        assert info.value.param == "p" and "(1, 8]" in str(info.value)


@pytest.mark.parametrize("kappa", [0.0, 1.0])
def test_sensitivity_chart_shows_the_phase_transition(kappa):
    fig = p_mean_sensitivity_figure(radius=0.5, p_values=(1.5, 2.0, 3.0, 5.0), curvature_upper=kappa)
    slopes = {}
    for trace in fig.data:
        n, delta = np.asarray(trace.x, float), np.asarray(trace.y, float)
        keep = n >= 10
        slopes[trace.name.split(":")[0]] = np.polyfit(np.log(n[keep]), np.log(delta[keep]), 1)[0]
    assert slopes["p = 1.5"] == pytest.approx(-1.0, abs=1e-6) and slopes["p = 2"] == pytest.approx(-1.0, abs=1e-6)
    assert slopes["p = 3"] == pytest.approx(-1 / 2, abs=1e-6) and slopes["p = 5"] == pytest.approx(-1 / 4, abs=1e-6)


# ------------------------------------------------------------ p near 1 (the solver used to stop with ConvergenceError)
@pytest.mark.parametrize("p", [1.0001, 1.001, 1.00001])
def test_p_mean_near_one_converges_to_the_exact_minimiser(p):
    """Two points: the midpoint (any p > 1, by symmetry); three collinear points 0, 1, 3: pinned to the middle
    one (the offset ((p-1) log 2)^(1/(p-1)) underflows); four angles on S^1: the minimiser of a brute-force grid
    (2e-6 spacing) of sum |theta - theta_i|^p."""
    from geodp_core.geometry import get_manifold

    r3 = get_manifold("euclidean", 3)
    np.testing.assert_allclose(p_mean(r3, np.array([[0.0, 0, 0], [1.0, 0, 0]]), p), [0.5, 0, 0], atol=1e-9)
    np.testing.assert_allclose(p_mean(r3, np.array([[0.0, 0, 0], [1.0, 0, 0], [3.0, 0, 0]]), p), [1, 0, 0], atol=1e-9)
    circle = get_manifold("sphere", 1)
    angles = np.array([0.0, 0.5, 0.6, 1.3])
    result = p_mean(circle, np.c_[np.cos(angles), np.sin(angles)], p)
    grid = np.linspace(0.3, 0.8, 250_001)
    reference = grid[np.argmin((np.abs(grid[:, None] - angles) ** p).sum(axis=1))]
    assert abs(np.arctan2(result[1], result[0]) - reference) < 4e-6


@pytest.mark.parametrize("m", [5, 11])
@pytest.mark.parametrize("p", [1.0001, 1.001])
def test_p_mean_near_one_on_spd_is_the_geodesic_midpoint_of_two_points(m, p):
    from geodp_core.geometry import get_manifold

    spd = get_manifold("spd", m)
    rng = np.random.default_rng(m)
    a, b = (x @ x.T / m + np.eye(m) for x in rng.standard_normal((2, m, m)))  # not commuting
    result = p_mean(spd, np.array([a, b]), p)
    half = spd.dist(a, b) / 2.0
    assert spd.dist(result, a) == pytest.approx(half, rel=1e-6)
    assert spd.dist(result, b) == pytest.approx(half, rel=1e-6)


@pytest.mark.parametrize("space", [dict(), dict(manifold="euclidean", dim=3, data="wrapped_normal"),
                                   dict(manifold="spd", dim=5, data="wishart"),
                                   dict(manifold="kendall", dim=3, data="shape_perturbation", spread=0.05, radius=0.3)])
@pytest.mark.parametrize("p", [1.0001, 1.001])
def test_prepare_near_p_one_succeeds(space, p):
    prepared = prepare(Scenario(n=40, p=p, **space))
    assert np.all(prepared.manifold.belongs(prepared.true_mean))
