"""Tests of geodp_core.summaries: Fréchet / p-means, sensitivity bounds, empirical sensitivity (docs/specification.md §3, §9).

References are closed forms, mpmath at 50 digits, scipy.linalg (expm/logm), scipy.optimize and
geomstats' FrechetMean. Everything is deterministic (fixed seeds); there is no statistical test
with a type-I error here: the empirical-sensitivity checks compare a proven upper bound with
a lower bound obtained by explicit neighbouring datasets.
"""

import mpmath
import numpy as np
import pytest
from scipy.linalg import expm, logm
from scipy.optimize import minimize

from geodp_core.exceptions import ConvergenceError, InvalidParameterError, OffManifoldError, OutsideBallError
from geodp_core.geometry import get_manifold
from geodp_core.summaries import (
    EmpiricalSensitivity,
    empirical_sensitivity,
    frechet_mean,
    frechet_mean_sensitivity,
    p_mean,
    p_mean_sensitivity,
    validate_public_ball,
)

mpmath.mp.dps = 50

CURVED = [
    ("sphere", 2), ("sphere", 4), ("hyperbolic", 2), ("hyperbolic", 3), ("spd", 2, "affine"), ("spd", 3, "affine"),
]


def ball_points(manifold, n, radius, rng, on_boundary=False):
    """``n`` points of ``B(default_center, radius)``: uniform directions, radii uniform^(1/d) or = radius."""
    center = manifold.default_center()
    directions = manifold.random_unit_tangent(center, n, rng)
    radii = np.full(n, radius) if on_boundary else radius * rng.uniform(size=n) ** (1.0 / manifold.dim)
    return manifold.exp(center, radii.reshape((n,) + (1,) * len(manifold.point_shape)) * directions)


def riemannian_gradient(manifold, point, points, p=2.0, weights=None):
    r""":math:`-\sum_i w_i d_i^{p-2}\mathrm{Log}_y x_i` (independent of the module's internals)."""
    n = len(points)
    weights = np.full(n, 1.0 / n) if weights is None else np.asarray(weights) / np.sum(weights)
    logs = manifold.log(np.broadcast_to(point, points.shape), points)
    dists = manifold.dist(np.broadcast_to(point, points.shape), points)
    coef = np.where(dists > 0, weights * np.where(dists > 0, dists, 1.0) ** (p - 2.0), 0.0)
    return -np.tensordot(coef, logs, axes=(0, 0))


# ------------------------------------------------------------------ Fréchet mean
def test_euclidean_mean_is_the_arithmetic_mean():
    manifold = get_manifold("euclidean", 3)
    rng = np.random.default_rng(0)
    points = rng.normal(size=(17, 3))
    np.testing.assert_allclose(frechet_mean(manifold, points), points.mean(axis=0), rtol=0, atol=1e-15)
    weights = rng.uniform(size=17)
    np.testing.assert_allclose(
        frechet_mean(manifold, points, weights=weights), np.average(points, axis=0, weights=weights), atol=1e-15
    )


@pytest.mark.parametrize("dim", [2, 3])
def test_sphere_symmetric_configuration_gives_the_north_pole(dim):
    """A ring at colatitude 0.6 (plus its mirror image) is symmetric about the pole; started off-pole."""
    manifold = get_manifold("sphere", dim)
    north = manifold.default_center()
    frame = manifold.tangent_frame(north)
    angles = np.linspace(0.0, 2.0 * np.pi, 7, endpoint=False)
    directions = np.cos(angles)[:, None] * frame[0] + np.sin(angles)[:, None] * frame[1]
    points = manifold.exp(north, 0.6 * directions)
    start = points[0]
    mean = frechet_mean(manifold, points, init=start)
    assert manifold.dist(mean, north) < 1e-9
    for p in (1.0, 1.5, 3.0):
        assert manifold.dist(p_mean(manifold, points, p, init=start), north) < 1e-8


@pytest.mark.parametrize("args", CURVED)
def test_gradient_vanishes_at_the_frechet_mean(args):
    manifold = get_manifold(*args)
    rng = np.random.default_rng(1)
    radius = 0.7 if args[0] == "sphere" else 1.5
    points = ball_points(manifold, 40, radius, rng)
    weights = rng.uniform(0.1, 1.0, size=40)
    for w in (None, weights):
        mean = frechet_mean(manifold, points, weights=w)
        grad = riemannian_gradient(manifold, mean, points, weights=w)
        assert manifold.norm(mean, grad) < 1e-9


