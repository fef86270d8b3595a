"""KNGGeodesicRegression: the calibrate (public) / sample (private data) contract of private geodesic regression."""

import warnings

import numpy as np
import pytest

from geodp_core.data import sample_geodesic_regression
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import LABEL_APPROXIMATE, LABEL_NO_GUARANTEE, Calibration
from geodp_core.mechanisms.kng_regression import (
    KNGGeodesicRegression,
    KNGRegressionResult,
    RegressionPrivacyWarning,
    kng_geodesic_regression,
)
from geodp_core.privacy import ApproxDP, PureDP

S2 = get_manifold("sphere", 2)
N = 12
FAST = dict(data_radius=1.0, max_chain_length=40)  # short chains: the proxy check's verdict does not matter here


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RegressionPrivacyWarning)
        yield


def _data(seed, velocity, noise):
    p0 = S2.default_center()
    return sample_geodesic_regression(S2, p0, S2.from_frame(p0, np.asarray(velocity, dtype=float)), N, noise,
                                      np.random.default_rng(seed))


def test_availability():
    for manifold in (S2, get_manifold("hyperbolic", 2), get_manifold("spd", 2, "log_euclidean"),
                     get_manifold("euclidean", 3), get_manifold("kendall", 5), get_manifold("so3")):
        ok, reason = KNGGeodesicRegression(manifold).available()
        assert ok and reason == ""


def test_availability_follows_the_closed_form_differential_the_space_declares():
    from geodp_core.geometry import Sphere

    class NoJacobi(Sphere):
        jacobi_model = None

    manifold = NoJacobi(2)
    ok, reason = KNGGeodesicRegression.availability(manifold)
    assert not ok and "differential of Exp" in reason and manifold.label in reason


def test_calibrate_uses_public_inputs_only():
    mech = KNGGeodesicRegression(S2)
    first = mech.calibrate(PureDP(1.0), N, 0.2, **FAST)
    second = mech.calibrate(PureDP(1.0), N, 0.2, **FAST)
    assert isinstance(first, Calibration) and first.label in (LABEL_APPROXIMATE, LABEL_NO_GUARANTEE)
    assert first.noise == second.noise and first.label == second.label and first.notes == second.notes
    assert first.noise["eps_footpoint"] == first.noise["eps_shooting"] == 0.5
    # two different private datasets: the releases carry exactly the calibrated public settings
    results = [mech.sample(_data(seed, v, s), first, 2, 5)
               for seed, v, s in ((1, [0.6, -0.3], 0.02), (2, [-0.2, 0.7], 0.1))]
    assert not np.allclose(results[0].nonprivate_footpoint, results[1].nonprivate_footpoint)
    for result in results:
        assert result.label == first.label
        assert result.sigma_footpoint == first.noise["sigma_footpoint"]
        assert result.sigma_shooting == first.noise["sigma_shooting"]
        assert result.diagnostics["chain_length"] == first.noise["chain_length"]
        assert result.diagnostics["burn_in"] == first.noise["burn_in"]
    assert results[0].notes == results[1].notes
    assert results[0].public_warnings == results[1].public_warnings
    assert not any(note.startswith("For the data owner") for note in first.notes)


def test_calibrate_label_and_approx_target():
    mech = KNGGeodesicRegression(S2)
    cal = mech.calibrate(ApproxDP(1.0, 1e-6), N, 0.2, footpoint_share=0.25, **FAST)
    assert cal.achieved == ApproxDP(1.0, 1e-6) and cal.native == PureDP(1.0)
    assert cal.noise["eps_footpoint"] == 0.25 and cal.noise["eps_shooting"] == 0.75
    assert "ε-DP implies (ε, δ)-DP" in cal.notes[0]
    paper = mech.calibrate(PureDP(1.0), N, 0.2, scale_convention="paper", **FAST)
    assert paper.label == LABEL_NO_GUARANTEE and any(n.startswith("NOT DP: sigma = Delta/eps") for n in paper.notes)
    if not cal.noise["proxy_passed"]:
        assert cal.label == LABEL_NO_GUARANTEE and any("convergence check failed" in n for n in cal.notes)


@pytest.mark.parametrize("call, param", [
    (lambda m: m.calibrate(1.0, N, 0.2, **FAST), "target"),
    (lambda m: m.calibrate(PureDP(1.0), 1, 0.2, **FAST), "n"),
    (lambda m: m.calibrate(PureDP(1.0), N, -0.2, **FAST), "tau"),
    (lambda m: m.calibrate(PureDP(1.0), N, "data", **FAST), "tau"),
    (lambda m: m.calibrate(PureDP(1.0), N, 0.2, footpoint_share=1.0, **FAST), "footpoint_share"),
    (lambda m: m.calibrate(PureDP(1.0), N, 0.2, n_releases=2, **FAST), "n_releases"),
    (lambda m: m.calibrate(PureDP(1.0), N, 0.2, colour="red", **FAST), "colour"),
    (lambda m: m.calibrate(PureDP(1.0), N, 0.2, data_radius=-1.0), "data_radius"),
    (lambda m: m.calibrate(PureDP(1.0), N, 0.2, max_chain_length=2, data_radius=1.0), "max_chain_length"),
])
def test_calibrate_validates_arguments(call, param):
    with pytest.raises(ValueError) as info:
        call(KNGGeodesicRegression(S2))
    assert isinstance(info.value, InvalidParameterError) and info.value.param == param


