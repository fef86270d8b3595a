"""Tests of geodp_core.mechanisms.gaussian_gdp (exact GDP accounting of the Riemannian Gaussian).

References used here are independent of the module's formulas:
- Euclidean closed form (gdp_delta);
- S^1: adaptive 1-D quadrature of (p1 - e^eps p2)_+ with region ends found by root finding;
- S^2, H^2: nested adaptive scipy quadrature in geodesic polar coordinates of p1 - e^eps p2 over
  the exact region {L > eps} (boundary found by root finding, distances by the haversine
  law), i.e. without the reflection identity or the incomplete-beta reduction;
- S^3 with Delta = pi: the loss depends on r only, so delta is a 1-D radial integral;
- the paper's Algorithm 2 (Monte Carlo) with fixed seeds.
"""

import numpy as np
import pytest
from scipy import integrate, optimize

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.mechanisms.gaussian_gdp import (
    _hyperbolic_mu_limit,
    gdp_mu,
    gdp_mu_monte_carlo,
    privacy_profile,
    riemannian_gaussian_sigma_for_mu,
)
from geodp_core.privacy import gdp_delta

# --------------------------------------------------------------------------- references


def _circle_reference(sigma, delta, eps):
    """delta(eps) on S^1 by scipy.integrate.quad of (p1 - e^eps p2) over {L > eps}."""

    def dist2(t):  # geodesic distance from Delta on the circle, t in [-pi, pi]
        a = abs(t - delta)
        return min(a, 2.0 * np.pi - a)

    def loss(t):
        return (dist2(t) ** 2 - t**2) / (2.0 * sigma**2)

    # L is monotone on [-pi, Delta - pi] and on [Delta - pi, pi]: find {L = eps} on each arc.
    points = [-np.pi, delta - np.pi, np.pi]
    for a, b in [(-np.pi, delta - np.pi), (delta - np.pi, np.pi)]:
        if (loss(a) - eps) * (loss(b) - eps) < 0:
            points.append(optimize.brentq(lambda t: loss(t) - eps, a, b, xtol=1e-15))
    points = sorted(points)
    norm = integrate.quad(lambda t: np.exp(-(t**2) / (2 * sigma**2)), -np.pi, np.pi, epsabs=0, epsrel=1e-13)[0]
    total = 0.0
    for a, b in zip(points[:-1], points[1:]):
        if loss(0.5 * (a + b)) > eps:
            total += integrate.quad(
                lambda t: np.exp(-(t**2) / (2 * sigma**2)) - np.exp(eps - dist2(t) ** 2 / (2 * sigma**2)),
                a,
                b,
                epsabs=0,
                epsrel=1e-13,
            )[0]
    return total / norm