def test_spd_log_euclidean_mean_is_expm_of_mean_logm():
    manifold = get_manifold("spd", 3, "log_euclidean")
    rng = np.random.default_rng(2)
    points = ball_points(manifold, 12, 2.0, rng)
    expected = expm(np.mean([logm(p).real for p in points], axis=0))
    np.testing.assert_allclose(frechet_mean(manifold, points), expected, rtol=1e-12, atol=1e-12)


def test_spd_log_cholesky_mean_is_the_chart_mean():
    """Lin (2019): strictly-lower part and log-diagonal of the Cholesky factor are averaged."""
    manifold = get_manifold("spd", 2, "log_cholesky")
    rng = np.random.default_rng(3)
    points = ball_points(manifold, 9, 1.5, rng)
    chol = np.linalg.cholesky(points)
    mean_chol = np.tril(chol.mean(axis=0), -1) + np.diag(np.exp(np.log(np.diagonal(chol, axis1=1, axis2=2)).mean(0)))
    np.testing.assert_allclose(frechet_mean(manifold, points), mean_chol @ mean_chol.T, rtol=1e-12)


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2), ("spd", 2, "affine")])
def test_matches_geomstats_frechet_mean(args):
    from geomstats.geometry.hyperboloid import Hyperboloid
    from geomstats.geometry.hypersphere import Hypersphere
    from geomstats.geometry.spd_matrices import SPDAffineMetric, SPDMatrices
    from geomstats.learning.frechet_mean import FrechetMean

    space = {
        "sphere": lambda: Hypersphere(2),
        "hyperbolic": lambda: Hyperboloid(2),
        "spd": lambda: SPDMatrices(2, equip=False).equip_with_metric(SPDAffineMetric),
    }[args[0]]()
    manifold = get_manifold(*args)
    points = ball_points(manifold, 15, 0.7, np.random.default_rng(4))
    estimator = FrechetMean(space).set(max_iter=300, epsilon=1e-20)
    reference = estimator.fit(points).estimate_
    assert manifold.dist(frechet_mean(manifold, points), reference) < 1e-6


def test_single_point_and_duplicates():
    manifold = get_manifold("hyperbolic", 2)
    points = ball_points(manifold, 5, 1.0, np.random.default_rng(5))
    np.testing.assert_array_equal(frechet_mean(manifold, points[:1]), points[0])
    identical = np.repeat(points[:1], 4, axis=0)
    for p in (1.0, 1.5, 2.0, 3.0):
        assert manifold.dist(p_mean(manifold, identical, p), points[0]) < 1e-12
    # duplicating a record = doubling its weight
    doubled = np.concatenate([points, points[:1]])
    weights = np.array([2.0, 1.0, 1.0, 1.0, 1.0])
    for p in (2.0, 1.5):
        a = p_mean(manifold, doubled, p)
        b = p_mean(manifold, points, p, weights=weights)
        assert manifold.dist(a, b) < 1e-9


def test_convergence_error_when_max_iter_is_tiny():
    manifold = get_manifold("sphere", 2)
    points = ball_points(manifold, 30, 0.7, np.random.default_rng(6))
    with pytest.raises(ConvergenceError, match=r"gradient norm .* max_iter = 1\b"):
        frechet_mean(manifold, points, max_iter=1, init=points[0])
    with pytest.raises(ConvergenceError, match="max_iter = 2"):
        p_mean(manifold, points, 1.5, max_iter=2, init=points[0])


