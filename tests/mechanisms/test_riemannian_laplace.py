"""Tests of the Riemannian Laplace mechanism (docs/specification.md §5.1).

Statistical tests: each KS test is run at alpha = 1e-6 with a fixed seed (type-I error
<= 1e-6 per test); each states the bug it has power against.
"""

import math

import numpy as np
import pytest
from scipy import integrate, stats

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.radial import get_radial_law
from geodp_core.mechanisms import LABEL_APPROXIMATE, LABEL_EXACT, get_mechanism
from geodp_core.mechanisms.riemannian_laplace import _spd2_radius_law
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP, implies
from tests.mechanisms.contract import MechanismContract

ALPHA = 1e-6
N_KS = 20_000


def generic_center(manifold):
    """A point away from the default centre (exercises frames and Exp at a generic base point)."""
    base = manifold.default_center()
    coords = np.linspace(0.2, 0.5, manifold.dim)
    return manifold.exp(base, manifold.from_frame(base, coords))


# ----------------------------------------------------------------------------- contract
class TestContractSphere(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("sphere", 2)


class TestContractCircle(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("sphere", 1)


class TestContractHyperbolic(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("hyperbolic", 2)


class TestContractEuclidean(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("euclidean", 3)


class TestContractSPDAffine(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("spd", 2, "affine")


class TestContractSPDLogEuclidean(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("spd", 2, "log_euclidean")


class TestContractSPDLogCholesky(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("spd", 3, "log_cholesky")


class TestContractMH(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("sphere", 2)
    calibrate_options = {"sampler": "mh", "burn_in": 20, "n_steps": 20}


# ------------------------------------------------------------------ exact sampler laws
@pytest.mark.parametrize(
    "args, sigma",
    [(("sphere", 2), 0.4), (("sphere", 3), 1.5), (("hyperbolic", 2), 0.4), (("hyperbolic", 3), 0.3),
     (("euclidean", 3), 0.7), (("sphere", 1), 0.8)],
)
def test_distance_law_matches_radial_law(args, sigma):
    # End-to-end check that sample() composes radius and direction right: dist(eta, Y) must follow
    # the radial law ∝ exp(-r/sigma) J(r). Power against a wrong Exp scaling (e.g. a non-unit
    # frame on the hyperboloid), radii drawn without the J(r) factor, or a sigma/eps mix-up.
    manifold = get_manifold(*args)
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(0.5 / sigma), 0.5)
    assert cal.noise["sigma"] == pytest.approx(sigma, rel=1e-12)
    center = generic_center(manifold)
    out = mech.sample(center, cal, N_KS, np.random.default_rng(100 + manifold.dim))
    radii = manifold.dist(center, out)
    law = get_radial_law(manifold, None, "laplace", cal.noise["sigma"])
    assert stats.kstest(radii, law.cdf).pvalue > ALPHA


@pytest.mark.parametrize("args", [("sphere", 2), ("sphere", 3), ("hyperbolic", 2), ("hyperbolic", 3), ("euclidean", 3)])
def test_directions_uniform(args):
    # Unit directions u = Log_eta(Y)/|Log_eta(Y)| in an orthonormal frame: the first coordinate
    # satisfies (u_1 + 1)/2 ~ Beta((d-1)/2, (d-1)/2) and the mean direction is 0 (6 standard errors).
    # Power against directions drawn non-uniformly (e.g. coordinates not normalised, frame not
    # orthonormal at a generic base point).
    manifold = get_manifold(*args)
    d = manifold.dim
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.3)
    center = generic_center(manifold)
    out = mech.sample(center, cal, N_KS, np.random.default_rng(7))
    coords = manifold.to_frame(center, manifold.log(center, out))
    units = coords / np.linalg.norm(coords, axis=1, keepdims=True)
    half = (d - 1) / 2
    assert stats.kstest((units[:, 0] + 1) / 2, stats.beta(half, half).cdf).pvalue > ALPHA
    assert np.all(np.abs(units.mean(axis=0)) < 6 * np.sqrt(1.0 / d / N_KS))


@pytest.mark.parametrize("dim", [1, 2, 5])
def test_euclidean_limit_is_k_norm_laplace(dim):
    # R^d: sigma = Delta/eps exactly and |Y - eta| ~ Gamma(d, sigma) (the K-norm Laplace).
    manifold = get_manifold("euclidean", dim)
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(2.0), 0.3)
    assert cal.noise["sigma"] == pytest.approx(0.15, rel=1e-15) and cal.label == LABEL_EXACT
    assert cal.native.eps <= 2.0
    center = np.arange(dim, dtype=float)
    radii = np.linalg.norm(mech.sample(center, cal, N_KS, np.random.default_rng(dim)) - center, axis=1)
    assert stats.kstest(radii, stats.gamma(dim, scale=0.15).cdf).pvalue > ALPHA
    assert mech.expected_distance(cal) == pytest.approx(dim * 0.15)


@pytest.mark.parametrize("metric, m", [("log_euclidean", 2), ("log_cholesky", 2), ("log_euclidean", 3)])
def test_flat_spd_chart_noise_is_gamma(metric, m):
    # Flat SPD metrics: Riemannian distance = chart distance, radius ~ Gamma(d, sigma), d = m(m+1)/2.
    # Power against noise added with the wrong chart differential (non-isometric frame).
    manifold = get_manifold("spd", m, metric)
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.4)
    center = generic_center(manifold)
    out = mech.sample(center, cal, N_KS, np.random.default_rng(m))
    radii = manifold.dist(center, out)
    assert stats.kstest(radii, stats.gamma(manifold.dim, scale=0.4).cdf).pvalue > ALPHA


def _spd2_radial_cdf_by_2d_quadrature(sigma, profile, rho):
    """P(|r| <= rho) for r in R^2 with density ∝ g(|r|) sinh(|r1 - r2|/2), by 2-D quadrature."""
    def g(rad):
        return np.exp(-rad / sigma) if profile == "laplace" else np.exp(-0.5 * (rad / sigma) ** 2)

    def integrand(phi, rad):  # polar coordinates in the (r1, r2) plane
        return g(rad) * rad * np.sinh(rad * abs(np.cos(phi) - np.sin(phi)) / 2)

    def mass(upper):
        return integrate.dblquad(integrand, 0.0, upper, 0.0, 2 * np.pi, epsabs=1e-13, epsrel=1e-10)[0]

    return mass(rho) / mass(1000.0)


@pytest.mark.parametrize("profile, sigma", [("laplace", 0.5), ("laplace", 1.2), ("gaussian", 0.7)])
def test_spd2_radius_law_matches_2d_quadrature(profile, sigma):
    # The Struve closed form p(rho) ∝ g(rho) rho L0(rho/sqrt2) vs a direct 2-D quadrature of the
    # eigen-log density.
    law = _spd2_radius_law(profile, sigma)
    for rho in (0.3 * sigma, sigma, 3 * sigma):
        assert law.cdf(np.array([rho]))[0] == pytest.approx(
            _spd2_radial_cdf_by_2d_quadrature(sigma, profile, rho), rel=1e-7, abs=1e-10
        )


def test_spd_affine_distance_law():
    # SPD(2) affine: dist(eta, Y) = |r| follows the radial marginal above. Power against a polar
    # sampler that drops the sinh volume factor (radius would be Gamma(2, sigma)).
    manifold = get_manifold("spd", 2, "affine")
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.6)
    center = generic_center(manifold)
    radii = manifold.dist(center, mech.sample(center, cal, N_KS, np.random.default_rng(9)))
    assert stats.kstest(radii, lambda x: mech.distance_cdf(cal, x)).pvalue > ALPHA
    assert stats.kstest(radii, stats.gamma(3, scale=0.6).cdf).pvalue < ALPHA  # the flat law is distinguishable
    assert radii.mean() == pytest.approx(mech.expected_distance(cal), abs=6 * radii.std() / np.sqrt(N_KS))


# ------------------------------------------------------------------ densities, normalisers
def test_log_normaliser_closed_forms():
    # S^2: Z = 2 pi ∫_0^pi e^{-r/s} sin r dr = 2 pi (1 + e^{-pi/s}) / (1 + 1/s^2);
    # H^2: Z = 2 pi ∫ e^{-r/s} sinh r dr = 2 pi / (1/s^2 - 1); R^3: Z = 4 pi Gamma(3) s^3.
    for args, s, z in [
        (("sphere", 2), 0.7, 2 * np.pi * (1 + np.exp(-np.pi / 0.7)) / (1 + 1 / 0.7**2)),
        (("hyperbolic", 2), 0.6, 2 * np.pi / (1 / 0.6**2 - 1)),
        (("euclidean", 3), 0.3, 4 * np.pi * 2 * 0.3**3),
        (("spd", 2, "log_cholesky"), 0.3, 4 * np.pi * 2 * 0.3**3),
    ]:
        mech = get_mechanism("riemannian_laplace", get_manifold(*args))
        cal = mech.calibrate(PureDP(1.0), s)
        assert mech.log_normaliser(cal) == pytest.approx(np.log(z), rel=1e-10)


def test_spd2_affine_normaliser_by_jacobian_monte_carlo():
    # Z = ∫_{T_eta M} e^{-|v|/s} |det dExp_v| dv = Z_flat * E[exp(log_volume_jacobian(V))], V ~ K-norm
    # Laplace in R^3. Independent of the polar constant K_2 = pi/sqrt2 used by log_normaliser;
    # power against a wrong K_2 or a wrong Struve radial law (6 standard errors).
    manifold = get_manifold("spd", 2, "affine")
    mech = get_mechanism("riemannian_laplace", manifold)
    s = 0.5
    cal = mech.calibrate(PureDP(1.0), s)
    rng = np.random.default_rng(4)
    n = 200_000
    coords = rng.standard_normal((n, 3))
    coords *= (rng.gamma(3, s, n) / np.linalg.norm(coords, axis=1))[:, None]
    eye = np.eye(2)
    weights = np.exp(manifold.log_volume_jacobian(eye, manifold.from_frame(eye, coords)))
    z_flat = 4 * np.pi * 2 * s**3
    estimate, se = weights.mean(), weights.std() / np.sqrt(n)
    assert abs(np.exp(mech.log_normaliser(cal)) / z_flat - estimate) < 6 * se


def test_log_density_values_and_validation():
    manifold = get_manifold("sphere", 2)
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(2.0), 0.5)
    center = manifold.default_center()
    pts = mech.sample(center, cal, 5, np.random.default_rng(0))
    np.testing.assert_allclose(mech.log_density(center, pts, cal), -manifold.dist(center, pts) / 0.25)
    np.testing.assert_allclose(
        mech.log_density(center, pts, cal, normalised=True),
        -manifold.dist(center, pts) / 0.25 - mech.log_normaliser(cal),
    )
    with pytest.raises(InvalidParameterError, match="points"):
        mech.log_density(center, pts * 2, cal)
    with pytest.raises(InvalidParameterError, match="normalised"):
        mech.log_density(center, pts, cal, normalised="yes")


def test_expected_distance_closed_forms():
    # H^2: E r = 2a/(a^2 - 1), a = 1/sigma; S^2: ratio of two 1-D integrals (scipy quad).
    mech = get_mechanism("riemannian_laplace", get_manifold("hyperbolic", 2))
    cal = mech.calibrate(PureDP(1.0), 0.4)
    a = 1 / 0.4
    assert mech.expected_distance(cal) == pytest.approx(2 * a / (a * a - 1), rel=1e-7)
    mech = get_mechanism("riemannian_laplace", get_manifold("sphere", 2))
    cal = mech.calibrate(PureDP(1.0), 2.0)
    num = integrate.quad(lambda r: r * np.exp(-r / 2.0) * np.sin(r), 0, np.pi)[0]
    den = integrate.quad(lambda r: np.exp(-r / 2.0) * np.sin(r), 0, np.pi)[0]
    assert mech.expected_distance(cal) == pytest.approx(num / den, rel=1e-7)


# ------------------------------------------------------------------------ calibration
@pytest.mark.parametrize("target", [PureDP(0.7), ApproxDP(0.7, 1e-6), GDP(0.5), RDP(3.0, 0.2), ZCDP(0.1)],
                         ids=lambda t: t.notion)
@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2), ("spd", 2, "affine"), ("euclidean", 2)])
def test_calibration_meets_every_target(target, args):
    mech = get_mechanism("riemannian_laplace", get_manifold(*args))
    try:
        cal = mech.calibrate(target, 0.1)
    except UnavailableError as exc:  # only the non-normalisable cases may refuse
        assert "normalisable" in str(exc)
        return
    assert implies(cal.achieved, target) and type(cal.achieved) is type(target)
    assert cal.native.notion == "pure_dp" and cal.native.eps <= 0.1 / cal.noise["sigma"] * (1 + 1e-15)
    assert any("ε-DP" in note for note in cal.notes)


