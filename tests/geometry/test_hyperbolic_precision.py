"""Accuracy of the hyperboloid's distance, logarithm and exponential against mpmath (60 digits).

The reference is computed from the SAME double-precision inputs (spatial coordinates, ``x0`` recomputed at 60
digits), so the test measures the error of the formulas, not the rounding of the points. Absolute tolerance
``ACCURACY_TOLERANCE = 1e-6`` within the radii the module states (``ACCURATE_RADIUS``, ``EXP_LOG_ACCURATE_RADIUS``).
"""

import mpmath as mp
import numpy as np
import pytest

from geodp_core.geometry import get_manifold
from geodp_core.geometry.hyperbolic import ACCURACY_TOLERANCE, ACCURATE_RADIUS, EXP_LOG_ACCURATE_RADIUS
from geodp_core.mechanisms.base import representable_radius

mp.mp.dps = 60
DIMS = (2, 5)


def _mp_point(x):
    spatial = [mp.mpf(float(v)) for v in x[1:]]
    return [mp.sqrt(1 + sum(v * v for v in spatial))] + spatial


def _mp_inner(a, b):
    return -a[0] * b[0] + sum(u * v for u, v in zip(a[1:], b[1:]))


def _mp_dist(a, b):
    c = -_mp_inner(_mp_point(a), _mp_point(b))
    return mp.acosh(c) if c > 1 else mp.mpf(0)


def _mp_log(a, b):
    pa, pb = _mp_point(a), _mp_point(b)
    c = -_mp_inner(pa, pb)
    d = mp.acosh(c)
    return np.array([float((y - c * x) * d / mp.sinh(d)) for x, y in zip(pa, pb)])


def _mp_exp(a, v):
    pa = _mp_point(a)
    vec = [mp.mpf(float(x)) for x in v]
    vec[0] = sum(u * w for u, w in zip(pa[1:], vec[1:])) / pa[0]  # the tangent vector with this spatial part
    n = mp.sqrt(_mp_inner(vec, vec))
    return np.array([float(mp.cosh(n) * x + mp.sinh(n) / n * w) for x, w in zip(pa, vec)])


def _to_double(spatial):
    spatial = np.array([float(v) for v in spatial])
    return np.concatenate([[np.sqrt(1.0 + spatial @ spatial)], spatial])


def _point_at(rho, direction):
    return _to_double([mp.sinh(rho) * mp.mpf(float(c)) for c in direction])


def _random_point(dim, rho, rng):
    u = rng.standard_normal(dim)
    return _point_at(rho, u / np.linalg.norm(u))


def _point_near(a, delta, rng):
    """The point at distance ``delta`` from ``a`` in a random direction (exact geodesic at 60 digits, then rounded)."""
    pa = _mp_point(a)
    c = rng.standard_normal(len(a) - 1)
    c = [mp.mpf(float(x)) for x in c / np.linalg.norm(c)]
    p0, ps = pa[0], pa[1:]
    dot = sum(p * x for p, x in zip(ps, c))
    v = [dot] + [x + p * dot / (1 + p0) for p, x in zip(ps, c)]  # unit tangent vector (Lorentz boost frame)
    d = mp.mpf(delta)
    return _to_double([mp.cosh(d) * x + mp.sinh(d) * w for x, w in zip(pa[1:], v[1:])])


@pytest.mark.parametrize("dim", DIMS)
def test_distance_is_accurate_up_to_the_stated_radius(dim):
    manifold = get_manifold("hyperbolic", dim)
    rng = np.random.default_rng(20)
    worst = {}
    for radius in (0.0, 1.0, 5.0, 10.0, 15.0, 18.0, 20.0, ACCURATE_RADIUS):
        errors = []
        for _ in range(12):
            a = _random_point(dim, radius * rng.uniform(0.9, 1.0), rng)
            partners = [_point_near(a, delta, rng) for delta in (1e-3, 0.1, 1.0, 10.0)]
            partners.append(_random_point(dim, radius * rng.uniform(0.0, 1.0), rng))
            for b in partners:
                if np.linalg.norm(b[1:]) > np.sinh(ACCURATE_RADIUS):
                    continue
                errors.append(abs(float(manifold.dist(a, b)) - float(_mp_dist(a, b))))
        worst[radius] = max(errors)
    assert max(worst.values()) <= ACCURACY_TOLERANCE, worst


