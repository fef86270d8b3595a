"""Tangent Gaussian mechanism (docs/specification.md §5.3): contract, sample law, calibration, labels, density."""

import numpy as np
import pytest
from scipy import stats

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.spd import sym_function, symmetric_basis
from geodp_core.mechanisms import LABEL_EXACT, LABEL_NO_GUARANTEE, get_mechanism
from geodp_core.mechanisms.tangent_gaussian import chi_mean, gaussian_sigma_for_target
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    analytic_gaussian_sigma,
    gdp_delta,
    implies,
)
from tests.mechanisms.contract import MechanismContract

SEED = 20261121
ALPHA = 1e-6  # type-I error of every statistical test in this file


class TestContractLogEuclidean(MechanismContract):
    name = "tangent_gaussian"
    manifold_args = ("spd", 2, "log_euclidean")
    target = ApproxDP(0.5, 1e-6)
    sensitivity = 0.1


class TestContractClassical(MechanismContract):
    name = "tangent_gaussian"
    manifold_args = ("spd", 3, "log_euclidean")
    target = ApproxDP(0.5, 1e-6)
    calibrate_options = {"calibration": "classical"}


class TestContractSphereBaseline(MechanismContract):
    name = "tangent_gaussian"
    manifold_args = ("sphere", 2)
    target = GDP(1.0)


class TestContractHyperbolicBaseline(MechanismContract):
    name = "tangent_gaussian"
    manifold_args = ("hyperbolic", 2)
    target = ZCDP(0.5)


def _center(manifold, scale=0.4):
    base = manifold.default_center()
    return manifold.exp(base, manifold.from_frame(base, np.linspace(-scale, scale, manifold.dim) + 0.1))


def _isometric_vec(sym):
    """Coordinates of symmetric matrices in the Frobenius-orthonormal basis (off-diagonals x sqrt 2)."""
    basis = symmetric_basis(sym.shape[-1])
    return np.einsum("...ij,kij->...k", sym, basis)


# ------------------------------------------------------------------ sample law
def test_log_euclidean_chart_noise_is_isotropic_gaussian():
    # Power against: off-diagonals not scaled by sqrt 2 (their coordinate would have variance
    # sigma^2/2 or 2 sigma^2), noise added to eta instead of log(eta), wrong sigma.
    manifold = get_manifold("spd", 3, "log_euclidean")
    mech = get_mechanism("tangent_gaussian", manifold)
    cal = mech.calibrate(GDP(0.8), 0.2)
    sigma = cal.noise["sigma"]
    eta = _center(manifold)
    out = mech.sample(eta, cal, 4000, np.random.default_rng(SEED))
    coords = _isometric_vec(sym_function(out, np.log) - sym_function(eta, np.log))
    assert coords.shape == (4000, 6)
    for k in range(6):  # each KS at alpha = 1e-6
        assert stats.kstest(coords[:, k] / sigma, "norm").pvalue > ALPHA, k
    # off-diagonal matrix entries themselves have standard deviation sigma / sqrt 2
    entry = (sym_function(out, np.log) - sym_function(eta, np.log))[:, 0, 1]
    assert stats.kstest(entry * np.sqrt(2.0) / sigma, "norm").pvalue > ALPHA


def test_log_euclidean_release_is_expm_of_logm_plus_noise():
    manifold = get_manifold("spd", 2, "log_euclidean")
    mech = get_mechanism("tangent_gaussian", manifold)
    cal = mech.calibrate(ApproxDP(0.7, 1e-5), 0.3)
    eta = _center(manifold)
    out = mech.sample(eta, cal, 50, np.random.default_rng(7))
    z = cal.noise["sigma"] * np.random.default_rng(7).standard_normal((50, 3))
    expected = sym_function(sym_function(eta, np.log) + np.einsum("sk,kij->sij", z, symmetric_basis(2)), np.exp)
    np.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("args", [("euclidean", 3), ("spd", 2, "log_cholesky"), ("hyperbolic", 2),
                                  ("spd", 2, "affine")])
