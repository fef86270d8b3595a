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
    assert prepared.sensitivity == pytest.approx(p_mean_sensitivity(40, scenario.radius, p, kappa), rel=1e-12)
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