def _surface_reference(space, sigma, delta, eps):
    """delta(eps) on S^2 or H^2 by nested adaptive quadrature over the exact region {L > eps}."""
    s_fun = np.sin if space == "sphere" else np.sinh
    r_max = np.pi if space == "sphere" else sigma**2 + delta + 45.0 * sigma

    def dist2(r, theta):  # haversine form of the law of cosines, eta2 at theta = 0
        if space == "sphere":
            h = np.sin((r - delta) / 2) ** 2 + np.sin(r) * np.sin(delta) * np.sin(theta / 2) ** 2
            return 2.0 * np.arcsin(np.sqrt(min(h, 1.0)))
        h = np.sinh((r - delta) / 2) ** 2 + np.sinh(r) * np.sinh(delta) * np.sin(theta / 2) ** 2
        return 2.0 * np.arcsinh(np.sqrt(h))

    def loss(r, theta):
        return (dist2(r, theta) ** 2 - r**2) / (2.0 * sigma**2)

    def theta_start(r):  # L increases with theta; the region is (theta_start, pi]
        if loss(r, np.pi) <= eps:
            return None
        if loss(r, 0.0) >= eps:
            return 0.0
        return optimize.brentq(lambda t: loss(r, t) - eps, 0.0, np.pi, xtol=1e-15)

    def inner(r):
        start = theta_start(r)
        if start is None:
            return 0.0
        value = integrate.quad(
            lambda t: np.exp(-(r**2) / (2 * sigma**2)) - np.exp(eps - dist2(r, t) ** 2 / (2 * sigma**2)),
            start,
            np.pi,
            epsabs=0,
            epsrel=1e-12,
        )[0]
        return value * s_fun(r)

    # Radii where the region's theta-range starts or ends (kinks of inner): sign changes.
    grid = np.linspace(1e-9, r_max * (1 - 1e-12), 4001)
    kinks = []
    for theta in (0.0, np.pi):
        values = np.array([loss(r, theta) - eps for r in grid])
        for k in np.nonzero(np.diff(np.sign(values)))[0]:
            kinks.append(optimize.brentq(lambda r: loss(r, theta) - eps, grid[k], grid[k + 1], xtol=1e-15))
    edges = sorted({0.0, r_max, *kinks})
    total = sum(
        integrate.quad(inner, a, b, epsabs=0, epsrel=1e-11, limit=200)[0] for a, b in zip(edges[:-1], edges[1:])
    )
    norm = integrate.quad(
        lambda r: np.exp(-(r**2) / (2 * sigma**2)) * s_fun(r), 0.0, r_max, epsabs=0, epsrel=1e-13, limit=200
    )[0]
    # Angular measure: theta in [0, pi] covers half of the circle of directions (symmetry).
    return total / (np.pi * norm)


# --------------------------------------------------------------------------- exact cases


@pytest.mark.parametrize("dim", [1, 2, 7])
@pytest.mark.parametrize("sigma, delta", [(0.3, 0.1), (2.0, 5.0)])
def test_euclidean_is_exactly_delta_over_sigma(dim, sigma, delta):
    assert gdp_mu("euclidean", dim, sigma, delta) == delta / sigma
    assert gdp_mu("hyperbolic", 1, sigma, delta) == delta / sigma  # H^1 is the real line
    eps = np.array([0.0, 0.5, 3.0])
    np.testing.assert_allclose(privacy_profile("euclidean", dim, sigma, delta, eps), gdp_delta(delta / sigma, eps))


@pytest.mark.parametrize(
    "space, dim", [("sphere", 1), ("sphere", 2), ("hyperbolic", 2), ("sphere", 5), ("hyperbolic", 5)]
)
def test_euclidean_limit_small_sigma_and_delta(space, dim):
    mu = gdp_mu(space, dim, 1e-3, 1e-3)
    assert mu == pytest.approx(1.0, rel=1e-3)
    # Curvature correction has the expected sign (about -/+ (d-1) sigma^2 / 6 relative).
    if space == "sphere":
        assert mu <= 1.0 + 1e-9
    else:
        assert mu >= 1.0


def test_s2_reference_value_of_the_issue():
    # Paper's S^2 experiment: n = 10, r = pi/8 gives Delta = 0.12146; sigma = Delta.
    # Algorithm 2 reported 1.116 (a maximum of noisy estimates, biased upward).
    mu = gdp_mu("sphere", 2, 0.12146, 0.12146)
    assert mu == pytest.approx(0.9975397, abs=2e-6)
    assert mu < 1.116


# --------------------------------------------------------------------------- profiles vs references


@pytest.mark.parametrize(
    "sigma, delta, eps",
    [
        (0.4, 0.5, 0.0),
        (0.4, 0.5, 1.3),
        (2.0, 2.5, 0.05),
        (2.0, 2.5, 1.1),  # in (pi Delta/(2 sigma^2), L_max) = (0.98, 1.18): missed by the paper
        (1.0, np.pi, 2.0),
    ],
)
def test_circle_closed_form_vs_quadrature(sigma, delta, eps):
    expected = _circle_reference(sigma, delta, eps)
    assert expected > 0.0
    assert privacy_profile("sphere", 1, sigma, delta, eps) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_circle_profile_support_is_both_arcs():
    sigma, delta = 2.0, 2.5
    loss_max = delta * (2 * np.pi - delta) / (2 * sigma**2)
    paper_max = np.pi * delta / (2 * sigma**2)
    eps = np.array([0.5 * (paper_max + loss_max), loss_max * (1 - 1e-9), loss_max, 2 * loss_max])
    values = privacy_profile("sphere", 1, sigma, delta, eps)
    assert values[0] > 1e-3 and values[1] >= 0.0
    assert values[2] == 0.0 and values[3] == 0.0