def test_distance_to_center_is_sigma_chi(args):
    # On every Hadamard space dist(eta, Exp_eta v) = |v|, so dist/sigma ~ chi_d (Euclidean limit on R^d).
    # Power against: wrong frame normalisation (non-unit frame vectors), missing sigma.
    manifold = get_manifold(*args)
    mech = get_mechanism("tangent_gaussian", manifold)
    cal = mech.calibrate(GDP(1.0), 0.3)
    eta = _center(manifold)
    dist = manifold.dist(mech.sample(eta, cal, 3000, np.random.default_rng(SEED + 1)), eta)
    assert stats.kstest(dist / cal.noise["sigma"], stats.chi(manifold.dim).cdf).pvalue > ALPHA


def test_sphere_baseline_wraps_and_stays_on_sphere():
    manifold = get_manifold("sphere", 2)
    mech = get_mechanism("tangent_gaussian", manifold)
    cal = mech.calibrate(GDP(0.05), 0.5)  # sigma = 10: noise wraps around many times
    out = mech.sample(manifold.default_center(), cal, 500, np.random.default_rng(1))
    assert manifold.belongs(out, atol=1e-9).all()
    assert manifold.dist(out, manifold.default_center()).max() <= np.pi + 1e-12


# ----------------------------------------------------------------- calibration
def test_sigma_formulas_per_target():
    delta_s = 0.25
    mech = get_mechanism("tangent_gaussian", get_manifold("spd", 2, "log_euclidean"))
    sig = lambda t, **o: mech.calibrate(t, delta_s, **o).noise["sigma"]
    np.testing.assert_allclose(sig(GDP(0.5)), delta_s / 0.5, rtol=1e-10)
    np.testing.assert_allclose(sig(RDP(3.0, 0.4)), delta_s * np.sqrt(3.0 / 0.8), rtol=1e-10)
    np.testing.assert_allclose(sig(ZCDP(0.2)), delta_s / np.sqrt(0.4), rtol=1e-10)
    np.testing.assert_allclose(sig(ApproxDP(1.0, 1e-5)), analytic_gaussian_sigma(1.0, 1e-5, delta_s), rtol=1e-10)
    np.testing.assert_allclose(sig(ApproxDP(0.5, 1e-5), calibration="classical"),
                               delta_s * np.sqrt(2 * np.log(1.25e5)) / 0.5, rtol=1e-10)


@pytest.mark.parametrize("eps", [0.05, 0.3, 0.9])
@pytest.mark.parametrize("delta", [1e-3, 1e-9])
def test_classical_sigma_exceeds_analytic(eps, delta):
    manifold = get_manifold("spd", 2, "log_euclidean")
    mech = get_mechanism("tangent_gaussian", manifold)
    sensitivity = 0.02  # keeps the noise inside the double-precision range of SPD(2) (sigma is linear in it)
    classical = mech.calibrate(ApproxDP(eps, delta), sensitivity, calibration="classical")
    analytic = mech.calibrate(ApproxDP(eps, delta), sensitivity)
    assert classical.noise["sigma"] > analytic.noise["sigma"]
    # the classical sigma over-delivers: its exact delta is below the target
    assert classical.achieved.delta <= delta
    np.testing.assert_allclose(classical.achieved.delta, gdp_delta(sensitivity / classical.noise["sigma"], eps), rtol=1e-12)
    assert implies(classical.achieved, ApproxDP(eps, delta)) and implies(analytic.achieved, ApproxDP(eps, delta))


@pytest.mark.parametrize("eps", [1.0, 2.5])
def test_classical_refused_for_large_eps(eps):
    mech = get_mechanism("tangent_gaussian", get_manifold("spd", 2, "log_euclidean"))
    with pytest.raises(UnavailableError, match="classical"):
        mech.calibrate(ApproxDP(eps, 1e-5), 0.1, calibration="classical")


