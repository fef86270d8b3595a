"""Exponential-wrapped Laplace / Gaussian (docs/specification.md §5.4): contract, laws, Lipschitz, two-stage, utility."""

import numpy as np
import pytest
from scipy import stats

from geodp_core.exceptions import InvalidParameterError, OffManifoldError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.spd import sym_function, symmetric_basis
from geodp_core.mechanisms import LABEL_EXACT, get_mechanism
from geodp_core.mechanisms.exponential_wrapped import split_target
from geodp_core.mechanisms.tangent_gaussian import chi_mean
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    analytic_gaussian_sigma,
    compose,
    eps_dp_to_gdp,
    gdp_delta,
    implies,
)
from tests.mechanisms.contract import MechanismContract

SEED = 20261122
ALPHA = 1e-6  # type-I error of every statistical test in this file
HADAMARD = [("hyperbolic", 2), ("spd", 2, "affine")]


class TestContractLaplaceH2(MechanismContract):
    name = "ew_laplace"
    manifold_args = ("hyperbolic", 2)
    target = PureDP(1.0)
    unavailable_on = [("sphere", 2), ("sphere", 1)]


class TestContractGaussianSPDAffine(MechanismContract):
    name = "ew_gaussian"
    manifold_args = ("spd", 2, "affine")
    target = GDP(0.5)
    unavailable_on = [("sphere", 3)]


class TestContractGaussianLogCholeskyTwoStage(MechanismContract):
    name = "ew_gaussian"
    manifold_args = ("spd", 3, "log_cholesky")
    target = ApproxDP(1.0, 1e-6)
    calibrate_options = {"footpoint": "two_stage", "footpoint_budget_fraction": 0.3}


class TestContractLaplaceEuclidean(MechanismContract):
    name = "ew_laplace"
    manifold_args = ("euclidean", 3)
    target = RDP(4.0, 0.5)


class TestContractLaplaceLogEuclideanTwoStage(MechanismContract):
    name = "ew_laplace"
    manifold_args = ("spd", 2, "log_euclidean")
    target = PureDP(2.0)
    calibrate_options = {"footpoint": "two_stage"}


def _point(manifold, coords):
    base = manifold.default_center()
    return manifold.exp(base, manifold.from_frame(base, np.asarray(coords, dtype=float)))


def _coords(manifold, scale):
    return scale * np.linspace(-1.0, 1.0, manifold.dim) + 0.5 * scale


def _chart_coords(points):
    """log-Euclidean chart in the Frobenius-orthonormal basis (isometric vectorisation)."""
    return np.einsum("...ij,kij->...k", sym_function(points, np.log), symmetric_basis(points.shape[-1]))


def _law(name, dim, sigma):
    return stats.chi(dim, scale=sigma) if name == "ew_gaussian" else stats.gamma(dim, scale=sigma)


# ---------------------------------------------------------------- availability
@pytest.mark.parametrize("name", ["ew_laplace", "ew_gaussian"])
def test_availability(name):
    for args in [("hyperbolic", 2), ("hyperbolic", 5), ("spd", 2, "affine"), ("spd", 3, "log_euclidean"),
                 ("spd", 2, "log_cholesky"), ("euclidean", 1)]:
        assert get_mechanism(name, get_manifold(*args)).available().ok, args
    ok, reason = get_mechanism(name, get_manifold("sphere", 2)).available()
    assert not ok and "Hadamard" in reason and "injective" in reason and "1-Lipschitz" in reason
    with pytest.raises(UnavailableError, match="Hadamard"):
        get_mechanism(name, get_manifold("sphere", 2)).calibrate(GDP(1.0), 0.1)