@pytest.mark.parametrize(
    "space, sigma, delta, eps",
    [
        ("sphere", 0.5, 0.8, 0.0),
        ("sphere", 0.5, 0.8, 1.7),
        ("sphere", 1.5, 2.5, 0.6),
        ("hyperbolic", 0.5, 0.8, 0.0),
        ("hyperbolic", 0.5, 0.8, 1.7),
        ("hyperbolic", 1.2, 1.5, 3.0),
    ],
)
def test_surface_profile_vs_adaptive_quadrature(space, sigma, delta, eps):
    expected = _surface_reference(space, sigma, delta, eps)
    assert privacy_profile(space, 2, sigma, delta, eps) == pytest.approx(expected, rel=1e-9)


def test_antipodal_sphere_profile_is_radial_integral():
    # Delta = pi: d2 = pi - r, L = (pi^2 - 2 pi r)/(2 sigma^2) depends on r only (S^3, J = sin^2).
    sigma, eps = 0.9, np.array([0.0, 0.8, 2.5])

    def radial_mass(a, b):
        def density(r):
            return np.sin(r) ** 2 * np.exp(-(r**2) / (2 * sigma**2))

        return integrate.quad(density, a, b, epsabs=0, epsrel=1e-13)[0]

    norm = radial_mass(0.0, np.pi)
    expected = [
        (radial_mass(0.0, (np.pi**2 - 2 * sigma**2 * e) / (2 * np.pi))
         - np.exp(e) * radial_mass((np.pi**2 + 2 * sigma**2 * e) / (2 * np.pi), np.pi)) / norm
        for e in eps
    ]
    np.testing.assert_allclose(privacy_profile("sphere", 3, sigma, np.pi, eps), expected, rtol=1e-9)


def test_profile_is_a_valid_privacy_profile():
    eps = np.linspace(0.0, 6.0, 61)
    for space in ("sphere", "hyperbolic"):
        values = privacy_profile(space, 3, 0.6, 0.9, eps)
        assert values.shape == eps.shape
        assert np.all((values >= 0.0) & (values <= 1.0))
        assert np.all(np.diff(values) <= 0.0)  # delta(eps) is non-increasing
    assert isinstance(privacy_profile("sphere", 2, 0.6, 0.9, 0.5), float)
    assert privacy_profile("sphere", 2, 0.6, 0.9, np.zeros((2, 3))).shape == (2, 3)


# --------------------------------------------------------------------------- Monte Carlo cross-check


@pytest.mark.parametrize("space", ["sphere", "hyperbolic"])
def test_monte_carlo_algorithm_2_agrees_with_quadrature(space):
    # Type-I error: at most 25 comparisons, each two-sided at z = 5.5 (p = 3.8e-8), Bonferroni
    # total < 1e-6 (normal approximation valid: only eps where both tail counts are >= 100).
    # Power: the Euclidean profile (the "curvature ignored" bug) is rejected by > 10 SE.
    sigma, delta, n = 1.0, 1.0, 200_000
    result = gdp_mu_monte_carlo(space, 2, sigma, delta, n, np.random.default_rng(20240), n_eps=25)
    valid = (result.tail_fraction_eta1 * n >= 100) & (result.tail_fraction_eta2 * n >= 100)
    assert valid.sum() >= 10
    eps, estimate, std_error = result.eps[valid], result.delta[valid], result.delta_std_error[valid]
    exact = privacy_profile(space, 2, sigma, delta, eps)
    assert np.max(np.abs(estimate - exact) / std_error) < 5.5
    flat = privacy_profile("euclidean", 2, sigma, delta, eps)
    assert np.max(np.abs(estimate - flat) / std_error) > 10.0
    # Algorithm 2's mu is a maximum of noisy estimates: close to, and typically above, the exact one.
    exact_mu = gdp_mu(space, 2, sigma, delta)
    assert 0.97 * exact_mu <= result.mu <= 1.25 * exact_mu


