"""Property-based robustness tests of the data generators, clipping and summaries (docs/specification.md §2, §3, §9).

Valid parameters (including extreme magnitudes) give exactly ``n`` finite points
on the manifold, or a ``ValueError`` naming the parameter when the result is
not representable in double precision; invalid parameters raise a
``ValueError`` naming the argument. See :func:`tests.geometry.test_properties.outcome`.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geodp_core import summaries
from geodp_core.data import (
    check_in_ball,
    clip_to_ball,
    sample_geodesic_regression,
    sample_uniform_ball,
    sample_vmf_mixture,
    sample_von_mises_fisher,
    sample_wishart,
    sample_wrapped_normal,
)
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from tests.geometry.test_properties import MANIFOLDS, SETTINGS, exponent_floats, outcome

kappas = st.one_of(st.just(0.0), exponent_floats(-310, 308))
BAD_POSITIVE = [-1.0, np.nan, np.inf, True, "1", None]


def _points_check(manifold, n):
    def check(points):
        points = np.asarray(points)
        return points.shape == (n,) + tuple(manifold.point_shape) and bool(np.all(manifold.belongs(points)))

    return check


@settings(max_examples=80, **SETTINGS)
@given(st.integers(1, 6), kappas, st.integers(1, 20), st.integers(0, 2**32 - 1))
def test_vmf_any_concentration(d, kappa, n, seed):
    sphere = get_manifold("sphere", d)
    mu = np.zeros(d + 1)
    mu[-1] = 1.0
    outcome("vmf", lambda: sample_von_mises_fisher(mu, kappa, n, seed), True, check=_points_check(sphere, n))


@settings(max_examples=40, **SETTINGS)
@given(st.integers(1, 4), st.sampled_from(BAD_POSITIVE))
def test_vmf_invalid_kappa(d, bad):
    mu = np.zeros(d + 1)
    mu[-1] = 1.0
    outcome("vmf_bad_kappa", lambda: sample_von_mises_fisher(mu, bad, 3, 0), False, names=("kappa",))
    outcome("vmf_bad_mu", lambda: sample_von_mises_fisher(2 * mu, 1.0, 3, 0), False, names=("mean_direction",))


@settings(max_examples=80, **SETTINGS)
@given(st.sampled_from(MANIFOLDS), exponent_floats(-10, 8), st.integers(1, 10), st.integers(0, 2**32 - 1))
def test_uniform_ball_any_radius(spec, radius, n, seed):
    manifold = get_manifold(*spec)
    if manifold.name == "sphere":
        radius = min(radius, math.pi)
    center = manifold.default_center()

    def check(points):
        return _points_check(manifold, n)(points) and bool(
            np.all(manifold.dist(center, points, check=False) <= radius * (1 + 1e-9) + 1e-12))

    outcome("uniform_ball", lambda: sample_uniform_ball(manifold, center, radius, n, seed), True,
            names=("radius",), check=check, allow_refusal=manifold.name != "sphere")


@settings(max_examples=80, **SETTINGS)
@given(st.sampled_from(MANIFOLDS), st.one_of(st.just(0.0), exponent_floats(-10, 10)), st.integers(1, 10),
       st.integers(0, 2**32 - 1))
def test_wrapped_normal_any_std(spec, std, n, seed):
    manifold = get_manifold(*spec)
    center = manifold.default_center()
    outcome("wrapped_normal", lambda: sample_wrapped_normal(manifold, center, std, n, seed), True,
            names=("std",), check=_points_check(manifold, n), allow_refusal=manifold.name != "sphere")


@settings(max_examples=40, **SETTINGS)
@given(st.integers(1, 3), exponent_floats(0, 300), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_wishart_any_dof(m, dof_factor, n, seed):
    spd = get_manifold("spd", m)
    dof = m * dof_factor
    outcome("wishart", lambda: sample_wishart(m, dof, None, n, seed), True, names=("dof",),
            check=_points_check(spd, n), allow_refusal=True)


@settings(max_examples=40, **SETTINGS)
@given(st.sampled_from(MANIFOLDS), exponent_floats(-6, 3), st.one_of(st.just(0.0), exponent_floats(-8, 2)),
       st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_geodesic_regression_any_parameters(spec, speed, noise, n, seed):
    manifold = get_manifold(*spec)
    foot = manifold.default_center()
    vec = manifold.from_frame(foot, np.r_[speed, np.zeros(manifold.dim - 1)])

    def check(xy):
        x, y = xy
        return x.shape == (n,) and _points_check(manifold, n)(y)

    outcome("regression", lambda: sample_geodesic_regression(manifold, foot, vec, n, noise, seed), True,
            names=("shooting_vector", "noise_std"), check=check, allow_refusal=manifold.name != "sphere")


# ------------------------------------------------------------------- summaries
curvatures = st.one_of(st.sampled_from([-1.0, -0.5, 0.0, 1.0]), exponent_floats(-300, 300),
                       exponent_floats(-300, 300).map(lambda x: -x))


@settings(max_examples=150, **SETTINGS)
@given(st.one_of(st.integers(2, 10**6), st.integers(10**6, 10**400)), st.floats(1e-15, 1.0, exclude_max=True),
       curvatures, st.one_of(st.floats(1.0, 2.0, exclude_min=True), exponent_floats(0.31, 3)))
def test_sensitivities_finite_for_every_valid_input(n, fraction, kappa, p):
    """radius = fraction * r* (r* = pi/(4 sqrt(kappa)) or a log-uniform radius on Hadamard spaces)."""
    if kappa > 0:
        radius = fraction * math.pi / (4.0 * math.sqrt(kappa))
    else:
        radius = 10.0 ** (600 * fraction - 300)
    if not radius > 0:
        return
    kw = dict(allow_refusal=True, check=lambda v: 0 < v < math.inf)
    outcome("frechet_sensitivity", lambda: summaries.frechet_mean_sensitivity(n, radius, kappa), True,
            names=("n", "radius", "curvature_upper"), **kw)
    outcome("p_mean_sensitivity", lambda: summaries.p_mean_sensitivity(n, radius, p, kappa), True,
            names=("n", "radius", "curvature_upper", "p"), **kw)


@settings(max_examples=60, **SETTINGS)
@given(st.sampled_from(BAD_POSITIVE + [0.0, 1.5, 1]), st.sampled_from(BAD_POSITIVE + [0.0, 1.0]))
def test_sensitivities_invalid_inputs(bad_n, bad_radius):
    outcome("sens_bad_n", lambda: summaries.frechet_mean_sensitivity(bad_n, 0.1, 1.0), False, names=("n",))
    outcome("sens_bad_radius", lambda: summaries.frechet_mean_sensitivity(10, bad_radius, 1.0), False,
            names=("radius",))
    outcome("p_sens_bad_radius", lambda: summaries.p_mean_sensitivity(10, bad_radius, 1.5, 1.0), False,
            names=("radius",))


@settings(max_examples=40, **SETTINGS)
@given(st.sampled_from(MANIFOLDS), st.floats(0.01, 0.7), st.integers(2, 12), st.integers(0, 2**32 - 1),
       exponent_floats(-3, 1))
def test_clip_and_check_ball(spec, radius, n, seed, spread):
    manifold = get_manifold(*spec)
    radius = min(radius, 0.95 * manifold.ball_radius_limit)  # a valid public radius (Kendall: r* = pi/8 < 0.7)
    center = manifold.default_center()
    rng = np.random.default_rng(seed)
    coords = rng.normal(size=(n, manifold.dim)) * spread
    if manifold.name == "sphere":
        coords *= np.minimum(1.0, 3.0 / np.maximum(np.linalg.norm(coords, axis=1, keepdims=True), 1e-300))
    points = manifold.exp(center, manifold.from_frame(center, coords), check=False)

    def check(result):
        clipped, count = result
        return _points_check(manifold, n)(clipped) and bool(
            np.all(manifold.dist(center, clipped, check=False) <= radius * (1 + 1e-9)))

    kind = outcome("clip_to_ball", lambda: clip_to_ball(manifold, points, center, radius), True,
                   names=("points",), check=check, allow_refusal=True)
    if kind == "ok":
        clipped, _ = clip_to_ball(manifold, points, center, radius)
        outcome("check_in_ball", lambda: check_in_ball(manifold, clipped, center, radius), True)


# ------------------------------------------------------------------ regressions
def test_regression_vmf_huge_and_tiny_kappa():
    mu = np.array([0.0, 0.0, 1.0])
    for kappa in (1e300, 1.7e308, 1e-300, 5e-324):
        points = sample_von_mises_fisher(mu, kappa, 50, 0)
        assert np.all(np.isfinite(points)) and np.all(get_manifold("sphere", 2).belongs(points))
    np.testing.assert_allclose(sample_von_mises_fisher(mu, 1e300, 5, 0), np.tile(mu, (5, 1)), atol=1e-100)
    mix = sample_vmf_mixture(np.array([mu, -mu]), [1e300, 0.0], None, 10, 1)
    assert np.all(np.isfinite(mix))


def test_regression_sensitivity_extremes():
    with pytest.raises(InvalidParameterError, match="n"):
        summaries.frechet_mean_sensitivity(10**400, 0.5, 1.0)  # 1e-400 underflows to 0 (was OverflowError)
    value = summaries.frechet_mean_sensitivity(10**30, 0.5, 1.0)
    assert 0 < value < math.inf
    assert math.isfinite(summaries.frechet_mean_sensitivity(10, math.pi / 4 * (1 - 1e-16), 1.0))
    # 2r/n = 2e307 is representable although 2r is not (was inf)
    assert summaries.frechet_mean_sensitivity(10, 1e308, 0.0) == pytest.approx(2e307, rel=1e-12)
    with pytest.raises(InvalidParameterError, match="radius"):
        summaries.p_mean_sensitivity(2, 1e308, 3.0, 0.0)  # overflows: a clear error naming radius


@settings(max_examples=60, **SETTINGS)
@given(st.one_of(st.just(0.0), exponent_floats(-320, 308)), st.integers(1, 200))
def test_vmf_mean_resultant_length_any_kappa(kappa, d):
    from geodp_core.data import vmf_mean_resultant_length

    outcome("vmf_mrl", lambda: vmf_mean_resultant_length(kappa, d), True, names=("sphere_dim",),
            check=lambda a: 0.0 <= a <= 1.0, allow_refusal=True)


@settings(max_examples=40, **SETTINGS)
@given(exponent_floats(-300, 300))
def test_vmf_kappa_from_std_any_std(std):
    from geodp_core.data import vmf_kappa_from_std

    outcome("kappa_from_std", lambda: vmf_kappa_from_std(std), True, names=("std",),
            check=lambda k: k >= 0, allow_refusal=True)


def test_regression_vmf_helpers_extremes():
    from geodp_core.data import vmf_kappa_from_std, vmf_mean_resultant_length

    assert vmf_mean_resultant_length(1e300, 2) == 1.0  # was NaN
    assert vmf_mean_resultant_length(1e-300, 100) == pytest.approx(1e-300 / 101)  # was NaN
    assert vmf_mean_resultant_length(1e7, 2) == pytest.approx(1.0 - 1e-7, rel=1e-15)
    with pytest.raises(InvalidParameterError, match="std"):
        vmf_kappa_from_std(1e-200)  # was ZeroDivisionError
    assert vmf_kappa_from_std(1e200) == 0.0  # was OverflowError


def test_regression_small_hyperbolic_mesh():
    from geodp_core.geometry.mesh import hyperbolic_ball_mesh

    mesh = hyperbolic_ball_mesh(50, 1e-12)  # was ZeroDivisionError
    assert np.all(np.isfinite(mesh.vertices)) and mesh.lumped_mass.sum() > 0