def test_hyperbolic_floor_raises_with_the_needed_budget():
    mech = get_mechanism("riemannian_laplace", get_manifold("hyperbolic", 3))
    # sigma = Delta/eps must be < 1/(d-1) = 0.5, i.e. eps > (d-1) Delta = 0.4
    with pytest.raises(UnavailableError, match="not normalisable") as info:
        mech.calibrate(PureDP(0.39), 0.2)
    assert "ε > 2·Δ = 0.4" in str(info.value)
    with pytest.raises(UnavailableError):
        mech.calibrate(PureDP(0.4), 0.2)  # exactly at the limit: still not normalisable
    with pytest.raises(UnavailableError, match="double precision"):  # normalisable, but most releases beyond 22
        mech.calibrate(PureDP(0.41), 0.2)
    assert mech.calibrate(PureDP(0.5), 0.2).noise["sigma"] < 0.5


def test_spd_affine_floor_raises():
    mech = get_mechanism("riemannian_laplace", get_manifold("spd", 2, "affine"))
    with pytest.raises(UnavailableError, match="normalisable"):
        mech.calibrate(PureDP(0.5), 1.0)  # sigma = 2 >= sqrt 2


def test_sphere_sensitivity_capped_at_diameter():
    mech = get_mechanism("riemannian_laplace", get_manifold("sphere", 2))
    cal = mech.calibrate(PureDP(1.0), 5.0)
    assert cal.noise["sigma"] == pytest.approx(np.pi)
    assert any("diameter" in note for note in cal.notes)