def test_monte_carlo_on_the_real_line_matches_the_gaussian_profile():
    """The GDP paper's Figure 1 (panels on R): Algorithm 2 against the exact profile of N(0, σ²) vs N(Δ, σ²)."""
    sigma, delta, n = 1.0, 1.0, 200_000
    result = gdp_mu_monte_carlo("euclidean", 1, sigma, delta, n, np.random.default_rng(7), n_eps=25)
    valid = (result.tail_fraction_eta1 * n >= 100) & (result.tail_fraction_eta2 * n >= 100)
    assert valid.sum() >= 10
    exact = privacy_profile("euclidean", 1, sigma, delta, result.eps[valid])
    assert np.max(np.abs(result.delta[valid] - exact) / result.delta_std_error[valid]) < 5.5
    assert 0.97 <= result.mu <= 1.25  # exact mu = Δ/σ = 1; the maximum of noisy estimates sits above it


# --------------------------------------------------------------------------- monotonicity, limits


@pytest.mark.parametrize("dim", [1, 2])
def test_sphere_mu_decreases_in_sigma_to_zero(dim):
    sigmas = np.array([0.05, 0.2, 0.8, 3.0, 30.0])
    mus = np.array([gdp_mu("sphere", dim, s, 0.7) for s in sigmas])
    assert np.all(np.diff(mus) < 0.0)
    assert np.all(mus <= 0.7 / sigmas * (1 + 1e-9))  # never worse than Euclidean
    assert mus[-1] < 0.1 * 0.7 / sigmas[-1]  # ~ 1/sigma^2: tends to the uniform law


def test_hyperbolic_mu_decreases_to_positive_limit():
    delta = 0.5
    sigmas = np.array([0.1, 0.4, 1.0, 2.0])
    mus = np.array([gdp_mu("hyperbolic", 2, s, delta) for s in sigmas])
    assert np.all(np.diff(mus) < 0.0)
    assert np.all(mus >= delta / sigmas)  # never better than Euclidean
    limit = _hyperbolic_mu_limit(2, delta)
    assert limit == pytest.approx(0.397451, abs=1e-6)
    assert mus[-1] > limit
    assert gdp_mu("hyperbolic", 2, 20.0, delta) == pytest.approx(limit, rel=1e-9)


@pytest.mark.parametrize("space, dim", [("sphere", 1), ("sphere", 3), ("hyperbolic", 2)])
def test_mu_increases_with_sensitivity(space, dim):
    mus = [gdp_mu(space, dim, 0.7, d) for d in (0.1, 0.6, 1.5, 3.0)]
    assert np.all(np.diff(mus) > 0.0)


# --------------------------------------------------------------------------- calibration


@pytest.mark.parametrize(
    "space, dim, mu, delta",
    [("sphere", 2, 1.0, 0.3), ("hyperbolic", 2, 1.0, 0.3), ("sphere", 1, 0.5, 0.3), ("euclidean", 4, 0.7, 0.3)],
)
def test_calibration_round_trip(space, dim, mu, delta):
    sigma = riemannian_gaussian_sigma_for_mu(space, dim, mu, delta)
    achieved = gdp_mu(space, dim, sigma, delta)
    assert achieved <= mu
    assert achieved == pytest.approx(mu, rel=1e-3)