def test_sample_validates_arguments():
    mech = KNGGeodesicRegression(S2)
    cal = mech.calibrate(PureDP(1.0), N, 0.2, **FAST)
    x, y = _data(1, [0.6, -0.3], 0.05)
    other = KNGGeodesicRegression(get_manifold("sphere", 3)).calibrate(PureDP(1.0), N, 0.2, **FAST)
    for call, param in [
        (lambda: mech.sample((x[:-1], y[:-1]), cal, 1, 0), "data"),
        (lambda: mech.sample(y, cal, 1, 0), "data"),
        (lambda: mech.sample((x, y), cal, 0, 0), "size"),
        (lambda: mech.sample((x, y), other, 1, 0), "calibration"),
        (lambda: mech.sample((x, y), "cal", 1, 0), "calibration"),
    ]:
        with pytest.raises(InvalidParameterError) as info:
            call()
        assert info.value.param == param


def test_sample_returns_on_manifold_releases_of_the_requested_size():
    mech = KNGGeodesicRegression(S2)
    cal = mech.calibrate(PureDP(2.0), N, 0.2, owner_diagnostics=False, **FAST)
    result = mech.sample(_data(3, [0.5, 0.2], 0.05), cal, 4, np.random.default_rng(0))
    assert isinstance(result, KNGRegressionResult)
    assert result.footpoints.shape == result.shooting_vectors.shape == (4, 3)
    assert np.all(np.isfinite(result.footpoints)) and np.all(np.isfinite(result.shooting_vectors))
    assert np.all(S2.belongs(result.footpoints, atol=1e-8))
    np.testing.assert_allclose(np.sum(result.footpoints * result.shooting_vectors, axis=1), 0.0, atol=1e-8)
    assert np.all(np.linalg.norm(result.shooting_vectors, axis=1) <= result.max_speed + 1e-12)
    assert result.guarantee == PureDP(2.0) and result.options["n_releases"] == 4


def test_footpoint_grid_draws_several_shooting_vectors_at_each_released_footpoint():
    x, y = _data(5, [0.5, 0.2], 0.05)
    result = kng_geodesic_regression(S2, x, y, 1.0, 1.0, 0.2, 3, n_releases=6, shooting_per_footpoint=3,
                                     owner_diagnostics=False, **FAST)
    feet, shots = result.footpoints, result.shooting_vectors
    assert feet.shape == shots.shape == (6, 3)
    np.testing.assert_array_equal(feet[0], feet[2])
    np.testing.assert_array_equal(feet[3], feet[5])
    assert not np.allclose(feet[0], feet[3])  # two independent stage-1 chains
    assert len({tuple(v) for v in np.round(shots, 12)}) == 6  # six stage-2 chains
    np.testing.assert_allclose(np.sum(feet * shots, axis=1), 0.0, atol=1e-8)
    assert result.diagnostics["n_footpoints"] == 2 and result.diagnostics["n_chains"] == 6
    cost = [note for note in result.notes if "by composition" in note]
    assert len(cost) == 1 and "2 × 1 + 6 × 1 = 8" in cost[0]  # footpoints · ε_p + pairs · ε_v
    with pytest.raises(InvalidParameterError) as info:
        kng_geodesic_regression(S2, x, y, 1.0, 1.0, 0.2, 3, n_releases=5, shooting_per_footpoint=2, **FAST)
    assert info.value.param == "shooting_per_footpoint" and "5" in str(info.value)
    with pytest.raises(InvalidParameterError, match="shooting_per_footpoint"):
        kng_geodesic_regression(S2, x, y, 1.0, 1.0, 0.2, 3, shooting_per_footpoint=0, **FAST)


@pytest.mark.parametrize("options", [{}, dict(init="nonprivate", footpoint_velocity="nonprivate")])
def test_composition_equals_function(options):
    x, y = _data(4, [0.6, -0.3], 0.05)
    direct = kng_geodesic_regression(S2, x, y, 0.5, 0.5, 0.2, 11, n_releases=2, **FAST, **options)
    mech = KNGGeodesicRegression(S2)
    cal = mech.calibrate(PureDP(1.0), N, 0.2, footpoint_share=0.5, **FAST, **options)
    composed = mech.sample((x, y), cal, 2, 11)
    np.testing.assert_array_equal(direct.footpoints, composed.footpoints)
    np.testing.assert_array_equal(direct.shooting_vectors, composed.shooting_vectors)
    np.testing.assert_array_equal(direct.nonprivate_footpoint, composed.nonprivate_footpoint)
    assert direct.notes == composed.notes and direct.warnings == composed.warnings
    assert direct.owner_notes == composed.owner_notes and direct.label == composed.label
    assert (direct.sigma_footpoint, direct.sigma_shooting) == (composed.sigma_footpoint, composed.sigma_shooting)
    assert direct.options == composed.options


def test_regression_lab_demo_lives_in_the_studies():
    from geodp_core import regression_lab
    from geodp_core.mechanisms import kng_regression
    from geodp_core.studies import regression_lab as lab

    for name in ("regression_demo", "RegressionDemo", "REGRESSION_PRESETS", "REGRESSION_SPACES"):
        assert getattr(regression_lab, name) is getattr(lab, name)
        assert not hasattr(kng_regression, name)  # a mechanism never reaches up into a study
    demo = regression_lab.regression_demo("sphere", 10, 0.05, "short arc", 2.0, 0.5, 0.3, 1.0, 20, 2, 0)
    assert isinstance(demo, regression_lab.RegressionDemo)
    assert demo.result.footpoints.shape == (2, 3) and demo.mspe_private.shape == (2,)
    assert np.isfinite(demo.mspe_truth) and np.isfinite(demo.mspe_nonprivate)
