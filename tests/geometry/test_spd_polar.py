"""Tests of the exact SPD(m) affine-invariant polar sampler (geodp_core.geometry.spd_polar).

Statistical tests use fixed seeds and type-I error alpha = 1e-6 each (KS: reject iff
p < 1e-6; mean/Monte Carlo checks: |z| < 5.5, two-sided 4e-8 per coordinate).
References: 2-D quadrature of the target in polar coordinates (cross-checked against the
modified Struve closed form) and a Lebesgue-measure Monte Carlo of the affine-invariant
volume det(P)^{-3/2} dP, independent of the polar formula.
"""

import functools
import math

import numpy as np
import pytest
from scipy import integrate, special, stats

from geodp_core.exceptions import InvalidParameterError, OffManifoldError, UnavailableError
from geodp_core.geometry.radial import log_sinh
from geodp_core.geometry.spd_polar import (
    EIGEN_METHODS,
    eigen_spread_constant,
    haar_orthogonal,
    log_vandermonde_sphere_integral,
    log_volume_density_eigen,
    sample_eigen_logs,
    sample_spd_polar,
    spd_laplace_scale_limit,
)

ALPHA = 1e-6
SEED = 20261121
SQRT2 = math.sqrt(2.0)
GL_X, GL_W = np.polynomial.legendre.leggauss(48)


# ---------------------------------------------------------------- references (m = 2)
def _log_g(profile, scale, rho):
    if profile == "laplace":
        return -rho / scale
    if profile == "gaussian":
        return -0.5 * (rho / scale) ** 2
    with np.errstate(divide="ignore"):
        return np.where(rho <= scale, 0.0, -np.inf)


def _log_angular_integral(rho):
    r"""log I(rho), I(rho) = int_0^{2 pi} sinh(rho |cos psi| / sqrt 2) dpsi = 4 int_0^{pi/2} ...

    Tensor Gauss-Legendre in psi (the 2-D quadrature of the target in polar coordinates),
    in log space; cross-checked against 2 pi L_0(rho / sqrt 2) (modified Struve).
    """
    psi = 0.25 * np.pi * (GL_X + 1.0)
    log_vals = log_sinh(np.multiply.outer(np.asarray(rho, dtype=float), np.cos(psi)) / SQRT2)
    return special.logsumexp(log_vals + np.log(GL_W * np.pi), axis=-1)