def test_calibration_below_hyperbolic_limit_is_unavailable():
    limit = _hyperbolic_mu_limit(2, 0.3)
    with pytest.raises(UnavailableError, match="mu must be greater than") as info:
        riemannian_gaussian_sigma_for_mu("hyperbolic", 2, 0.9 * limit, 0.3)
    assert info.value.param == "mu"
    assert f"{limit:.6g}" in str(info.value)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"space": "torus"}, "space"),
        ({"space": 3}, "space"),
        ({"dim": 0}, "dim"),
        ({"dim": 2.5}, "dim"),
        ({"dim": True}, "dim"),
        ({"sigma": 0.0}, "sigma"),
        ({"sigma": -1.0}, "sigma"),
        ({"sigma": float("nan")}, "sigma"),
        ({"sigma": float("inf")}, "sigma"),
        ({"sensitivity": 0.0}, "sensitivity"),
        ({"sensitivity": 3.5}, "sensitivity"),  # > pi on the sphere
        ({"sensitivity": float("nan")}, "sensitivity"),
        ({"sensitivity": False}, "sensitivity"),
    ],
)
def test_gdp_mu_validation_names_the_parameter(kwargs, param):
    args = {"space": "sphere", "dim": 2, "sigma": 0.5, "sensitivity": 0.3, **kwargs}
    with pytest.raises(InvalidParameterError, match=param) as info:
        gdp_mu(**args)
    assert info.value.param == param
    assert isinstance(info.value, ValueError)


def test_hyperbolic_sensitivity_above_pi_is_allowed():
    assert gdp_mu("hyperbolic", 2, 1.5, 3.5) > 3.5 / 1.5


@pytest.mark.parametrize("eps, text", [(-0.1, "eps"), ([0.0, float("nan")], "eps"), (["a"], "eps")])
def test_privacy_profile_validation(eps, text):
    with pytest.raises(InvalidParameterError, match=text):
        privacy_profile("sphere", 2, 0.5, 0.3, eps)


@pytest.mark.parametrize("mu", [0.0, -1.0, float("nan"), None])
def test_calibration_validation(mu):
    with pytest.raises(InvalidParameterError, match="mu"):
        riemannian_gaussian_sigma_for_mu("sphere", 2, mu, 0.3)


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"n_samples": 10}, "n_samples"),
        ({"rng": None}, "rng"),
        ({"rng": -3}, "rng"),
        ({"n_eps": 0}, "n_eps"),
        ({"eps_max": -1.0}, "eps_max"),
    ],
)
def test_monte_carlo_validation(kwargs, param):
    args = {"space": "sphere", "dim": 2, "sigma": 0.5, "sensitivity": 0.3, "n_samples": 1000, "rng": 0, **kwargs}
    with pytest.raises(InvalidParameterError, match=param):
        gdp_mu_monte_carlo(**args)


# --------------------------------------------------------------------------- spaces given as objects


def _radius_sphere_reference(radius, sigma, delta, eps):
    r"""delta(eps) on the 2-sphere of radius R, directly: polar coordinates (r, phi) around eta_1 on that sphere
    (radial density e^{-r^2/(2 sigma^2)} R sin(r/R) on [0, pi R], phi uniform), d_2 by the spherical law of cosines
    of radius R, the phi-measure of {L > eps} and {L < -eps} in closed form (arccos), r by adaptive quadrature.
    No rescaling to the unit sphere and no incomplete-beta reduction."""
    c_delta, s_delta = np.cos(delta / radius), np.sin(delta / radius)

    def cos_phi_threshold(r, distance):
        return (np.cos(distance / radius) - np.cos(r / radius) * c_delta) / (np.sin(r / radius) * s_delta)

    def upper(r):  # P_phi[d2 > sqrt(r^2 + 2 sigma^2 eps)]
        s_plus = np.sqrt(r * r + 2 * sigma**2 * eps)
        if s_plus >= np.pi * radius or r <= 0.0:
            return 0.0
        return 1.0 - np.arccos(np.clip(cos_phi_threshold(r, s_plus), -1.0, 1.0)) / np.pi

    def lower(r):  # P_phi[d2 < sqrt(r^2 - 2 sigma^2 eps)]
        if r * r <= 2 * sigma**2 * eps or r >= np.pi * radius:
            return 0.0
        s_minus = np.sqrt(r * r - 2 * sigma**2 * eps)
        return np.arccos(np.clip(cos_phi_threshold(r, s_minus), -1.0, 1.0)) / np.pi

    def weight(r):
        return np.exp(-(r**2) / (2 * sigma**2)) * radius * np.sin(r / radius)

    top = np.pi * radius
    kinks = sorted({min(max(x, 0.0), top) for x in (delta / 2 - sigma**2 * eps / delta, sigma**2 * eps / delta - delta / 2,
                                                     delta / 2 + sigma**2 * eps / delta, np.sqrt(2 * sigma**2 * eps))})
    options = dict(epsabs=0.0, epsrel=1e-12, limit=400, points=[k for k in kinks if 0.0 < k < top] or None)
    norm = integrate.quad(weight, 0.0, top, epsabs=0.0, epsrel=1e-13, limit=200)[0]
    p_upper = integrate.quad(lambda r: weight(r) * upper(r), 0.0, top, **options)[0] / norm
    p_lower = integrate.quad(lambda r: weight(r) * lower(r), 0.0, top, **options)[0] / norm
    return p_upper - np.exp(eps) * p_lower