@pytest.mark.parametrize(
    "options, param",
    [({"sampler": "gibbs"}, "sampler"), ({"n_steps": 10}, "n_steps"), ({"sampler": "mh", "n_steps": 0}, "n_steps"),
     ({"sampler": "mh", "burn_in": -3}, "burn_in"), ({"sampler": "mh", "proposal_scale": -1.0}, "proposal_scale"),
     ({"footpoint": 1.0}, "footpoint")],
)
def test_bad_options_name_the_option(options, param):
    mech = get_mechanism("riemannian_laplace", get_manifold("sphere", 2))
    with pytest.raises(InvalidParameterError, match=param) as info:
        mech.calibrate(PureDP(1.0), 0.1, **options)
    assert info.value.param == param


# --------------------------------------------------------------------------- MH path
@pytest.mark.parametrize("args, n_chains", [(("sphere", 2), 3000), (("hyperbolic", 2), 3000)])
def test_mh_agrees_with_exact_sampler(args, n_chains):
    # Two-sample KS on dist(eta, Y): MH (burn-in 200 + 400 steps) vs the exact sampler. Power against
    # a non-symmetric proposal or a wrong acceptance ratio; the acceptance rate is reported.
    manifold = get_manifold(*args)
    mech = get_mechanism("riemannian_laplace", manifold)
    cal_mh = mech.calibrate(PureDP(1.0), 0.3, sampler="mh", burn_in=200, n_steps=400)
    cal_exact = mech.calibrate(PureDP(1.0), 0.3)
    assert cal_mh.label == LABEL_APPROXIMATE and cal_exact.label == LABEL_EXACT
    assert any("burn-in 200 + 400 steps" in note for note in cal_mh.notes)
    center = generic_center(manifold)
    mh = manifold.dist(center, mech.sample(center, cal_mh, n_chains, np.random.default_rng(1)))
    exact = manifold.dist(center, mech.sample(center, cal_exact, n_chains, np.random.default_rng(2)))
    assert stats.ks_2samp(mh, exact).pvalue > ALPHA
    assert 0.15 < mech.last_mcmc.acceptance_rate < 0.6