def test_distance_of_the_reported_pair_at_radius_15():
    """Two points 15 from the origin, 0.1 apart: 0.100785 before the cancellation-free form; 0 from 18 on."""
    manifold = get_manifold("hyperbolic", 2)
    for rho in (15.0, 18.0, 20.0):
        a = _point_at(rho, (1.0, 0.0))
        b = _point_at(rho, (np.cos(0.1 / np.sinh(rho)), np.sin(0.1 / np.sinh(rho))))
        assert float(manifold.dist(a, b)) == pytest.approx(float(_mp_dist(a, b)), abs=ACCURACY_TOLERANCE)
        assert float(_mp_dist(a, b)) == pytest.approx(0.1, abs=1e-3)  # ~0.1 apart (rounded directions)


@pytest.mark.parametrize("dim", DIMS)
def test_log_and_short_exp_are_accurate_up_to_the_stated_radius(dim):
    manifold = get_manifold("hyperbolic", dim)
    rng = np.random.default_rng(21)
    for radius in (1.0, 10.0, 16.0, ACCURATE_RADIUS):
        for _ in range(10):
            a = _random_point(dim, radius * rng.uniform(0.9, 1.0), rng)
            b = _random_point(dim, radius * rng.uniform(0.0, 1.0), rng)
            exact = _mp_log(a, b)
            error = np.linalg.norm(manifold.to_frame(a, exact - manifold.log(a, b)))
            assert error <= ACCURACY_TOLERANCE * max(1.0, float(manifold.norm(a, exact))), (radius, error)
            coords = rng.standard_normal(dim)
            step = manifold.from_frame(a, coords * rng.uniform(0.0, 1.0) / np.linalg.norm(coords))
            got = manifold.exp(a, step)
            assert float(_mp_dist(got, _mp_exp(a, step))) <= ACCURACY_TOLERANCE, radius


@pytest.mark.parametrize("dim", DIMS)
def test_exp_of_log_returns_the_point_up_to_the_stated_radius(dim):
    """Two points 8 from the origin on H²: Exp_a(Log_a b) landed 0.26 to 2.4 away from b before."""
    manifold = get_manifold("hyperbolic", dim)
    rng = np.random.default_rng(22)
    for radius in (1.0, 4.0, 6.0, EXP_LOG_ACCURATE_RADIUS):
        for _ in range(25):
            a = _random_point(dim, radius * rng.uniform(0.5, 1.0), rng)
            b = _random_point(dim, radius * rng.uniform(0.5, 1.0), rng)
            back = manifold.exp(a, manifold.log(a, b))
            assert float(_mp_dist(back, b)) <= ACCURACY_TOLERANCE, radius


def test_exp_of_log_at_radius_8_is_near_the_point():
    manifold = get_manifold("hyperbolic", 2)
    a, b = _point_at(8.0, (1.0, 0.0)), _point_at(8.0, (np.cos(2.5), np.sin(2.5)))
    assert float(_mp_dist(manifold.exp(a, manifold.log(a, b)), b)) <= 1e-5


def test_representable_radius_is_the_measured_accuracy_radius():
    assert representable_radius(get_manifold("hyperbolic", 3)) == ACCURATE_RADIUS
    assert get_manifold("hyperbolic", 2).accurate_radius == ACCURATE_RADIUS


@pytest.mark.parametrize("dim", DIMS)
def test_norm_and_inner_do_not_cancel_far_from_the_origin(dim):
    manifold = get_manifold("hyperbolic", dim)
    rng = np.random.default_rng(23)
    a = _random_point(dim, ACCURATE_RADIUS, rng)
    coords = rng.standard_normal(dim)
    v = manifold.from_frame(a, coords)
    assert float(manifold.norm(a, v)) == pytest.approx(float(np.linalg.norm(coords)), rel=1e-6)
    w = manifold.from_frame(a, coords[::-1])
    assert float(manifold.inner(a, v, w)) == pytest.approx(float(coords @ coords[::-1]), abs=1e-6)