@pytest.mark.parametrize("curvature, sigma, delta", [(0.25, 1.2, 0.9), (4.0, 0.3, 0.25), (4.0, 0.8, 1.2)])
def test_sphere_of_curvature_kappa_matches_a_direct_quadrature_and_the_rescaled_unit_sphere(curvature, sigma, delta):
    """mu(kappa, sigma, Delta) = mu(1, sqrt(kappa) sigma, sqrt(kappa) Delta): the profile computed for the volume of
    the sphere of radius 1/sqrt(kappa) matches an independent quadrature on that sphere (power against a wrong
    scaling of sigma or Delta, e.g. by kappa instead of sqrt(kappa), or a missing one), and mu is the unit sphere's."""
    from geodp_core.geometry.radial_volume import SphericalVolume

    volume = SphericalVolume(2, curvature=curvature)
    eps = np.array([0.0, 0.4, 1.1])
    expected = [_radius_sphere_reference(1.0 / np.sqrt(curvature), sigma, delta, e) for e in eps]
    np.testing.assert_allclose(privacy_profile(volume, None, sigma, delta, eps), expected, rtol=1e-8)
    root = np.sqrt(curvature)
    assert gdp_mu(volume, None, sigma, delta) == pytest.approx(gdp_mu("sphere", 2, root * sigma, root * delta),
                                                               rel=1e-12)
    mu = 0.8 * gdp_mu(volume, None, sigma, delta)
    assert riemannian_gaussian_sigma_for_mu(volume, 2, mu, delta) == pytest.approx(
        riemannian_gaussian_sigma_for_mu("sphere", 2, mu, root * delta) / root, rel=1e-12)


def test_manifolds_and_volumes_give_the_numbers_of_the_names():
    from geodp_core.geometry import get_manifold

    for name, dim in (("sphere", 2), ("hyperbolic", 3), ("euclidean", 2), ("sphere", 1)):
        manifold = get_manifold(name, dim)
        reference = gdp_mu(name, dim, 0.7, 0.4)
        assert gdp_mu(manifold, None, 0.7, 0.4) == reference
        assert gdp_mu(manifold.radial_volume, dim, 0.7, 0.4) == reference
    triangles = get_manifold("kendall", 3)  # CP^1 = S^2(1/2): curvature 4
    assert gdp_mu(triangles, None, 0.3, 0.2) == gdp_mu("sphere", 2, 0.6, 0.4)
    with pytest.raises(InvalidParameterError, match="dim") as info:
        gdp_mu(get_manifold("sphere", 2), 3, 0.7, 0.4)
    assert info.value.param == "dim"