def test_off_manifold_and_bad_arguments_raise():
    sphere = get_manifold("sphere", 2)
    good = ball_points(sphere, 4, 0.5, np.random.default_rng(7))
    off = good.copy()
    off[2] *= 1.01
    with pytest.raises(OffManifoldError, match="points"):
        frechet_mean(sphere, off)
    spd = get_manifold("spd", 2, "affine")
    with pytest.raises(OffManifoldError):
        frechet_mean(spd, np.array([np.eye(2), [[1.0, 2.0], [2.0, 1.0]]]))  # indefinite
    with pytest.raises(OffManifoldError, match="init"):
        frechet_mean(sphere, good, init=np.array([0.0, 0.0, 2.0]))
    cases = [
        (lambda: frechet_mean(sphere, good[0]), "points"),  # a single point, not a stack
        (lambda: frechet_mean(sphere, good[:0]), "points"),
        (lambda: frechet_mean(sphere, np.where(np.eye(4, 3, dtype=bool), np.nan, good)), "points"),
        (lambda: frechet_mean(sphere, good, weights=[1.0, -1.0, 1.0, 1.0]), "weights"),
        (lambda: frechet_mean(sphere, good, weights=[1.0, 1.0]), "weights"),
        (lambda: frechet_mean(sphere, good, weights=np.zeros(4)), "weights"),
        (lambda: frechet_mean(sphere, good, max_iter=0), "max_iter"),
        (lambda: frechet_mean(sphere, good, tol=0.0), "tol"),
        (lambda: frechet_mean("sphere", good), "manifold"),
        (lambda: p_mean(sphere, good, 0.5), "p"),
        (lambda: p_mean(sphere, good, True), "p"),
        (lambda: p_mean(sphere, good, np.nan), "p"),
    ]
    for call, param in cases:
        with pytest.raises(InvalidParameterError) as info:
            call()
        assert info.value.param == param and param in str(info.value)


# ----------------------------------------------------------------------- p-means
def test_p_two_is_exactly_the_frechet_mean():
    for args in [("sphere", 2), ("hyperbolic", 3), ("spd", 2, "affine"), ("euclidean", 2)]:
        manifold = get_manifold(*args)
        points = ball_points(manifold, 10, 0.6, np.random.default_rng(8))
        np.testing.assert_array_equal(p_mean(manifold, points, 2), frechet_mean(manifold, points))


def test_geometric_median_closed_forms():
    line = get_manifold("euclidean", 1)
    data = np.array([[-3.0], [0.2], [0.5], [7.0], [40.0]])
    np.testing.assert_allclose(p_mean(line, data, 1), [0.5], atol=1e-12)  # the median (a data point)
    plane = get_manifold("euclidean", 2)
    # obtuse triangle (angle >= 120 degrees at the origin): the Fermat point is that vertex
    obtuse = np.array([[0.0, 0.0], [10.0, 0.0], [-6.0, 1.0]])
    np.testing.assert_allclose(p_mean(plane, obtuse, 1), [0.0, 0.0], atol=1e-12)
    # acute triangle: unit vectors towards the vertices sum to zero (120 degrees apart)
    acute = np.array([[0.0, 0.0], [4.0, 0.0], [1.0, 3.0]])
    fermat = p_mean(plane, acute, 1)
    units = (acute - fermat) / np.linalg.norm(acute - fermat, axis=1, keepdims=True)
    assert np.linalg.norm(units.sum(axis=0)) < 1e-9


@pytest.mark.parametrize("p", [1.2, 1.5, 3.0, 5.0])
def test_euclidean_p_mean_against_scipy(p):
    manifold = get_manifold("euclidean", 2)
    points = np.random.default_rng(9).normal(size=(25, 2))
    objective = lambda y: np.sum(np.linalg.norm(points - y, axis=1) ** p) / p
    reference = minimize(objective, points.mean(0), method="Nelder-Mead", options=dict(xatol=1e-12, fatol=1e-15)).x
    ours = p_mean(manifold, points, p)
    assert objective(ours) <= objective(reference) + 1e-12
    np.testing.assert_allclose(ours, reference, atol=1e-6)


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2), ("spd", 2, "affine")])
@pytest.mark.parametrize("p", [1.0, 1.05, 1.5, 3.0])
def test_p_mean_is_stationary(args, p):
    manifold = get_manifold(*args)
    points = ball_points(manifold, 30, 0.7, np.random.default_rng(10))
    mean = p_mean(manifold, points, p)
    dists = manifold.dist(np.broadcast_to(mean, points.shape), points)
    if p == 1.0 and dists.min() < 1e-12:  # optimal data point: subgradient condition
        rest = dists > 1e-12
        grad = riemannian_gradient(manifold, mean, points[rest], p) * rest.sum() / len(points)
        assert manifold.norm(mean, grad) <= (~rest).sum() / len(points) + 1e-9
    else:
        assert manifold.norm(mean, riemannian_gradient(manifold, mean, points, p)) < 1e-8