def test_classical_option_ignored_with_note_for_other_targets():
    mech = get_mechanism("tangent_gaussian", get_manifold("euclidean", 2))
    cal = mech.calibrate(GDP(1.0), 0.1, calibration="classical")
    assert cal.noise["sigma"] == pytest.approx(0.1)
    assert any("classical" in n for n in cal.notes)


@pytest.mark.parametrize("target", [PureDP(1.0), PureDP(10.0)])
def test_pure_dp_unavailable(target):
    mech = get_mechanism("tangent_gaussian", get_manifold("spd", 2, "log_euclidean"))
    with pytest.raises(UnavailableError, match="unbounded"):
        mech.calibrate(target, 0.1)


def test_achieved_verified_on_safe_side_many_targets():
    rng = np.random.default_rng(SEED)
    for _ in range(40):
        delta_s = float(np.exp(rng.uniform(-6, 2)))
        for target in (GDP(float(np.exp(rng.uniform(-4, 2)))), ZCDP(float(np.exp(rng.uniform(-6, 2)))),
                       RDP(float(1 + np.exp(rng.uniform(-3, 4))), float(np.exp(rng.uniform(-5, 2)))),
                       ApproxDP(float(np.exp(rng.uniform(-4, 2))), float(np.exp(rng.uniform(-25, -2))))):
            sigma, achieved, _ = gaussian_sigma_for_target(target, delta_s)
            assert implies(achieved, target)
            assert type(achieved) is type(target)


@pytest.mark.parametrize("args,label", [
    (("spd", 2, "log_euclidean"), LABEL_EXACT),
    (("spd", 2, "log_cholesky"), LABEL_EXACT),
    (("euclidean", 4), LABEL_EXACT),
    (("sphere", 2), LABEL_NO_GUARANTEE),
    (("hyperbolic", 3), LABEL_NO_GUARANTEE),
    (("spd", 2, "affine"), LABEL_NO_GUARANTEE),
])
def test_honesty_labels(args, label):
    mech = get_mechanism("tangent_gaussian", get_manifold(*args))
    assert mech.available().ok
    cal = mech.calibrate(ApproxDP(0.5, 1e-6), 0.1)
    assert cal.label == label
    if label == LABEL_NO_GUARANTEE:
        text = " ".join(cal.notes)
        assert "NO FORMAL GUARANTEE" in text and "moves with the data" in text
        if args[0] == "sphere":
            assert "not injective" in text


@pytest.mark.parametrize("options,param", [({"calibration": "fast"}, "calibration"),
                                           ({"calibration": None}, "calibration"),
                                           ({"footpoint": None}, "footpoint")])
def test_bad_options(options, param):
    mech = get_mechanism("tangent_gaussian", get_manifold("spd", 2, "log_euclidean"))
    with pytest.raises(InvalidParameterError, match=param):
        mech.calibrate(GDP(1.0), 0.1, **options)


def test_overflowing_noise_raises():
    mech = get_mechanism("tangent_gaussian", get_manifold("hyperbolic", 2))
    # sigma = 1e4: most releases would overflow cosh. Refused at calibration (public), never in sample,
    # where a failure would depend on the summary.
    with pytest.raises(UnavailableError, match="double precision") as info:
        mech.calibrate(GDP(1e-3), 10.0)
    assert info.value.param == "target"


# --------------------------------------------------------- density and utility
def test_log_density_log_euclidean_matches_chart_gaussian():
    manifold = get_manifold("spd", 2, "log_euclidean")
    mech = get_mechanism("tangent_gaussian", manifold)
    cal = mech.calibrate(GDP(0.7), 0.2)
    eta = _center(manifold)
    pts = mech.sample(eta, cal, 20, np.random.default_rng(2))
    coords = _isometric_vec(sym_function(pts, np.log) - sym_function(eta, np.log))
    expected = stats.multivariate_normal(np.zeros(3), cal.noise["sigma"] ** 2 * np.eye(3)).logpdf(coords)
    np.testing.assert_allclose(mech.log_density(eta, pts, cal), expected, rtol=1e-9)