def test_spaces_without_the_constant_curvature_reduction_are_refused():
    """No mu is computed where the law of cosines of the reduction does not hold: a quotient of a sphere whose
    radius stops before the conjugate point other than the real projective space (whose folded law of cosines the
    reduction handles: SO(3) = S^3(2)/±1, range pi), CP^n for n >= 2, a non-isotropic space."""
    from geodp_core.geometry import get_manifold
    from geodp_core.geometry.radial_volume import ComplexProjectiveVolume, SphericalVolume
    from geodp_core.mechanisms.gaussian_gdp import exact_gdp_available

    rotations = SphericalVolume(3, curvature=0.25, radius_range=np.pi)
    assert exact_gdp_available(rotations) and exact_gdp_available(get_manifold("so3"))
    cut_elsewhere = SphericalVolume(3, curvature=0.25, radius_range=2.0)  # neither the sphere nor its projective quotient
    for space in (cut_elsewhere, ComplexProjectiveVolume(4), get_manifold("kendall", 5), get_manifold("spd", 2)):
        assert not exact_gdp_available(space)
        with pytest.raises(UnavailableError) as info:
            gdp_mu(space, None, 0.5, 0.3)
        assert info.value.param == "space"
    assert exact_gdp_available(SphericalVolume(3, curvature=0.25)) and exact_gdp_available("hyperbolic", 2)
    with pytest.raises(InvalidParameterError, match="sensitivity"):  # beyond the diameter pi/sqrt(kappa) = 2 pi
        gdp_mu(SphericalVolume(3, curvature=0.25), None, 0.5, 6.5)


@pytest.mark.parametrize("model_name, curvature", [("_SPHERE", 1.0), ("_HYPERBOLIC", -1.0)])
def test_the_quadric_models_move_e0_to_the_moved_base_by_an_isometry(model_name, curvature):
    # The Monte Carlo cross-check's pair e0, eta' and the map between them (written once for both quadrics): eta' is
    # at distance Delta from e0, the map sends e0 to eta' and keeps every distance and the quadric form.
    from geodp_core.mechanisms import gaussian_gdp

    model = getattr(gaussian_gdp, model_name)
    delta, dim = 0.7, 3
    e0 = np.zeros(dim + 1)
    e0[0] = 1.0
    eta = model.moved_base(dim, delta)
    assert model.ambient_distance(e0, eta[None])[0] == pytest.approx(delta, rel=1e-12)
    rng = np.random.default_rng(3)
    points = np.vstack([e0, gaussian_gdp._sample_riemannian_gaussian(model, dim, 0.8, 20, rng)])
    moved = points.copy()
    model.move(moved, delta)
    np.testing.assert_allclose(moved[0], eta, atol=1e-14)
    np.testing.assert_allclose(moved[:, 0] ** 2 + curvature * np.sum(moved[:, 1:] ** 2, axis=1), 1.0, atol=1e-12)
    for i in (1, 5, 9):
        np.testing.assert_allclose(model.ambient_distance(moved[i], moved), model.ambient_distance(points[i], points),
                                   atol=1e-6)  # arccosh near 1 resolves distances to ~sqrt(machine eps)


@pytest.mark.parametrize("space, dim, scale", [("sphere", 2, 1.0), ("sphere", 5, 1.0), ("so3", None, 0.5)])
def test_beyond_the_quadrature_range_mu_is_zero_or_refused_never_a_crash(space, dim, scale):
    # Beyond sigma = 200 (unit-curvature units) the loss is at most L_max = Delta(2pi - Delta)/(2 sigma^2) (sphere;
    # Delta(pi - Delta)/(2 sigma^2) on the projective model of SO(3)): mu = 0 where 1.26 L_max underflows, else a
    # NumericalOverflowError naming sigma (one rule for both models; the projective model used to overflow).
    from geodp_core.exceptions import NumericalOverflowError
    from geodp_core.geometry import get_manifold

    where = space if dim is not None else get_manifold(space)
    assert gdp_mu(where, dim, 1e160, 0.5) == 0.0
    with pytest.raises(NumericalOverflowError, match="unit-curvature units") as info:
        gdp_mu(where, dim, 1000.0, 0.5)
    assert info.value.param == "sigma" and f"sigma={1000.0 * scale!r}" in str(info.value)
    assert 0.0 < gdp_mu(where, dim, 150.0, 0.5) < 1e-4