def test_p_close_to_one_with_minimiser_pinned_to_a_data_point():
    """p = 1.05, two records on a geodesic (weights 1 and a): the minimiser is at distance
    t = L a^20 / (1 + a^20) ~ 8.8e-9 from the first one (from t^(p-1) = a (L - t)^(p-1)),
    far below the steps plain Weiszfeld resolves."""
    manifold = get_manifold("sphere", 2)
    north = manifold.default_center()
    frame = manifold.tangent_frame(north)
    length, a = 0.3, 0.42
    points = manifold.exp(north, np.array([0.0 * frame[0], length * frame[0]]))
    mean = p_mean(manifold, points, 1.05, weights=[1.0, a])
    expected = length * a**20 / (1 + a**20)
    assert manifold.dist(mean, north) == pytest.approx(expected, rel=1e-6)
    assert manifold.dist(mean, north) + manifold.dist(mean, points[1]) == pytest.approx(length, abs=1e-14)
    # a 2-D configuration: no nearby point has a smaller objective
    offsets = np.array([0 * frame[0], 0.3 * frame[0], -0.25 * frame[0], 0.2 * frame[1], -0.3 * frame[1]])
    points = manifold.exp(north, offsets)
    mean = p_mean(manifold, points, 1.05)
    objective = lambda y: np.sum(manifold.dist(np.broadcast_to(y, points.shape), points) ** 1.05)
    for step in (1e-4, 1e-7):
        shifts = manifold.exp(mean, step * manifold.random_unit_tangent(mean, 50, np.random.default_rng(11)))
        assert all(objective(mean) <= objective(s) for s in shifts)


# ------------------------------------------------------------------ sensitivities
def _h(radius, kappa):
    if kappa <= 0:
        return mpmath.mpf(1)
    x = 2 * mpmath.mpf(radius) * mpmath.sqrt(kappa)
    return x * mpmath.cot(x)


@pytest.mark.parametrize("n, radius, kappa", [(20, 0.5, 1.0), (7, 0.1, 1.0), (100, 0.78, 1.0), (5, 0.2, 9.0)])
def test_frechet_sensitivity_positive_curvature_closed_form(n, radius, kappa):
    """Power against cot/tan swaps, a missing factor 2 in h, or h used without sqrt(kappa)."""
    h = _h(radius, kappa)
    expected = 2 * mpmath.mpf(radius) * (2 - h) / (n * h)
    assert frechet_mean_sensitivity(n, radius, kappa) == pytest.approx(float(expected), rel=1e-12)


def test_frechet_sensitivity_hadamard_and_scaling():
    for kappa in (0.0, -1.0, -0.5):
        assert frechet_mean_sensitivity(10, 3.0, kappa) == pytest.approx(0.6, rel=1e-15)
    assert frechet_mean_sensitivity(20, 0.5, 1.0) == pytest.approx(0.10574077, rel=1e-7)
    # curvature kappa, radius r  ==  unit curvature, radius r sqrt(kappa), lengths divided by sqrt(kappa)
    assert frechet_mean_sensitivity(9, 0.2, 4.0) == pytest.approx(frechet_mean_sensitivity(9, 0.4, 1.0) / 2, rel=1e-13)
    # kappa -> 0+ tends to the flat value
    assert frechet_mean_sensitivity(10, 1.0, 1e-12) == pytest.approx(0.2, rel=1e-9)


@pytest.mark.parametrize("kappa", [-1.0, 0.0, 0.5, 1.0])
@pytest.mark.parametrize("radius", [0.05, 0.3, 0.7])
def test_p_mean_sensitivity_reduces_to_reimherr_at_p_two(kappa, radius):
    expected = frechet_mean_sensitivity(15, radius, kappa)
    assert p_mean_sensitivity(15, radius, 2, kappa) == pytest.approx(expected, rel=1e-13)