# -------------------------------------------------- flat spaces: Euclidean limit
@pytest.mark.parametrize("name,target", [("ew_gaussian", GDP(0.8)), ("ew_laplace", PureDP(0.8))])
@pytest.mark.parametrize("args", [("euclidean", 3), ("spd", 2, "log_euclidean")])
def test_flat_equals_euclidean_mechanism_in_chart(name, target, args):
    # Chart radius |log Y - log eta|_F is sigma chi_d (Gaussian) / Gamma(d, sigma) (K-norm Laplace);
    # footpoint at identity / origin, eta away from it. Power against: wrong radius law (e.g.
    # Gamma(1, sigma) per coordinate), Log_p0(eta) not added, sigma off by sqrt 2.
    manifold = get_manifold(*args)
    mech = get_mechanism(name, manifold)
    cal = mech.calibrate(target, 0.25)
    eta = _point(manifold, _coords(manifold, 0.6))
    out = mech.sample(eta, cal, 4000, np.random.default_rng(SEED))
    if manifold.name == "spd":
        radius = np.linalg.norm(_chart_coords(out) - _chart_coords(eta), axis=-1)
    else:
        radius = np.linalg.norm(out - eta, axis=-1)
    assert stats.kstest(radius, _law(name, manifold.dim, cal.noise["sigma"]).cdf).pvalue > ALPHA


def test_ewg_log_euclidean_identity_footpoint_is_tangent_gaussian():
    # The paper: with p0 = I on log-Euclidean SPD, EWG reduces to Utpala's tangent Gaussian.
    manifold = get_manifold("spd", 3, "log_euclidean")
    eta = _point(manifold, _coords(manifold, 0.5))
    ewg = get_mechanism("ew_gaussian", manifold)
    tg = get_mechanism("tangent_gaussian", manifold)
    cal_ewg, cal_tg = ewg.calibrate(ApproxDP(0.5, 1e-6), 0.1), tg.calibrate(ApproxDP(0.5, 1e-6), 0.1)
    assert cal_ewg.noise["sigma"] == cal_tg.noise["sigma"]
    a = ewg.sample(eta, cal_ewg, 100, np.random.default_rng(3))
    b = tg.sample(eta, cal_tg, 100, np.random.default_rng(3))
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


# ----------------------------------------------- curved spaces: the tangent law
@pytest.mark.parametrize("args", HADAMARD)
def test_ewg_tangent_coordinates_gaussian_at_footpoint(args):
    # Frame coordinates of Log_p0(Y) - Log_p0(eta) are iid N(0, sigma^2) (footpoint != eta).
    # Power against: noise drawn in the frame at eta instead of p0, non-orthonormal frame.
    manifold = get_manifold(*args)
    mech = get_mechanism("ew_gaussian", manifold)
    p0 = _point(manifold, _coords(manifold, -0.3))
    eta = _point(manifold, _coords(manifold, 0.7))
    cal = mech.calibrate(GDP(1.0), 0.4, footpoint=p0)
    out = mech.sample(eta, cal, 4000, np.random.default_rng(SEED + 1))
    diff = manifold.to_frame(p0, manifold.log(p0, out)) - manifold.to_frame(p0, manifold.log(p0, eta))
    for k in range(manifold.dim):
        assert stats.kstest(diff[:, k] / cal.noise["sigma"], "norm").pvalue > ALPHA, k


@pytest.mark.parametrize("args", HADAMARD)
def test_ewl_tangent_radius_gamma_and_direction_uniform(args):
    # |Log_p0(Y) - Log_p0(eta)| ~ Gamma(d, sigma); direction uniform (KS of the first frame
    # coordinate of the unit direction against its Beta law). Power against: Laplace per coordinate.
    manifold = get_manifold(*args)
    mech = get_mechanism("ew_laplace", manifold)
    p0 = _point(manifold, _coords(manifold, 0.2))
    eta = _point(manifold, _coords(manifold, -0.5))
    cal = mech.calibrate(PureDP(2.0), 0.4, footpoint=p0)
    out = mech.sample(eta, cal, 4000, np.random.default_rng(SEED + 2))
    diff = manifold.to_frame(p0, manifold.log(p0, out)) - manifold.to_frame(p0, manifold.log(p0, eta))
    radius = np.linalg.norm(diff, axis=-1)
    d = manifold.dim
    assert stats.kstest(radius, stats.gamma(d, scale=cal.noise["sigma"]).cdf).pvalue > ALPHA
    # u_1 of a uniform unit vector in R^d: (u_1 + 1)/2 ~ Beta((d-1)/2, (d-1)/2)
    u1 = diff[:, 0] / radius
    assert stats.kstest((u1 + 1) / 2, stats.beta((d - 1) / 2, (d - 1) / 2).cdf).pvalue > ALPHA