def test_log_density_integrates_to_one_on_h2():
    # Polar coordinates around eta: vol = sinh(r) dr dtheta. Power against a wrong Jacobian term.
    manifold = get_manifold("hyperbolic", 2)
    mech = get_mechanism("tangent_gaussian", manifold)
    cal = mech.calibrate(GDP(1.0), 0.5)
    eta = _center(manifold)
    r = np.linspace(0.0, 12 * cal.noise["sigma"], 1201)[1:]
    theta = np.linspace(0.0, 2 * np.pi, 181)[:-1]
    rr, tt = np.meshgrid(r, theta, indexing="ij")
    coords = np.stack([rr * np.cos(tt), rr * np.sin(tt)], axis=-1)
    pts = manifold.exp(eta, manifold.from_frame(eta, coords))
    integrand = np.exp(mech.log_density(eta, pts.reshape(-1, 3), cal)).reshape(rr.shape) * np.sinh(rr)
    total = np.trapezoid(integrand.mean(axis=1) * 2 * np.pi, r)
    assert total == pytest.approx(1.0, abs=1e-4)


def test_log_density_not_on_sphere():
    mech = get_mechanism("tangent_gaussian", get_manifold("sphere", 2))
    cal = mech.calibrate(GDP(1.0), 0.1)
    c = mech.manifold.default_center()
    with pytest.raises(NotImplementedError, match="not injective"):
        mech.log_density(c, c[None], cal)


@pytest.mark.parametrize("args", [("hyperbolic", 2), ("spd", 2, "affine"), ("spd", 2, "log_euclidean")])
def test_utility_bound_is_exact_mean_distance_on_hadamard(args):
    # Equality on Hadamard spaces: |mean - bound| within 6 standard errors (two-sided, ~2e-9).
    manifold = get_manifold(*args)
    mech = get_mechanism("tangent_gaussian", manifold)
    cal = mech.calibrate(GDP(0.5), 0.2)
    eta = _center(manifold)
    bound = mech.utility_bound(cal)
    assert bound == pytest.approx(cal.noise["sigma"] * chi_mean(manifold.dim))
    dist = manifold.dist(mech.sample(eta, cal, 4000, np.random.default_rng(SEED + 5)), eta)
    assert abs(dist.mean() - bound) < 6 * dist.std(ddof=1) / np.sqrt(dist.size)


def test_chi_mean_closed_forms():
    assert chi_mean(1) == pytest.approx(np.sqrt(2 / np.pi))
    assert chi_mean(2) == pytest.approx(np.sqrt(np.pi / 2))
    assert chi_mean(3) == pytest.approx(2 * np.sqrt(2 / np.pi))
    for d in (1, 4, 15, 120):
        assert chi_mean(d) == pytest.approx(stats.chi(d).mean(), rel=1e-12)


@pytest.mark.parametrize("args", [("spd", 3, "log_euclidean"), ("spd", 2, "log_cholesky"), ("euclidean", 3),
                                  ("hyperbolic", 2), ("spd", 2, "affine"), ("sphere", 2)])
def test_the_one_tangent_noise_path_is_exp_of_the_frame_vector(args):
    # exp_frame_noise (tangent Gaussian and exponential-wrapped mechanisms): the chart shortcut on flat spaces and
    # Exp elsewhere both equal Exp_p of the frame vector, for one footpoint and for one footpoint per row.
    from geodp_core.geometry import get_manifold
    from geodp_core.mechanisms.tangent_gaussian import exp_frame_noise

    manifold = get_manifold(*args)
    rng = np.random.default_rng(5)
    center = manifold.default_center()
    footpoints = manifold.exp(np.broadcast_to(center, (4,) + center.shape),
                              manifold.from_frame(center, 0.5 * rng.standard_normal((4, manifold.dim))))
    coords = 0.4 * rng.standard_normal((4, manifold.dim))
    for base in (footpoints[0], footpoints):
        expected = manifold.exp(base, manifold.from_frame(base, coords))
        np.testing.assert_allclose(exp_frame_noise(manifold, base, coords), expected, rtol=1e-10, atol=1e-12)
