"""Kendall shape space Σ^k_2 = CP^(k-2): maps, invariances, volume density, radial laws, bad inputs.

The generic adapter contract (Exp/Log inverse, frames, finite-difference Jacobian, parallel transport) runs in
``test_manifolds.py`` (``TestKendall3``, ``TestKendall6``); this file checks what is specific to shapes,
against independent references: the direct formula arccos|<z, w>|, geomstats' ``KendallShapeMetric``, the
Hopf map CP^1 -> S^2(1/2) for triangles, and Monte Carlo volumes of uniform shapes.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import integrate, stats

from geodp_core.exceptions import CutLocusError, InvalidParameterError, OffManifoldError
from geodp_core.geometry import (
    MANIFOLD_NAMES,
    KendallShapeSpace,
    get_manifold,
)
from geodp_core.geometry.kendall import helmert_submatrix
from geodp_core.geometry.radial import RadialLaw, log_radial_jacobian

SEED = 20261125
KS_ALPHA = 1e-4


def _complex(points):
    return points[..., 0] + 1j * points[..., 1]


def _rotate(points, theta):
    """Rotate every landmark by ``theta`` (broadcast against ``points.shape[:-1]``): z -> e^(i theta) z."""
    rotated = _complex(points) * np.exp(1j * np.asarray(theta, dtype=float))
    return np.stack([rotated.real, rotated.imag], axis=-1)


@pytest.fixture(params=[3, 4, 7])
def kendall(request):
    return get_manifold("kendall", request.param)


def test_registration_dimensions_and_facts(kendall):
    k = kendall.k
    assert isinstance(kendall, KendallShapeSpace)
    assert kendall.dim == 2 * k - 4 and kendall.point_shape == (k, 2)
    assert kendall.curvature_bounds == (1.0, 4.0)
    assert kendall.injectivity_radius == pytest.approx(np.pi / 2) and kendall.diameter == pytest.approx(np.pi / 2)
    assert kendall.ball_radius_limit == pytest.approx(np.pi / 8)  # 1/2 min(inj, pi/(2 sqrt 4))
    assert kendall.is_homogeneous and not kendall.is_hadamard
    assert kendall.belongs(kendall.default_center())
    assert "kendall" in MANIFOLD_NAMES  # get_manifold accepts it and the app offers it


@pytest.mark.parametrize("bad", [2, 0, -3, 1001, 3.5, True, "5"])
def test_bad_landmark_count_names_the_parameter(bad):
    with pytest.raises(InvalidParameterError, match="dim") as exc:
        get_manifold("kendall", bad)
    assert exc.value.param == "dim"
    with pytest.raises(InvalidParameterError, match=r"k \(the number of planar landmarks.*\[3, 1000\]"):
        KendallShapeSpace(bad)


def test_metric_argument_rejected():
    with pytest.raises(InvalidParameterError, match="metric"):
        get_manifold("kendall", 5, "affine")


def test_dist_matches_direct_formula_and_is_rotation_invariant(kendall):
    rng = np.random.default_rng(SEED)
    a, b = kendall.random_uniform(50, rng), kendall.random_uniform(50, rng)
    direct = np.arccos(np.minimum(1.0, np.abs(np.sum(np.conj(_complex(a)) * _complex(b), axis=-1))))
    np.testing.assert_allclose(kendall.dist(a, b), direct, atol=1e-12)
    theta = rng.uniform(0, 2 * np.pi, (50, 1))
    np.testing.assert_allclose(kendall.dist(_rotate(a, theta), _rotate(b, -2 * theta)), direct, atol=1e-12)
    assert np.all(kendall.dist(a, _rotate(a, theta)) < 1e-7)
    assert kendall.same_shape(a, _rotate(a, theta)).all()
    assert np.all(direct <= np.pi / 2)


def test_log_is_horizontal_and_rotation_equivariant(kendall):
    rng = np.random.default_rng(SEED + 1)
    a, b = kendall.random_uniform(30, rng), kendall.random_uniform(30, rng)
    logs = kendall.log(a, b)
    np.testing.assert_allclose(logs.sum(axis=-2), 0.0, atol=1e-12)  # centred
    herm = np.sum(np.conj(_complex(a)) * _complex(logs), axis=-1)  # <z, v> = 0: orthogonal to z and iz
    np.testing.assert_allclose(np.abs(herm), 0.0, atol=1e-12)
    theta = rng.uniform(0, 2 * np.pi, (30, 1))
    # rotating the target does not change the log; rotating the base rotates it
    np.testing.assert_allclose(kendall.log(a, _rotate(b, theta)), logs, atol=1e-10)
    np.testing.assert_allclose(kendall.log(_rotate(a, theta), b), _rotate(logs, theta), atol=1e-10)
    # Exp(Log) is the same shape as the target, optimally rotated onto the base
    back = kendall.exp(a, logs)
    assert np.all(kendall.dist(back, b) < 1e-7)
    assert np.all(np.sum(np.conj(_complex(a)) * _complex(back), axis=-1).real >= 0)


def test_agrees_with_geomstats_kendall_metric(kendall):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from geomstats.geometry.pre_shape import PreShapeSpace

        space = PreShapeSpace(kendall.k, 2)
        space.equip_with_group_action("rotations")
        space.equip_with_quotient()
        metric = space.quotient.metric
        rng = np.random.default_rng(SEED + 2)
        a, b = kendall.random_uniform(20, rng), kendall.random_uniform(20, rng)
        theirs_dist = metric.dist(a, b)
        theirs_log = metric.log(b, a)
        vec = 0.9 * kendall.log(a, b)
        theirs_exp = metric.exp(vec, a)
    np.testing.assert_allclose(kendall.dist(a, b), theirs_dist, atol=1e-10)
    np.testing.assert_allclose(kendall.log(a, b), theirs_log, atol=1e-10)
    assert np.all(kendall.dist(kendall.exp(a, vec), theirs_exp) < 1e-7)


def test_triangles_are_the_sphere_of_radius_one_half():
    """CP^1 = S^2(1/2): the Hopf map sends triangle shapes to S^2 and halves great-circle angles."""
    tri = get_manifold("kendall", 3)
    rng = np.random.default_rng(SEED + 3)
    a, b = tri.random_uniform(40, rng), tri.random_uniform(40, rng)
    helmert = helmert_submatrix(3)

    def hopf(points):
        zeta = _complex(points) @ helmert.T
        w = zeta[:, 0] * np.conj(zeta[:, 1])
        return np.stack([2 * w.real, 2 * w.imag, np.abs(zeta[:, 0]) ** 2 - np.abs(zeta[:, 1]) ** 2], axis=-1)

    angle = np.arccos(np.clip(np.sum(hopf(a) * hopf(b), axis=-1), -1, 1))
    np.testing.assert_allclose(tri.dist(a, b), angle / 2, atol=1e-7)


def test_uniform_shapes_have_ball_volumes_sin_to_the_d(kendall):
    """Volume of B(c, r) over the total volume is sin^d(r) (integral of J = sin^(d-1) r cos r): Monte Carlo.

    ``random_uniform`` is built independently of J (normalised complex Gaussian); a wrong exponent or a missing
    cos r changes the CDF by far more than the KS resolution with 4000 draws.
    """
    rng = np.random.default_rng(SEED + 4)
    center = kendall.random_uniform(1, rng)[0]
    radii = kendall.dist(center, kendall.random_uniform(4000, rng))
    d = kendall.dim
    assert stats.kstest(radii, lambda r: np.sin(np.clip(r, 0, np.pi / 2)) ** d).pvalue > KS_ALPHA


def test_total_volume_is_pi_to_the_n_over_n_factorial(kendall):
    d, n = kendall.dim, kendall.k - 2
    sphere_area = 2 * math.pi ** (d / 2) / math.gamma(d / 2)
    radial = integrate.quad(lambda r: math.exp(float(kendall.radial_log_density(r))), 0, np.pi / 2)[0]
    assert sphere_area * radial == pytest.approx(math.pi**n / math.factorial(n), rel=1e-10)


def test_volume_jacobian_is_the_radial_density_over_r_to_the_d_minus_1(kendall):
    rng = np.random.default_rng(SEED + 5)
    center = kendall.default_center()
    unit = kendall.random_unit_tangent(center, 5, rng)
    radii = np.array([1e-6, 0.1, 0.7, 1.2, 1.55])
    vecs = radii[:, None, None] * unit
    expected = kendall.radial_log_density(radii) - (kendall.dim - 1) * np.log(radii)
    np.testing.assert_allclose(kendall.log_volume_jacobian(center, vecs), expected, atol=1e-10)
    direct = (kendall.dim - 1) * np.log(np.sin(radii)) + np.log(np.cos(radii))
    np.testing.assert_allclose(log_radial_jacobian("kendall", kendall.dim, radii), direct, rtol=1e-12)
    assert kendall.log_volume_jacobian(center, np.pi / 2 * unit[0]) < -30  # cut locus: J -> 0


@pytest.mark.parametrize("profile, scale", [("laplace", 0.1), ("laplace", 0.8), ("gaussian", 0.2), ("gaussian", 2.0),
                                            ("uniform", 0.3), ("uniform", 5.0)])
@pytest.mark.parametrize("k", [3, 6])
def test_radial_samplers_match_an_independent_quadrature_cdf(profile, scale, k):
    """KS of every available exact radial sampler against the CDF of g(r) sin^(2k-5) r cos r by scipy.quad."""
    d = 2 * k - 4
    law = RadialLaw("kendall", d, profile, scale)
    g = {"laplace": lambda r: math.exp(-r / scale), "gaussian": lambda r: math.exp(-0.5 * (r / scale) ** 2),
         "uniform": lambda r: float(r <= scale)}[profile]
    upper = min(np.pi / 2, scale) if profile == "uniform" else np.pi / 2
    density = lambda r: g(r) * math.sin(r) ** (d - 1) * math.cos(r)
    total = integrate.quad(density, 0, upper, limit=200)[0]
    grid = np.linspace(0, upper, 401)
    cdf_grid = np.concatenate([[0.0], np.cumsum([integrate.quad(density, a, b)[0]
                                                 for a, b in itertools.pairwise(grid)])]) / total
    np.testing.assert_allclose(law.cdf(grid), cdf_grid, atol=1e-9)
    for method, rate in law.acceptance_rates().items():
        if rate < 0.05:
            continue
        radii = law.sample(3000, np.random.default_rng(SEED), method=method)
        assert radii.min() >= 0 and radii.max() <= upper
        assert stats.kstest(radii, lambda r: np.interp(r, grid, cdf_grid)).pvalue > KS_ALPHA, method


def test_radial_law_rejects_odd_kendall_dimension():
    with pytest.raises(InvalidParameterError, match="even"):
        RadialLaw("kendall", 3, "laplace", 0.5)


def test_bad_points_and_vectors_raise_named_errors():
    shapes = get_manifold("kendall", 5)
    good = shapes.default_center()
    with pytest.raises(OffManifoldError, match="point_b.*centred"):
        shapes.dist(good, good + 0.1)  # not centred
    with pytest.raises(OffManifoldError, match="point_b"):
        shapes.dist(good, 2.0 * good)  # not unit norm
    with pytest.raises(InvalidParameterError, match="point_a"):
        shapes.dist(np.zeros((6, 2)), good)  # six landmarks on a five-landmark space
    with pytest.raises(InvalidParameterError, match="point_a"):
        shapes.dist(np.zeros((5, 3)), good)  # landmarks in 3-D
    nan = good.copy()
    nan[0, 0] = np.nan
    with pytest.raises(InvalidParameterError, match="point_a"):
        shapes.dist(nan, good)
    rotation_direction = good @ np.array([[0.0, 1.0], [-1.0, 0.0]])  # i z: vertical, not horizontal
    with pytest.raises(OffManifoldError, match="tangent_vec"):
        shapes.exp(good, 0.1 * rotation_direction)
    far = shapes.exp(good, np.pi / 2 * shapes.random_unit_tangent(good, 1, np.random.default_rng(0))[0])
    with pytest.raises(CutLocusError, match="point"):
        shapes.log(good, far)
    with pytest.raises(InvalidParameterError, match="configurations.*degenerate"):
        shapes.projection(np.ones((5, 2)))


def test_projection_removes_translation_scale_and_keeps_the_shape():
    shapes = get_manifold("kendall", 6)
    rng = np.random.default_rng(SEED + 6)
    config = rng.standard_normal((6, 2))
    moved = 3.7 * _rotate(config, 1.1) + np.array([5.0, -2.0])
    a, b = shapes.projection(config), shapes.projection(moved)
    assert shapes.belongs(a) and shapes.belongs(b)
    assert shapes.same_shape(a, b)
    aligned = shapes.align(b, a)
    np.testing.assert_allclose(aligned, a, atol=1e-12)


def test_the_app_scenario_offers_kendall_with_k_landmarks():
    from geodp_core.scenario import Scenario

    scenario = Scenario(manifold="kendall", dim=5, data="shape_perturbation", radius=0.3)
    assert scenario.build_manifold().k == 5 and scenario.build_manifold().dim == 6
    with pytest.raises(InvalidParameterError, match="radius"):  # r* = pi/8 on Kendall space
        Scenario(manifold="kendall", dim=5, data="shape_perturbation", radius=0.5)
    with pytest.raises(InvalidParameterError) as info:
        Scenario(manifold="kendall", dim=2, data="shape_perturbation", radius=0.3)
    assert info.value.param == "dim"