@pytest.mark.parametrize("args", HADAMARD)
def test_log_footpoint_is_1_lipschitz(args):
    # The reason EW is DP: |Log_p0 a - Log_p0 b|_{p0} <= dist(a, b) on Hadamard spaces.
    manifold = get_manifold(*args)
    rng = np.random.default_rng(SEED + 3)
    p0 = _point(manifold, _coords(manifold, 0.4))
    ratios = []
    # Scales keep the points within ~10 of p0: beyond, the hyperboloid coordinates (~e^r) make
    # float64 distances inaccurate (cancellation), which is not a property of the maths.
    for scale in (0.05, 0.5, 1.0, 2.0):
        a = _point(manifold, scale * rng.standard_normal((300, manifold.dim)))
        b = manifold.exp(a, manifold.from_frame(a, scale * rng.standard_normal((300, manifold.dim))))
        tangent_gap = np.linalg.norm(manifold.to_frame(p0, manifold.log(p0, a))
                                     - manifold.to_frame(p0, manifold.log(p0, b)), axis=-1)
        ratios.append(tangent_gap / manifold.dist(a, b))
    ratios = np.concatenate(ratios)
    assert ratios.max() <= 1.0 + 1e-8
    assert ratios.min() < 0.5  # curvature really contracts somewhere (the check is not vacuous)


def test_log_footpoint_not_lipschitz_on_sphere():
    # Why the sphere is excluded: two points near the antipode of p0 are close but their
    # Log_p0 images are about 2 pi apart.
    manifold = get_manifold("sphere", 2)
    p0 = manifold.default_center()
    a = manifold.exp(p0, manifold.from_frame(p0, [np.pi - 0.01, 0.0]))
    b = manifold.exp(p0, manifold.from_frame(p0, [-(np.pi - 0.01), 0.0]))
    gap = np.linalg.norm(manifold.to_frame(p0, manifold.log(p0, a)) - manifold.to_frame(p0, manifold.log(p0, b)))
    assert gap / manifold.dist(a, b) > 100


# ----------------------------------------------------------------- calibration
def test_sigma_formulas():
    delta_s = 0.3
    ewg = get_mechanism("ew_gaussian", get_manifold("hyperbolic", 3))
    ewl = get_mechanism("ew_laplace", get_manifold("hyperbolic", 3))
    np.testing.assert_allclose(ewg.calibrate(GDP(0.6), delta_s).noise["sigma"], delta_s / 0.6, rtol=1e-10)
    np.testing.assert_allclose(ewg.calibrate(RDP(5.0, 0.7), delta_s).noise["sigma"],
                               delta_s * np.sqrt(5.0 / 1.4), rtol=1e-10)
    np.testing.assert_allclose(ewg.calibrate(ZCDP(0.3), delta_s).noise["sigma"], delta_s / np.sqrt(0.6), rtol=1e-10)
    np.testing.assert_allclose(ewg.calibrate(ApproxDP(2.0, 1e-7), delta_s).noise["sigma"],
                               analytic_gaussian_sigma(2.0, 1e-7, delta_s), rtol=1e-10)
    np.testing.assert_allclose(ewl.calibrate(PureDP(0.4), delta_s).noise["sigma"], delta_s / 0.4, rtol=1e-10)
    # EWL at a GDP target through eps-DP => GDP: mu(eps) <= target mu
    cal = ewl.calibrate(GDP(0.9), delta_s)
    assert eps_dp_to_gdp(delta_s / cal.noise["sigma"]) <= 0.9
    with pytest.raises(UnavailableError, match="pure"):
        ewg.calibrate(PureDP(1.0), delta_s)