def test_p_mean_sensitivity_closed_forms():
    n, r = 12, 0.4
    # Thm 13, flat: (2r)^(p-1) / (n (4r)^(p-2) (p-1)) = 2^(3-p) r / (n (p-1))
    for p in (1.1, 1.5, 1.9):
        assert p_mean_sensitivity(n, r, p, 0.0) == pytest.approx(2 ** (3 - p) * r / (n * (p - 1)), rel=1e-13)
    # Thm 13, sphere, p = 1.5: min{p-1, b} = 0.5 < b
    b = _h(r, 1.0)
    expected = (2 * mpmath.mpf(r) * (2 - b)) ** 0.5 / (n * (4 * mpmath.mpf(r)) ** -0.5 * min(mpmath.mpf(0.5), b))
    assert p_mean_sensitivity(n, r, 1.5, 1.0) == pytest.approx(float(expected), rel=1e-12)
    # Thm 15, p = 3: lambda_3 = (8/8)/3, Delta = sqrt(2 (4r) 2r 3 / n) = r sqrt(48/n)
    assert p_mean_sensitivity(n, r, 3, -1.0) == pytest.approx(r * np.sqrt(48.0 / n), rel=1e-13)
    # Thm 16, p = 3: (2^2 3 2 (4r) (2-b) 2r / (n b))^(1/2)
    expected = mpmath.sqrt(4 * 3 * 2 * 4 * mpmath.mpf(r) * (2 - b) * 2 * mpmath.mpf(r) / (n * b))
    assert p_mean_sensitivity(n, r, 3, 1.0) == pytest.approx(float(expected), rel=1e-12)
    # Thm 15 is continuous at p = 2 (lambda_2 = 1): 2r/n
    assert p_mean_sensitivity(n, r, 2 + 1e-9, 0.0) == pytest.approx(2 * r / n, rel=1e-6)
    # log-space evaluation: no overflow for large p
    assert np.isfinite(p_mean_sensitivity(n, r, 400.0, 1.0)) and np.isfinite(p_mean_sensitivity(n, r, 400.0, -1.0))


@pytest.mark.parametrize("kappa, r_max", [(1.0, 0.785), (-1.0, 5.0), (0.0, 5.0)])
@pytest.mark.parametrize("p", [1.3, 2.0, 3.0])
def test_sensitivities_monotone(kappa, r_max, p):
    radii = np.linspace(0.01, r_max, 60)
    values = np.array([p_mean_sensitivity(10, r, p, kappa) for r in radii])
    assert np.all(np.diff(values) > 0)
    by_n = np.array([p_mean_sensitivity(n, 0.5, p, kappa) for n in (2, 3, 10, 100, 10_000)])
    assert np.all(np.diff(by_n) < 0)


def test_sensitivity_invalid_arguments_name_the_parameter():
    limit = np.pi / 4
    with pytest.raises(InvalidParameterError, match=r"radius .*0\.785398.*got 0\.7853981") as info:
        frechet_mean_sensitivity(10, limit, 1.0)
    assert info.value.param == "radius"
    with pytest.raises(InvalidParameterError, match=r"radius .*0\.392699.*curvature_upper = 4\.0"):
        p_mean_sensitivity(10, 0.4, 1.5, 4.0)
    cases = [
        (lambda: frechet_mean_sensitivity(1, 0.5, 0.0), "n"),
        (lambda: frechet_mean_sensitivity(2.5, 0.5, 0.0), "n"),
        (lambda: frechet_mean_sensitivity(True, 0.5, 0.0), "n"),
        (lambda: frechet_mean_sensitivity(10, 0.0, 0.0), "radius"),
        (lambda: frechet_mean_sensitivity(10, -1.0, 1.0), "radius"),
        (lambda: frechet_mean_sensitivity(10, np.inf, -1.0), "radius"),
        (lambda: frechet_mean_sensitivity(10, 0.9, 1.0), "radius"),
        (lambda: frechet_mean_sensitivity(10, 0.5, np.nan), "curvature_upper"),
        (lambda: p_mean_sensitivity(10, 0.5, 1.0, 0.0), "p"),
        (lambda: p_mean_sensitivity(10, 0.5, np.inf, 0.0), "p"),
        (lambda: p_mean_sensitivity(1, 0.5, 1.5, 0.0), "n"),
    ]
    for call, param in cases:
        with pytest.raises(InvalidParameterError) as info:
            call()
        assert info.value.param == param and param in str(info.value)


