"""pipeline.prepare / pipeline.evaluate: the one place data are prepared and mechanisms are evaluated."""

import dataclasses

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.pipeline import evaluate, prepare, scenario_options
from geodp_core.privacy import GDP, PureDP
from geodp_core.scenario import Scenario
from geodp_core.summaries import frechet_mean, frechet_mean_sensitivity


def test_prepare_clips_summarises_and_is_reproducible():
    scenario = Scenario(n=60, seed=4, spread=0.6, radius=0.5)
    a, b = prepare(scenario), prepare(scenario)
    np.testing.assert_array_equal(a.data, b.data)
    M = a.manifold
    assert M.belongs(a.data).all()
    assert np.all(M.dist(a.center, a.data) <= scenario.radius * (1 + 1e-9))
    assert a.n_clipped > 0  # spread 0.6 > radius 0.5: some records were clipped
    np.testing.assert_allclose(a.true_mean, frechet_mean(M, a.data))
    assert a.sensitivity == pytest.approx(frechet_mean_sensitivity(60, 0.5, 1.0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.sensitivity = 0.0


def test_public_quantities_never_depend_on_the_data():
    one = prepare(Scenario(seed=1, n=30, spread=0.1, center_offset=(0.3, -0.2)))
    two = prepare(Scenario(seed=2, n=30, spread=0.9, center_offset=(0.3, -0.2)))
    assert not np.allclose(one.data, two.data)
    np.testing.assert_array_equal(one.center, two.center)
    assert one.sensitivity == two.sensitivity
    for name in ("ew_laplace", "langevin"):
        opts_one, opts_two = scenario_options(name, one), scenario_options(name, two)
        for key in opts_one:
            np.testing.assert_array_equal(opts_one[key], opts_two[key])
            np.testing.assert_array_equal(opts_one[key], one.center)


def test_data_stream_is_the_explorers():
    from geodp_core.explorer import run_scenario

    scenario = Scenario(n=25, seed=9, n_releases=3, mechanisms=("riemannian_laplace", "riemannian_gaussian"))
    prepared, result = prepare(scenario), run_scenario(scenario)
    np.testing.assert_array_equal(prepared.data, result.data)
    np.testing.assert_array_equal(prepared.true_mean, result.true_mean)
    assert prepared.sensitivity == result.sensitivity


def test_evaluate_ok_and_unavailable():
    prepared = prepare(Scenario(n=40))
    ok = evaluate(prepared, "riemannian_laplace", PureDP(1.0), 25, np.random.default_rng(0))
    assert ok.status == "ok" and ok.label == "exact"
    assert ok.releases.shape == (25, 3) and prepared.manifold.belongs(ok.releases).all()
    np.testing.assert_allclose(ok.distances, prepared.manifold.dist(prepared.true_mean, ok.releases))
    unavailable = evaluate(prepared, "ew_laplace", PureDP(1.0), 5, np.random.default_rng(0))
    assert unavailable.status == "unavailable" and "Hadamard" in unavailable.reason
    assert unavailable.releases is None


@pytest.mark.parametrize("exc", [ZeroDivisionError("x"), OverflowError("y"), RecursionError(), KeyError("k")])
@pytest.mark.parametrize("stage", ["calibrate", "sample"])
def test_evaluate_isolates_every_exception_type(monkeypatch, exc, stage):
    from geodp_core.mechanisms.riemannian_laplace import RiemannianLaplace

    def broken(*args, **kwargs):
        raise exc

    monkeypatch.setattr(RiemannianLaplace, stage, broken)
    prepared = prepare(Scenario(n=20))
    outcome = evaluate(prepared, "riemannian_laplace", PureDP(1.0), 5, np.random.default_rng(0))
    assert outcome.status == "error"
    assert type(exc).__name__ in outcome.reason and "internal error" in outcome.reason
    other = evaluate(prepared, "riemannian_gaussian", GDP(1.0), 5, np.random.default_rng(0))
    assert other.status == "ok"


def test_evaluate_reports_value_errors_with_their_message(monkeypatch):
    from geodp_core.mechanisms.riemannian_laplace import RiemannianLaplace

    def refuse(*args, **kwargs):
        raise InvalidParameterError("sigma must be below 3; got 4", param="sigma")

    monkeypatch.setattr(RiemannianLaplace, "calibrate", refuse)
    outcome = evaluate(prepare(Scenario(n=20)), "riemannian_laplace", PureDP(1.0), 5, np.random.default_rng(0))
    assert outcome.status == "error" and outcome.reason == "sigma must be below 3; got 4"


def test_errors_name_the_control_at_fault():
    with pytest.raises(InvalidParameterError) as info:
        prepare(Scenario(data="upload"))
    assert info.value.param == "upload"
    with pytest.raises(InvalidParameterError) as info:
        prepare(Scenario(data="upload"), points=np.array([[0.0, 0.0, 2.0]]))  # off the sphere
    assert info.value.param == "upload"
    center = np.asarray(prepare(Scenario()).center)
    upload = np.stack([center, -center])  # the antipode is at the cut locus: clipped, never refused
    assert prepare(Scenario(data="upload"), points=upload).n_clipped == 1



def test_summarise_is_prepares_clip_and_summary():
    from geodp_core.pipeline import summarise

    scenario = Scenario(manifold="hyperbolic", dim=2, data="wrapped_normal", spread=0.8, radius=0.6, n=60, seed=3)
    prepared = prepare(scenario)
    again = summarise(prepared.manifold, prepared.data, prepared.center, scenario.radius)
    np.testing.assert_allclose(again.true_mean, prepared.true_mean, atol=1e-10)
    assert again.sensitivity == prepared.sensitivity and again.n_clipped <= prepared.n_clipped


def test_vmf_mixture_is_the_same_data_on_every_page():
    """The Explorer's "vMF mixture" is the conformal reproduction's dataset (same words, same data)."""
    from geodp_core.reproduce import reproduce_conformal

    result = reproduce_conformal(eps_values=(1.0,), n=200, spread=0.1, n_calibrations=2, n_reps=10, seed=5)
    prepared = prepare(Scenario(manifold="sphere", dim=2, data="vmf_mixture", spread=0.1, radius=0.7, n=200, seed=5))
    assert result.numbers["n_clipped"] == prepared.n_clipped
    assert result.numbers["sensitivity"] == prepared.sensitivity
    assert "0.6/0.3/0.1" in prepared.data_note


def test_typical_spread_distance_of_the_generators():
    from geodp_core.pipeline import typical_spread_distance

    assert typical_spread_distance(Scenario(manifold="sphere", dim=100, data="vmf", spread=0.1)) == pytest.approx(1.0)
    shapes = Scenario(manifold="kendall", dim=12, data="shape_perturbation", spread=0.05, radius=0.3)
    assert typical_spread_distance(shapes) == pytest.approx(0.05 * np.sqrt(24))
    wrapped = Scenario(manifold="hyperbolic", dim=5, data="wrapped_normal", spread=0.2)
    assert typical_spread_distance(wrapped) == pytest.approx(0.2 * np.sqrt(5))
    assert typical_spread_distance(Scenario(manifold="spd", dim=3, data="wrapped_normal", spread=0.1)) == pytest.approx(
        0.1 * np.sqrt(6))  # the intrinsic dimension of SPD(3)
    assert typical_spread_distance(Scenario(manifold="hyperbolic", dim=2, data="uniform_ball")) is None


def test_the_default_spread_follows_the_dimension_and_the_check_says_why():
    """At d = 10 a fixed spread 0.25 (s·√d = 0.79 > r = 0.7) pushed 52 of 100 records onto the ball's edge, all of them
    from d = 100; the default of each dimension keeps them inside, and the check's fix does too."""
    from geodp_core.constraints import default_spread
    from geodp_core.pipeline import SPREAD_FIT_FRACTION, SPREAD_WARNING_FRACTION, prepare, spread_check

    assert [default_spread("sphere", d) for d in (1, 2, 10, 100, 1000)] == [0.25, 0.25, 0.11, 0.04, 0.01]
    assert default_spread("kendall", 12) == 0.05 and default_spread("spd", 2) == 0.25
    assert Scenario(dim=10).spread == 0.11 and Scenario().spread == 0.25
    assert "spread" not in Scenario(dim=10).to_query_params()
    assert Scenario(dim=10, spread=0.25).to_query_params()["spread"] == "0.25"
    assert Scenario.from_query_params({"dim": "10"}) == Scenario(dim=10)
    for d, clipped in ((10, 52), (100, 100)):
        wide = Scenario(dim=d, spread=0.25)
        assert prepare(wide).n_clipped == clipped
        check = spread_check(wide)
        assert check.too_wide and check.typical == pytest.approx(0.25 * np.sqrt(d))
        assert f"0.25·√{d} = {0.25 * np.sqrt(d):.2g}" in check.message() and "r = 0.7" in check.message()
        assert check.fit * np.sqrt(d) <= SPREAD_FIT_FRACTION * 0.7 + 1e-12
        assert prepare(wide.with_changes(spread=check.fit)).n_clipped <= 2
        default = Scenario(dim=d)
        assert not spread_check(default).too_wide and prepare(default).n_clipped <= 2
    edge = Scenario(dim=4, spread=round(SPREAD_WARNING_FRACTION * 0.7 / 2 + 0.01, 2))  # s·√4 just above 0.8 r
    assert spread_check(edge).too_wide and not spread_check(edge.with_changes(spread=0.27)).too_wide
    assert spread_check(Scenario(data="cities")) is None