def test_expected_distance_spd3_affine_is_monte_carlo_estimate():
    mech = get_mechanism("riemannian_laplace", get_manifold("spd", 3, "affine"))
    cal = mech.calibrate(PureDP(2.0), 0.5)
    radii = mech.manifold.dist(np.eye(3), mech.sample(np.eye(3), cal, 20_000, np.random.default_rng(0)))
    assert mech.expected_distance(cal) == pytest.approx(radii.mean(), abs=6 * radii.std() / math.sqrt(20_000) + 0.01)
    with pytest.raises(NotImplementedError):
        mech.log_normaliser(cal)


def test_spd1_affine_is_the_line():
    # SPD(1) is flat under every metric (dist = |log p - log q|): |log Y - log eta| ~ Exp(sigma).
    manifold = get_manifold("spd", 1, "affine")
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.5)
    out = mech.sample(np.array([[2.0]]), cal, N_KS, np.random.default_rng(2))
    radii = np.abs(np.log(out[:, 0, 0]) - np.log(2.0))
    assert stats.kstest(radii, stats.expon(scale=0.5).cdf).pvalue > ALPHA
    assert mech.expected_distance(cal) == pytest.approx(0.5)


def test_far_noise_is_refused_or_flagged_on_hyperbolic_space():
    mech = get_mechanism("riemannian_laplace", get_manifold("hyperbolic", 2))
    with pytest.raises(UnavailableError, match="overflows double precision"):
        mech.calibrate(PureDP(0.101), 0.1)  # sigma = 0.99: radius beyond 700 with probability ~1e-3
    cal = mech.calibrate(PureDP(0.11), 0.1)  # sigma = 0.91: 5% of releases beyond r = 30
    assert any("significant digits" in note for note in cal.notes)