def test_validate_public_ball():
    sphere = get_manifold("sphere", 2)
    center, radius = validate_public_ball(sphere, sphere.default_center(), 0.5)
    assert radius == 0.5 and center.shape == (3,)
    with pytest.raises(InvalidParameterError, match="radius"):
        validate_public_ball(sphere, sphere.default_center(), np.pi / 4)
    with pytest.raises(OffManifoldError, match="center"):
        validate_public_ball(sphere, [0.0, 0.0, 1.5], 0.5)
    hyperbolic = get_manifold("hyperbolic", 2)
    assert validate_public_ball(hyperbolic, hyperbolic.default_center(), 50.0)[1] == 50.0


# ---------------------------------------------------------- empirical sensitivity
def test_empirical_sensitivity_is_tight_in_euclidean_space():
    """Data on the boundary circle: moving a record to the antipode attains 2r/n exactly (ratio 1)."""
    manifold = get_manifold("euclidean", 2)
    points = ball_points(manifold, 20, 1.0, np.random.default_rng(12), on_boundary=True)
    result = empirical_sensitivity(manifold, lambda x: frechet_mean(manifold, x), points, np.zeros(2), 1.0, 50, 0)
    assert isinstance(result, EmpiricalSensitivity)
    assert result.max_change == pytest.approx(frechet_mean_sensitivity(20, 1.0, 0.0), rel=1e-12)


# Observed theoretical / empirical ratios (seeded): S^2 r=0.5 ~2.0, H^2 r=1 ~1.15, SPD(2) r=1 ~1.1.
@pytest.mark.parametrize(
    "args, radius, max_ratio",
    [(("sphere", 2), 0.5, 4.0), (("hyperbolic", 2), 1.0, 2.0), (("spd", 2, "affine"), 1.0, 2.0)],
)
def test_frechet_bound_dominates_empirical_sensitivity(args, radius, max_ratio):
    """Power against a bound that is too small (e.g. r/n instead of 2r/n, or h without the (2 - h) factor)."""
    manifold = get_manifold(*args)
    rng = np.random.default_rng(13)
    points = np.concatenate([ball_points(manifold, 10, radius, rng, True), ball_points(manifold, 10, radius, rng)])
    center = manifold.default_center()
    result = empirical_sensitivity(manifold, lambda x: frechet_mean(manifold, x), points, center, radius, 200, rng)
    ratio = frechet_mean_sensitivity(20, radius, manifold.curvature_bounds[1]) / result.max_change
    assert 1.0 <= ratio < max_ratio
    assert result.changes.shape == (200,) and result.max_change == result.changes.max()
    centers = np.broadcast_to(center, result.replacements.shape)
    assert np.all(manifold.dist(centers, result.replacements) <= radius * (1 + 1e-9))
    assert result.indices.min() >= 0 and result.indices.max() < 20


@pytest.mark.parametrize("args, radius", [(("sphere", 2), 0.5), (("hyperbolic", 2), 1.0)])
@pytest.mark.parametrize("p", [1.5, 3.0])
def test_p_mean_bounds_dominate_empirical_sensitivity(args, radius, p):
    manifold = get_manifold(*args)
    rng = np.random.default_rng(14)
    points = ball_points(manifold, 20, radius, rng, on_boundary=True)
    center = manifold.default_center()
    result = empirical_sensitivity(manifold, lambda x: p_mean(manifold, x, p), points, center, radius, 40, rng)
    assert p_mean_sensitivity(20, radius, p, manifold.curvature_bounds[1]) >= result.max_change


def test_empirical_sensitivity_validation():
    manifold = get_manifold("hyperbolic", 2)
    center = manifold.default_center()
    points = ball_points(manifold, 5, 1.0, np.random.default_rng(15))
    summary = lambda x: frechet_mean(manifold, x)
    with pytest.raises(OutsideBallError, match="points"):
        empirical_sensitivity(manifold, summary, points, center, 0.5 * manifold.dist(center, points).max(), 10, 0)
    with pytest.raises(InvalidParameterError, match="summary"):
        empirical_sensitivity(manifold, "mean", points, center, 1.0, 10, 0)
    with pytest.raises(InvalidParameterError, match="n_pairs"):
        empirical_sensitivity(manifold, summary, points, center, 1.0, 0, 0)
    with pytest.raises(InvalidParameterError, match="points"):
        empirical_sensitivity(manifold, summary, points[:1], center, 1.0, 10, 0)
    with pytest.raises(InvalidParameterError, match="rng"):
        empirical_sensitivity(manifold, summary, points, center, 1.0, 10, None)