def _tabulated_cdf(log_density, upper, n=100_001):
    """CDF on a fine grid (cumulative trapezoid of a smooth density) for np.interp."""
    grid = np.linspace(0.0, upper, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        logd = log_density(grid)
    dens = np.exp(logd - np.max(logd[np.isfinite(logd)]))
    dens = np.where(np.isfinite(dens), dens, 0.0)
    cum = integrate.cumulative_trapezoid(dens, grid, initial=0.0)
    return grid, cum / cum[-1]


@functools.lru_cache(maxsize=None)
def _radius_cdf(profile, scale):
    """CDF of |r| for the SPD(2) target: density prop. to g(rho) rho I(rho)."""
    upper = scale if profile == "uniform" else {"laplace": 80.0 / (1 / scale - 1 / SQRT2), "gaussian": scale * (12 + scale)}[profile]
    grid, cdf = _tabulated_cdf(lambda t: _log_g(profile, scale, t) + np.log(t) + _log_angular_integral(t), upper)
    return lambda x: np.interp(x, grid, cdf)


def _log_h(profile, scale, u):
    r"""log int g(sqrt(u^2 + v^2)) dv (closed forms; checked against numerical quadrature)."""
    u = np.abs(u)
    with np.errstate(divide="ignore", invalid="ignore"):
        if profile == "gaussian":
            return 0.5 * math.log(2 * math.pi) + math.log(scale) - 0.5 * (u / scale) ** 2
        if profile == "laplace":  # 2 |u| K_1(|u|/s), via the scaled Bessel function
            x = u / scale
            return math.log(2.0) + np.log(u) + np.log(special.kve(1, x)) - x
        return np.where(u < scale, math.log(2.0) + 0.5 * np.log(np.maximum(scale**2 - u**2, 0.0)), -np.inf)


@functools.lru_cache(maxsize=None)
def _gap_cdf(profile, scale):
    """CDF of D = r_1 - r_2: u = D / sqrt2 has density prop. to sinh(|u|/sqrt2) h(u) (symmetric)."""
    upper = scale if profile == "uniform" else {"laplace": 80.0 / (1 / scale - 1 / SQRT2), "gaussian": scale * (12 + scale)}[profile]
    grid, half_cdf = _tabulated_cdf(lambda u: log_sinh(u / SQRT2) + _log_h(profile, scale, u), upper)

    def cdf(d):
        u = np.asarray(d) / SQRT2
        p = 0.5 * np.interp(np.abs(u), grid, half_cdf)
        return np.where(u >= 0, 0.5 + p, 0.5 - p)

    return cdf


def test_reference_angular_integral_matches_struve():
    rho = np.array([0.05, 0.7, 3.0, 20.0, 300.0])
    struve = np.log(2 * np.pi * special.modstruve(0, rho / SQRT2))
    np.testing.assert_allclose(_log_angular_integral(rho), struve, rtol=1e-12)


@pytest.mark.parametrize("profile,scale", [("gaussian", 0.8), ("laplace", 0.5), ("uniform", 1.3)])
def test_reference_gap_kernel_matches_quadrature(profile, scale):
    g = {"gaussian": lambda t: math.exp(-0.5 * (t / scale) ** 2), "laplace": lambda t: math.exp(-t / scale),
         "uniform": lambda t: float(t <= scale)}[profile]
    for u in (0.1, 0.9, 1.2):
        lim = math.sqrt(max(scale**2 - u**2, 0.0)) if profile == "uniform" else np.inf
        ref = 2 * integrate.quad(lambda v: g(math.hypot(u, v)), 0, lim, epsabs=1e-14, limit=200)[0]
        if ref == 0:
            assert np.isneginf(_log_h(profile, scale, np.array(u)))
        else:
            assert float(np.exp(_log_h(profile, scale, np.array(u)))) == pytest.approx(ref, rel=1e-9)


# ------------------------------------------------------------------------ m = 2 laws
M2_CASES = [
    ("laplace", 0.3, "combined"),
    ("laplace", 0.3, "exponential"),
    ("laplace", 0.3, "vandermonde"),
    ("laplace", 1.2, "combined"),  # close to the limit sqrt 2
    ("gaussian", 0.2, "combined"),
    ("gaussian", 1.5, "combined"),
    ("gaussian", 1.5, "exponential"),
    ("gaussian", 1.5, "vandermonde"),
    ("uniform", 1.0, "combined"),
    ("uniform", 2.5, "combined"),
]


@pytest.mark.parametrize("profile,scale,method", M2_CASES)
def test_spd2_eigen_logs_match_2d_quadrature(profile, scale, method):
    # KS on |r| and on r1 - r2 (two tests, alpha = 1e-6 each). Power against: a missing or
    # wrong volume factor prod sinh(|r_i - r_j|/2) (e.g. without the 1/2), a wrong envelope
    # ratio, a wrong direction law.
    r = sample_eigen_logs(2, profile, scale, 20_000, np.random.default_rng(SEED), method=method)
    assert r.shape == (20_000, 2)
    assert stats.kstest(np.linalg.norm(r, axis=1), _radius_cdf(profile, scale)).pvalue > ALPHA
    assert stats.kstest(r[:, 0] - r[:, 1], _gap_cdf(profile, scale)).pvalue > ALPHA


def test_spd2_negative_control_flat_volume_is_rejected():
    # Dropping the sinh factor (isotropic Gaussian in r, i.e. the log-Euclidean law) is
    # rejected by the same KS test at alpha = 1e-6.
    rng = np.random.default_rng(SEED)
    wrong = 1.5 * rng.standard_normal((20_000, 2))
    assert stats.kstest(np.linalg.norm(wrong, axis=1), _radius_cdf("gaussian", 1.5)).pvalue < ALPHA


@pytest.mark.parametrize("m,profile,scale", [(3, "gaussian", 0.6), (3, "laplace", 0.3), (4, "uniform", 3.0)])
def test_envelopes_agree_in_higher_dimension(m, profile, scale):
    # Two-sample KS between independent exact samplers with different envelopes
    # (alpha = 1e-6 per statistic, 2 statistics). Power against a wrong acceptance ratio in either.
    a = sample_eigen_logs(m, profile, scale, 8000, np.random.default_rng(SEED), method="exponential")
    b = sample_eigen_logs(m, profile, scale, 8000, np.random.default_rng(SEED + 1), method="vandermonde")
    c = sample_eigen_logs(m, profile, scale, 8000, np.random.default_rng(SEED + 2))
    for x, y in ((a, b), (b, c)):
        assert stats.ks_2samp(np.linalg.norm(x, axis=1), np.linalg.norm(y, axis=1)).pvalue > ALPHA
        assert stats.ks_2samp(x[:, 0] - x[:, 1], y[:, 0] - y[:, 1]).pvalue > ALPHA


def test_m1_is_symmetric_laplace_and_gaussian():
    # KS, alpha = 1e-6: SPD(1) = (0, inf) with dist = |log y - log eta|, no volume factor.
    x = sample_eigen_logs(1, "laplace", 0.4, 20_000, np.random.default_rng(SEED))[:, 0]
    assert stats.kstest(x, stats.laplace(scale=0.4).cdf).pvalue > ALPHA
    x = sample_eigen_logs(1, "gaussian", 0.4, 20_000, np.random.default_rng(SEED))[:, 0]
    assert stats.kstest(x, stats.norm(scale=0.4).cdf).pvalue > ALPHA


def test_eigen_logs_are_exchangeable():
    # The target is permutation invariant; the Vandermonde envelope draws sorted GOE spectra,
    # so the output must be randomly permuted. z-test on P(r_0 < r_1) = 1/2, |z| < 5.5.
    r = sample_eigen_logs(3, "gaussian", 0.1, 20_000, np.random.default_rng(SEED), method="vandermonde")
    frac = np.mean(r[:, 0] < r[:, 1])
    assert abs(frac - 0.5) < 5.5 * 0.5 / math.sqrt(r.shape[0])


# ------------------------------------------------------------------- volume formula
def test_volume_formula_against_lebesgue_monte_carlo():
    # Independent check of the polar volume prod sinh(|r_i - r_j|/2) for m = 2: the
    # affine-invariant volume is det(P)^{-3/2} dP (Lebesgue on (a, b, c)); the law of
    # dist(I, P) for P uniform in the ball B(I, R), estimated by importance weighting of
    # uniform points in a box, must match the polar formula (ratio estimator, |z| < 5.5 at
    # each of 3 radii). Power: the flat volume |r1 - r2| and sinh(|r1 - r2|) (missing 1/2)
    # are each rejected (|z| > 5.5 at some radius).
    R = 1.5
    rng = np.random.default_rng(SEED)
    lo, hi, bmax = math.exp(-R), math.exp(R), math.sinh(R)
    weights, dists = [], []
    for _ in range(2):
        n = 1_000_000
        a, c = rng.uniform(lo, hi, (2, n))
        b = rng.uniform(-bmax, bmax, n)  # |b| <= (lam_max - lam_min)/2 <= sinh(R) in the ball
        mean, rad = 0.5 * (a + c), np.sqrt(0.25 * (a - c) ** 2 + b * b)
        lam_min, lam_max = mean - rad, mean + rad
        ok = lam_min > 0
        dist = np.full(n, np.inf)
        dist[ok] = np.hypot(np.log(lam_min[ok]), np.log(lam_max[ok]))
        weights.append(np.where(dist <= R, np.where(ok, lam_min * lam_max, 1.0) ** -1.5, 0.0))
        dists.append(dist)
    w, dist = np.concatenate(weights), np.concatenate(dists)
    t_values = np.array([0.6, 1.0, 1.3])

    def polar_cdf(log_vol):
        rho = np.linspace(0, R, 2001)
        psi = np.linspace(0, 2 * np.pi, 721)[:-1]
        with np.errstate(divide="ignore"):
            vol = np.exp(log_vol(np.abs(np.multiply.outer(rho, np.cos(psi) - np.sin(psi)))))
        cum = integrate.cumulative_trapezoid(rho * vol.mean(axis=1), rho, initial=0)
        return np.interp(t_values, rho, cum / cum[-1])

    z = {}
    for name, log_vol in [("sinh(x/2)", lambda x: np.log(np.sinh(x / 2))), ("flat", np.log),
                          ("sinh(x)", lambda x: np.log(np.sinh(x)))]:
        ref = polar_cdf(log_vol)
        zs = []
        for k, t in enumerate(t_values):
            y = (dist <= t).astype(float)
            est = np.sum(w * y) / np.sum(w)
            se = np.sqrt(np.mean((w * (y - est)) ** 2) / w.size) / np.mean(w)
            zs.append((est - ref[k]) / se)
        z[name] = np.abs(zs)
    assert np.all(z["sinh(x/2)"] < 5.5), z
    assert z["flat"].max() > 5.5 and z["sinh(x)"].max() > 5.5, z


def test_log_volume_density_eigen():
    rng = np.random.default_rng(SEED)
    r = rng.standard_normal((50, 4))
    ref = np.zeros(50)
    for i in range(4):
        for j in range(i + 1, 4):
            ref += np.log(np.sinh(np.abs(r[:, i] - r[:, j]) / 2))
    np.testing.assert_allclose(log_volume_density_eigen(r), ref, rtol=1e-12)
    assert log_volume_density_eigen([0.3]) == 0.0
    assert np.isneginf(log_volume_density_eigen([0.5, 0.5]))
    assert log_volume_density_eigen([0.0, 1000.0]) == pytest.approx(500.0 - math.log(2), rel=1e-14)
    with pytest.raises(InvalidParameterError, match="r"):
        log_volume_density_eigen(1.0)
    with pytest.raises(InvalidParameterError, match="r"):
        log_volume_density_eigen([0.0, float("nan")])


def test_spread_constant_and_laplace_limit():
    assert eigen_spread_constant(1) == 0.0
    assert eigen_spread_constant(2) == pytest.approx(1 / SQRT2)
    assert spd_laplace_scale_limit(2) == pytest.approx(SQRT2)
    assert spd_laplace_scale_limit(3) == pytest.approx(1 / SQRT2)
    assert spd_laplace_scale_limit(1) == math.inf
    rng = np.random.default_rng(SEED)
    for m in (2, 3, 4, 6):
        c = eigen_spread_constant(m)
        x = rng.standard_normal((20_000, m))
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        i, j = np.triu_indices(m, 1)
        spread = np.sum(np.abs(x[:, i] - x[:, j]), axis=1) / 2
        assert spread.max() <= c + 1e-12
        a = 2 * np.arange(1, m + 1) - m - 1.0  # the maximiser (2k - m - 1)_k / norm
        a /= np.linalg.norm(a)
        assert np.sum(np.abs(a[i] - a[j])) / 2 == pytest.approx(c, rel=1e-13)


def test_vandermonde_sphere_integral():
    assert math.exp(log_vandermonde_sphere_integral(2)) == pytest.approx(4 * SQRT2, rel=1e-13)
    assert math.exp(log_vandermonde_sphere_integral(1)) == pytest.approx(2.0, rel=1e-13)
    # m = 3: |S^2| E|Delta(theta)| by Monte Carlo, |z| < 5.5
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal((400_000, 3))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    vals = 4 * np.pi * np.abs((x[:, 0] - x[:, 1]) * (x[:, 0] - x[:, 2]) * (x[:, 1] - x[:, 2]))
    ref = math.exp(log_vandermonde_sphere_integral(3))
    assert abs(vals.mean() - ref) < 5.5 * vals.std() / math.sqrt(vals.size)


# ------------------------------------------------------------------------------ Haar
def test_haar_orthogonal():
    u = haar_orthogonal(3, 20_000, np.random.default_rng(SEED))
    assert u.shape == (20_000, 3, 3)
    np.testing.assert_allclose(np.einsum("nji,njk->nik", u, u), np.broadcast_to(np.eye(3), u.shape), atol=1e-12)
    # E[U] = 0: per entry |z| < 5.5 with Var(U_ij) = 1/3
    assert np.all(np.abs(u.mean(axis=0)) < 5.5 / math.sqrt(3 * u.shape[0]))
    # A column of a Haar O(3) matrix is uniform on S^2, so each entry is Uniform(-1, 1)
    # (Archimedes). KS alpha = 1e-6; power against a missing sign fix of the QR
    # decomposition (then U[0, 0] <= 0 always with LAPACK's Householder QR).
    for i, j in ((0, 0), (2, 1), (1, 2)):
        assert stats.kstest(u[:, i, j], stats.uniform(-1, 2).cdf).pvalue > ALPHA
    q, _ = np.linalg.qr(np.random.default_rng(SEED).standard_normal((20_000, 3, 3)))
    assert stats.kstest(q[:, 0, 0], stats.uniform(-1, 2).cdf).pvalue < ALPHA
    # det = +-1 with probability 1/2 each: |z| < 5.5
    det = np.linalg.det(u)
    np.testing.assert_allclose(np.abs(det), 1.0, atol=1e-12)
    assert abs(np.mean(det > 0) - 0.5) < 5.5 * 0.5 / math.sqrt(det.size)
    assert haar_orthogonal(2, 0, 0).shape == (0, 2, 2)
    with pytest.raises(InvalidParameterError, match="rng"):
        haar_orthogonal(2, 3, None)
    with pytest.raises(InvalidParameterError, match="m"):
        haar_orthogonal(0, 3, 0)


# -------------------------------------------------------------------- SPD matrices
def _affine_dist(eta, y):
    w, v = np.linalg.eigh(eta)
    inv_sqrt = (v / np.sqrt(w)) @ v.T
    lam = np.linalg.eigvalsh(inv_sqrt @ y @ inv_sqrt)
    return np.linalg.norm(np.log(lam), axis=-1), np.log(lam)


@pytest.mark.parametrize("profile,scale", [("laplace", 0.4), ("gaussian", 0.7), ("uniform", 1.0)])
def test_sample_spd_polar_outputs(profile, scale):
    rng = np.random.default_rng(SEED)
    a = rng.standard_normal((3, 3))
    eta = a @ a.T + 0.5 * np.eye(3)
    y, r = sample_spd_polar(eta, profile, scale, 500, rng, return_eigen_logs=True)
    assert y.shape == (500, 3, 3) and r.shape == (500, 3)
    np.testing.assert_array_equal(y, np.swapaxes(y, 1, 2))
    assert np.all(np.linalg.eigvalsh(y) > 0)
    dist, logs = _affine_dist(eta, y)
    np.testing.assert_allclose(dist, np.linalg.norm(r, axis=1), rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(logs, np.sort(r, axis=1), atol=1e-9)
    if profile == "uniform":
        assert np.all(dist <= scale + 1e-9)
    y2 = sample_spd_polar(eta, profile, scale, 500, np.random.default_rng(SEED + 5))
    assert y2.shape == (500, 3, 3)


def test_sample_spd_polar_law_of_distance_m2():
    # KS (alpha = 1e-6) of dist(eta, Y) computed from the matrices themselves.
    eta = np.array([[2.0, 0.3], [0.3, 0.5]])
    y = sample_spd_polar(eta, "gaussian", 0.9, 20_000, np.random.default_rng(SEED))
    dist, _ = _affine_dist(eta, y)
    assert stats.kstest(dist, _radius_cdf("gaussian", 0.9)).pvalue > ALPHA


def test_spd_laplace_not_normalisable_raises():
    with pytest.raises(UnavailableError, match=r"1\.41421.*not normalisable") as info:
        sample_eigen_logs(2, "laplace", 1.5, 10, np.random.default_rng(0))
    assert info.value.param == "scale"
    with pytest.raises(UnavailableError, match=r"0\.707107"):
        sample_spd_polar(np.eye(3), "laplace", 0.71, 10, np.random.default_rng(0))
    with pytest.raises(UnavailableError, match=r"1\.41421"):
        sample_spd_polar(np.eye(2), "laplace", math.sqrt(2), 10, np.random.default_rng(0))
    sample_eigen_logs(2, "laplace", 1.4, 10, np.random.default_rng(0))  # inside: fine


def test_hopeless_acceptance_raises_naming_scale():
    with pytest.raises(UnavailableError, match=r"scale=1\.0") as info:
        sample_eigen_logs(16, "gaussian", 1.0, 10, np.random.default_rng(0))
    assert info.value.param == "scale"


def test_validation():
    rng = np.random.default_rng(0)
    assert sample_eigen_logs(2, "gaussian", 0.5, 0, rng).shape == (0, 2)
    assert sample_eigen_logs(2, "gaussian", 0.5, 1, rng).shape == (1, 2)
    np.testing.assert_array_equal(
        sample_spd_polar(np.eye(2), "gaussian", 0.5, 50, 3), sample_spd_polar(np.eye(2), "gaussian", 0.5, 50, 3)
    )
    with pytest.raises(OffManifoldError, match="symmetric"):
        sample_spd_polar(np.array([[1.0, 0.5], [0.0, 1.0]]), "gaussian", 0.5, 3, rng)
    with pytest.raises(OffManifoldError, match="positive definite"):
        sample_spd_polar(np.array([[1.0, 2.0], [2.0, 1.0]]), "gaussian", 0.5, 3, rng)
    with pytest.raises(InvalidParameterError, match="eta"):
        sample_spd_polar(np.ones((2, 3)), "gaussian", 0.5, 3, rng)
    with pytest.raises(InvalidParameterError, match="eta"):
        sample_spd_polar([[1.0, np.nan], [np.nan, 1.0]], "gaussian", 0.5, 3, rng)
    with pytest.raises(InvalidParameterError, match="profile"):
        sample_eigen_logs(2, "cauchy", 0.5, 3, rng)
    with pytest.raises(InvalidParameterError, match="scale"):
        sample_eigen_logs(2, "gaussian", -0.5, 3, rng)
    with pytest.raises(InvalidParameterError, match="scale"):
        sample_eigen_logs(2, "gaussian", True, 3, rng)
    with pytest.raises(InvalidParameterError, match="method"):
        sample_eigen_logs(2, "gaussian", 0.5, 3, rng, method="mcmc")
    with pytest.raises(InvalidParameterError, match="m"):
        sample_eigen_logs(0, "gaussian", 0.5, 3, rng)
    with pytest.raises(InvalidParameterError, match="size"):
        sample_eigen_logs(2, "gaussian", 0.5, -3, rng)
    with pytest.raises(InvalidParameterError, match="rng"):
        sample_eigen_logs(2, "gaussian", 0.5, 3, "seed")
    with pytest.raises(InvalidParameterError, match="return_eigen_logs"):
        sample_spd_polar(np.eye(2), "gaussian", 0.5, 3, rng, return_eigen_logs=1)
    assert set(EIGEN_METHODS) == {"combined", "exponential", "vandermonde"}