@pytest.mark.parametrize("name", ["ew_laplace", "ew_gaussian"])
def test_footpoint_default_custom_and_validation(name):
    manifold = get_manifold("spd", 2, "affine")
    mech = get_mechanism(name, manifold)
    target = ZCDP(0.5)
    cal = mech.calibrate(target, 0.1)
    np.testing.assert_array_equal(cal.options["footpoint"], np.eye(2))
    assert cal.label == LABEL_EXACT and any("PUBLIC" in n for n in cal.notes)
    m0 = np.array([[2.0, 0.3], [0.3, 1.0]])
    np.testing.assert_array_equal(mech.calibrate(target, 0.1, footpoint=m0).options["footpoint"], m0)
    with pytest.raises(OffManifoldError, match="footpoint"):
        mech.calibrate(target, 0.1, footpoint=np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(InvalidParameterError, match="footpoint"):
        mech.calibrate(target, 0.1, footpoint="data_mean")
    with pytest.raises(InvalidParameterError, match="footpoint"):
        mech.calibrate(target, 0.1, footpoint=np.eye(3))
    with pytest.raises(InvalidParameterError, match="footpoint_budget_fraction"):
        mech.calibrate(target, 0.1, footpoint_budget_fraction=0.5)
    with pytest.raises(InvalidParameterError, match="anchor"):
        mech.calibrate(target, 0.1, anchor=m0)
    for bad in (0.0, 1.0, -0.1, float("nan"), True, "0.2"):
        with pytest.raises(InvalidParameterError, match="footpoint_budget_fraction"):
            mech.calibrate(target, 0.1, footpoint="two_stage", footpoint_budget_fraction=bad)


# ------------------------------------------------------------------- two-stage
def _stage_guarantee(name, target, sigma, delta_s):
    """Guarantee in the notion of ``target`` of one stage with noise ``sigma`` (independent closed forms)."""
    if name == "ew_gaussian":
        mu = delta_s / sigma
        if isinstance(target, GDP):
            return GDP(mu)
        if isinstance(target, RDP):
            return RDP(target.alpha, target.alpha * mu**2 / 2)
        if isinstance(target, ZCDP):
            return ZCDP(mu**2 / 2)
        return None
    eps = delta_s / sigma
    if isinstance(target, PureDP):
        return PureDP(eps)
    if isinstance(target, ZCDP):
        return ZCDP(eps**2 / 2)
    if isinstance(target, GDP):
        return GDP(eps_dp_to_gdp(eps))
    return None


@pytest.mark.parametrize("fraction", [0.2, 0.5, 0.75])
@pytest.mark.parametrize("name,target", [
    ("ew_laplace", PureDP(1.5)), ("ew_laplace", ApproxDP(1.0, 1e-6)), ("ew_laplace", GDP(1.0)),
    ("ew_laplace", RDP(3.0, 1.0)), ("ew_laplace", ZCDP(0.4)),
    ("ew_gaussian", ApproxDP(1.0, 1e-6)), ("ew_gaussian", GDP(1.0)), ("ew_gaussian", RDP(3.0, 1.0)),
    ("ew_gaussian", ZCDP(0.4)),
])
def test_two_stage_composition(name, target, fraction):
    delta_s = 0.2
    mech = get_mechanism(name, get_manifold("hyperbolic", 2))
    cal = mech.calibrate(target, delta_s, footpoint="two_stage", footpoint_budget_fraction=fraction)
    assert implies(cal.achieved, target) and type(cal.achieved) is type(target)
    assert cal.label == LABEL_EXACT
    assert f"share {fraction:g}" in cal.notes[0]
    s1, s2 = cal.noise["sigma_first_stage"], cal.noise["sigma"]
    single = mech.calibrate(target, delta_s).noise["sigma"]
    assert s1 > single and s2 > single  # each stage gets less budget than a single release
    # Recompute the composed guarantee from the two sigmas with independent closed forms.
    first, second = split_target(target, fraction)
    g1 = _stage_guarantee(name, target, s1, delta_s)
    g2 = _stage_guarantee(name, target, s2, delta_s)
    if g1 is not None:
        assert implies(compose([g1, g2]), target)
        assert implies(g1, first) and implies(g2, second)
    if isinstance(target, ApproxDP):
        if name == "ew_gaussian":
            d1 = gdp_delta(delta_s / s1, first.eps)
            d2 = gdp_delta(delta_s / s2, second.eps)
            assert first.eps + second.eps <= target.eps and d1 + d2 <= target.delta
        else:
            assert delta_s / s1 + delta_s / s2 <= target.eps
    if isinstance(target, PureDP):
        np.testing.assert_allclose([delta_s / s1, delta_s / s2],
                                   [fraction * target.eps, (1 - fraction) * target.eps], rtol=1e-9)
    if name == "ew_gaussian" and isinstance(target, GDP):
        np.testing.assert_allclose((delta_s / s1) ** 2, fraction * target.mu**2, rtol=1e-9)


@pytest.mark.parametrize("name", ["ew_laplace", "ew_gaussian"])
@pytest.mark.parametrize("args", HADAMARD)
def test_two_stage_samples_on_manifold_and_bounded(name, args):
    manifold = get_manifold(*args)
    mech = get_mechanism(name, manifold)
    target = GDP(1.0)
    cal = mech.calibrate(target, 0.2, footpoint="two_stage", footpoint_budget_fraction=0.25)
    eta = _point(manifold, _coords(manifold, 0.8))
    out = mech.sample(eta, cal, 3000, np.random.default_rng(SEED + 4))
    assert out.shape == (3000,) + manifold.point_shape and manifold.belongs(out).all()
    dist = manifold.dist(out, eta)
    assert dist.mean() < mech.utility_bound(cal, eta)
    # the two-stage release is closer than the single release at the (far) public footpoint
    single = mech.calibrate(target, 0.2, footpoint=_point(manifold, _coords(manifold, -1.5)))
    far = manifold.dist(mech.sample(eta, single, 3000, np.random.default_rng(SEED + 5)), eta)
    if manifold.name == "hyperbolic":
        assert dist.mean() < far.mean()


def test_two_stage_flat_law_is_second_stage_noise():
    # On R^d the footpoint is irrelevant: the two-stage release is eta + N(0, sigma2^2 I).
    # Power against: stage-1 noise leaking into the release, stage-2 sigma swapped with stage-1.
    manifold = get_manifold("euclidean", 3)
    mech = get_mechanism("ew_gaussian", manifold)
    cal = mech.calibrate(ZCDP(0.5), 0.3, footpoint="two_stage", footpoint_budget_fraction=0.4)
    eta = np.array([1.0, -2.0, 0.5])
    out = mech.sample(eta, cal, 4000, np.random.default_rng(SEED + 6))
    radius = np.linalg.norm(out - eta, axis=-1)
    assert stats.kstest(radius, stats.chi(3, scale=cal.noise["sigma"]).cdf).pvalue > ALPHA


def test_two_stage_first_footpoint_and_options_recorded():
    manifold = get_manifold("hyperbolic", 2)
    mech = get_mechanism("ew_laplace", manifold)
    m0 = _point(manifold, [0.3, -0.2])
    cal = mech.calibrate(PureDP(1.0), 0.1, footpoint="two_stage", first_stage_footpoint=m0)
    assert cal.options["footpoint"] == "two_stage" and cal.options["footpoint_budget_fraction"] == 0.2
    np.testing.assert_array_equal(cal.options["first_stage_footpoint"], m0)
    with pytest.raises(InvalidParameterError, match="first_stage_footpoint"):
        mech.calibrate(PureDP(1.0), 0.1, first_stage_footpoint=m0)
    with pytest.raises(NotImplementedError, match="two_stage"):
        mech.log_density(m0, m0[None], cal)


@pytest.mark.parametrize("target", [PureDP(1.0), ApproxDP(0.5, 1e-5), GDP(2.0), RDP(2.0, 0.1), ZCDP(3.0)])
@pytest.mark.parametrize("fraction", [1e-3, 0.2, 0.999])
def test_split_target_composes_back(target, fraction):
    first, second = split_target(target, fraction)
    composed = compose([first, second])
    for name in ("eps", "delta", "mu", "rho"):
        if hasattr(target, name):
            assert getattr(composed, name) == pytest.approx(getattr(target, name), rel=1e-12)


# ------------------------------------------------------- density and utility
@pytest.mark.parametrize("name", ["ew_laplace", "ew_gaussian"])
def test_log_density_integrates_to_one_on_h2(name):
    # Polar coordinates around the footpoint p0 (!= eta): vol = sinh(r) dr dtheta.
    # Power against: a missing or wrong Jacobian term, wrong normalising constant.
    manifold = get_manifold("hyperbolic", 2)
    mech = get_mechanism(name, manifold)
    p0 = _point(manifold, [0.2, 0.1])
    eta = _point(manifold, [0.5, -0.3])
    cal = mech.calibrate(PureDP(2.0) if name == "ew_laplace" else GDP(1.0), 0.5, footpoint=p0)
    r = np.linspace(0.0, 40 * cal.noise["sigma"] + 1.0, 3001)[1:]
    theta = np.linspace(0.0, 2 * np.pi, 241)[:-1]
    rr, tt = np.meshgrid(r, theta, indexing="ij")
    pts = manifold.exp(p0, manifold.from_frame(p0, np.stack([rr * np.cos(tt), rr * np.sin(tt)], axis=-1)))
    dens = np.exp(mech.log_density(eta, pts.reshape(-1, 3), cal)).reshape(rr.shape)
    total = np.trapezoid((dens * np.sinh(rr)).mean(axis=1) * 2 * np.pi, r)
    assert total == pytest.approx(1.0, abs=2e-4)


def test_log_density_flat_matches_scipy():
    manifold = get_manifold("spd", 2, "log_euclidean")
    mech = get_mechanism("ew_gaussian", manifold)
    eta = _point(manifold, [0.3, -0.2, 0.4])
    p0 = _point(manifold, [-0.5, 0.1, 0.2])
    cal = mech.calibrate(GDP(0.5), 0.2, footpoint=p0)
    pts = mech.sample(eta, cal, 25, np.random.default_rng(0))
    expected = stats.multivariate_normal(_chart_coords(eta), cal.noise["sigma"] ** 2 * np.eye(3)).logpdf(
        _chart_coords(pts))
    np.testing.assert_allclose(mech.log_density(eta, pts, cal), expected, rtol=1e-8)


@pytest.mark.parametrize("name", ["ew_laplace", "ew_gaussian"])
@pytest.mark.parametrize("args", HADAMARD)
def test_utility_bound(name, args):
    # docs/specification.md §5.4 / the paper: E dist <= E|z| + 2 dist(p0, eta), E|z| = sigma d (EWL) or
    # sigma sqrt2 Gamma((d+1)/2)/Gamma(d/2) (EWG). With p0 = eta the bound is an equality
    # (Exp_eta is a radial isometry on Hadamard spaces): this checks the constants
    # (|mean - bound| < 6 standard errors, two-sided type-I error ~2e-9).
    manifold = get_manifold(*args)
    mech = get_mechanism(name, manifold)
    target = PureDP(1.0) if name == "ew_laplace" else GDP(1.0)
    eta = _point(manifold, _coords(manifold, 0.6))
    cal = mech.calibrate(target, 0.3, footpoint=eta)
    sigma, d = cal.noise["sigma"], manifold.dim
    bound = mech.utility_bound(cal, eta)
    assert bound == pytest.approx(sigma * d if name == "ew_laplace" else sigma * chi_mean(d), rel=1e-12)
    dist = manifold.dist(mech.sample(eta, cal, 4000, np.random.default_rng(SEED + 7)), eta)
    assert abs(dist.mean() - bound) < 6 * dist.std(ddof=1) / np.sqrt(dist.size)
    # Footpoint away from eta: the bound holds (mean well below it) and is not absurdly loose.
    p0 = _point(manifold, _coords(manifold, -0.4))
    cal_far = mech.calibrate(target, 0.3, footpoint=p0)
    gap = manifold.dist(p0, eta)
    bound_far = mech.utility_bound(cal_far, eta)
    assert bound_far == pytest.approx(bound + 2 * gap, rel=1e-12)
    dist_far = manifold.dist(mech.sample(eta, cal_far, 4000, np.random.default_rng(SEED + 8)), eta)
    assert dist_far.mean() + 6 * dist_far.std(ddof=1) / np.sqrt(dist_far.size) < bound_far
    assert mech.utility_bound(cal_far) is None


def test_overflowing_noise_raises():
    mech = get_mechanism("ew_gaussian", get_manifold("hyperbolic", 2))
    # most releases would overflow: refused at calibration (public), never in sample (summary-dependent)
    with pytest.raises(UnavailableError, match="double precision") as info:
        mech.calibrate(GDP(1e-3), 10.0, footpoint=mech.manifold.default_center())
    assert info.value.param == "target"
