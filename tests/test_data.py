"""Tests of geodp_core.data: generators, the public ball, real datasets, uploads.

Statistical tests: each KS / z test has type-I error alpha = 1e-6 (fixed seeds, so
they are deterministic); each names the bug it has power against.
"""

import io

import numpy as np
import pytest
import scipy.integrate
import scipy.stats

from geodp_core.data import (
    InvalidUploadError,
    check_in_ball,
    clip_to_ball,
    karate_tree_embedding,
    list_datasets,
    load_dataset,
    parse_points,
    preshape,
    sample_geodesic_regression,
    sample_uniform_ball,
    sample_vmf_mixture,
    sample_von_mises_fisher,
    sample_wishart,
    sample_wrapped_normal,
    sample_wrapped_normal_mixture,
    vmf_kappa_from_std,
    vmf_mean_resultant_length,
)
from geodp_core.exceptions import InvalidParameterError, OffManifoldError, OutsideBallError
from geodp_core.geometry import get_manifold

ALPHA = 1e-6
Z_ALPHA = scipy.stats.norm.isf(ALPHA / 2)  # two-sided z threshold, ~4.89
SEED = 20261121


def north(d):
    mu = np.zeros(d + 1)
    mu[-1] = 1.0
    return mu


# ============================================================== von Mises-Fisher
def vmf_angle_cdf(kappa, d):
    r"""CDF of theta = arccos<X, mu> for vMF on S^d: density ∝ e^{kappa cos s} sin^{d-1} s on [0, pi].

    (Equivalent to t = cos theta having density ∝ e^{kappa t}(1-t^2)^{(d-2)/2}.) Quadrature reference.
    """
    cutoff = np.pi if kappa < 300 else float(np.arccos(max(-1.0, 1.0 - 800.0 / kappa)))

    def f(s):
        return np.exp(kappa * (np.cos(s) - 1.0)) * np.sin(s) ** (d - 1)

    total = scipy.integrate.quad(f, 0.0, cutoff, limit=200, epsabs=0, epsrel=1e-11)[0]

    def cdf(theta):
        theta = np.atleast_1d(theta)
        return np.array(
            [scipy.integrate.quad(f, 0.0, min(t, cutoff), limit=200, epsabs=0, epsrel=1e-10)[0] for t in theta]
        ) / total

    return cdf


@pytest.mark.parametrize("d, kappa", [(1, 2.0), (2, 5.0), (4, 0.7), (4, 40.0), (2, 0.0)])
def test_vmf_cosine_law_ks(d, kappa):
    # alpha = 1e-6. Power against: a wrong Wood constant b/x0/c, a missing (1-t^2)^{(d-2)/2}
    # factor (i.e. sampling the law of another dimension, see the negative control below).
    pts = sample_von_mises_fisher(north(d), kappa, 1500, np.random.default_rng(SEED + d))
    assert pts.shape == (1500, d + 1)
    assert np.allclose(np.linalg.norm(pts, axis=1), 1.0, atol=1e-12)
    theta = np.arccos(np.clip(pts[:, -1], -1.0, 1.0))
    assert scipy.stats.kstest(theta, vmf_angle_cdf(kappa, d)).pvalue > ALPHA


def test_vmf_ks_has_power_against_wrong_dimension():
    # Negative control: S^4 samples tested against the S^2 angle law must be rejected (p < alpha),
    # which shows the KS test detects a missing/extra sin^{d-1} factor.
    pts = sample_von_mises_fisher(north(4), 2.0, 1500, np.random.default_rng(SEED))
    theta = np.arccos(np.clip(pts[:, -1], -1.0, 1.0))
    assert scipy.stats.kstest(theta, vmf_angle_cdf(2.0, 2)).pvalue < ALPHA


def test_vmf_large_kappa_exact_tail():
    # On S^2, t has density ∝ e^{kappa t} on [-1, 1], so u = 1 - t has CDF (1 - e^{-kappa u})/(1 - e^{-2 kappa}).
    # alpha = 1e-6. Power against cancellation in 1 - t / 1 - x0 for huge kappa (those give u = 0 or garbage).
    kappa = 1e6
    pts = sample_von_mises_fisher([0.0, 1.0, 0.0], kappa, 3000, np.random.default_rng(SEED))
    # 1 - t recomputed from the stored point loses relative precision; use the angle instead: u = 2 sin^2(theta/2)
    theta = np.arctan2(np.linalg.norm(pts[:, [0, 2]], axis=1), pts[:, 1])
    u = 2.0 * np.sin(theta / 2.0) ** 2
    assert scipy.stats.kstest(u, lambda x: -np.expm1(-kappa * x)).pvalue > ALPHA


@pytest.mark.parametrize("d, kappa", [(1, 1.5), (2, 3.0), (4, 10.0)])
def test_vmf_mean_resultant_length(d, kappa):
    # z test of the mean of t = <X, mu> against A_p(kappa) = I_{p/2}/I_{p/2-1}; alpha = 1e-6 (two-sided).
    # Power against a biased concentration (e.g. kappa/2 or 2 kappa, or the "std" map applied twice).
    rng = np.random.default_rng(SEED + 7 * d)
    mu = rng.standard_normal(d + 1)
    mu /= np.linalg.norm(mu)
    t = sample_von_mises_fisher(mu, kappa, 20000, rng) @ mu
    expected = vmf_mean_resultant_length(kappa, d)
    assert abs(t.mean() - expected) < Z_ALPHA * t.std() / np.sqrt(t.size)


def test_vmf_mean_resultant_length_closed_form():
    # S^2: A_3(kappa) = coth(kappa) - 1/kappa; S^1: I_1/I_0.
    for kappa in (0.1, 2.0, 50.0):
        assert vmf_mean_resultant_length(kappa, 2) == pytest.approx(1 / np.tanh(kappa) - 1 / kappa, rel=1e-12)
        from scipy.special import i0, i1

        assert vmf_mean_resultant_length(kappa, 1) == pytest.approx(i1(kappa) / i0(kappa), rel=1e-12)
    assert vmf_mean_resultant_length(0.0, 3) == 0.0


def test_vmf_kappa_from_std_and_validation():
    assert vmf_kappa_from_std(0.1) == pytest.approx(100.0)
    for bad in (0.0, -1.0, np.nan, True, "a"):
        with pytest.raises(InvalidParameterError, match="std"):
            vmf_kappa_from_std(bad)
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidParameterError, match="kappa"):
        sample_von_mises_fisher(north(2), -1.0, 5, rng)
    with pytest.raises(OffManifoldError, match="mean_direction"):
        sample_von_mises_fisher([0.0, 0.0, 2.0], 1.0, 5, rng)
    with pytest.raises(InvalidParameterError, match="n must"):
        sample_von_mises_fisher(north(2), 1.0, 0, rng)
    with pytest.raises(InvalidParameterError, match="rng"):
        sample_von_mises_fisher(north(2), 1.0, 5, None)


def test_vmf_mixture():
    mus = np.array([north(2), -north(2)])
    pts, labels = sample_vmf_mixture(mus, [200.0, 200.0], [0.25, 0.75], 4000, np.random.default_rng(SEED),
                                     return_labels=True)
    assert pts.shape == (4000, 3) and labels.shape == (4000,)
    # every point is near the mean of its own component
    assert np.all(np.sum(pts * mus[labels], axis=1) > 0.9)
    # binomial z test of the component share, alpha = 1e-6; power against ignoring the weights.
    share = labels.mean()
    assert abs(share - 0.75) < Z_ALPHA * np.sqrt(0.75 * 0.25 / 4000)
    with pytest.raises(InvalidParameterError, match="weights"):
        sample_vmf_mixture(mus, [1.0, 1.0], [-1.0, 2.0], 10, 0)
    with pytest.raises(InvalidParameterError, match="kappas"):
        sample_vmf_mixture(mus, [1.0], None, 10, 0)


def test_seed_reproducibility():
    a = sample_von_mises_fisher(north(3), 4.0, 50, 123)
    b = sample_von_mises_fisher(north(3), 4.0, 50, np.random.default_rng(123))
    assert np.array_equal(a, b)


# ================================================================= uniform ball
UNIFORM_CASES = [
    # (manifold args, radius, closed-form radius CDF)
    (("sphere", 2), 1.0, lambda r, R: (1 - np.cos(r)) / (1 - np.cos(R))),
    (("sphere", 2), 2.8, lambda r, R: (1 - np.cos(r)) / (1 - np.cos(R))),
    (("sphere", 1), 2.0, lambda r, R: r / R),
    (("hyperbolic", 2), 1.5, lambda r, R: (np.cosh(r) - 1) / (np.cosh(R) - 1)),
    (("euclidean", 3), 2.0, lambda r, R: (r / R) ** 3),
    (("spd", 2, "log_euclidean"), 1.0, lambda r, R: (r / R) ** 3),
    (("spd", 2, "log_cholesky"), 1.0, lambda r, R: (r / R) ** 3),
]


@pytest.mark.parametrize("args, radius, cdf", UNIFORM_CASES)
def test_uniform_ball_radius_ks(args, radius, cdf):
    # alpha = 1e-6. Power against a missing volume factor J(r) (radius uniform, or r^{d-1} on a curved space).
    manifold = get_manifold(*args)
    rng = np.random.default_rng(SEED)
    center = manifold.exp(manifold.default_center(), manifold.from_frame(manifold.default_center(),
                                                                          0.3 * np.ones(manifold.dim)))
    pts = sample_uniform_ball(manifold, center, radius, 2000, rng)
    assert pts.shape == (2000,) + manifold.point_shape
    assert manifold.belongs(pts).all()
    r = manifold.dist(center, pts)
    assert r.max() <= radius * (1 + 1e-9)
    assert scipy.stats.kstest(r, lambda x: cdf(x, radius)).pvalue > ALPHA


def test_uniform_ball_ks_has_power_against_missing_jacobian():
    # Negative control: tangent-uniform radii (density ∝ r, the flat law) on S^2 with R = 2.8 are rejected.
    r = 2.8 * np.sqrt(np.random.default_rng(SEED).uniform(size=2000))
    p = scipy.stats.kstest(r, lambda x: (1 - np.cos(x)) / (1 - np.cos(2.8))).pvalue
    assert p < ALPHA


def test_uniform_ball_direction_uniform_on_s2():
    # Azimuth of Log_c(Y) in the tangent frame must be U[0, 2 pi); alpha = 1e-6; power against a biased frame.
    sphere = get_manifold("sphere", 2)
    center = north(2)
    pts = sample_uniform_ball(sphere, center, 1.2, 2000, np.random.default_rng(SEED))
    coords = sphere.to_frame(center, sphere.log(center, pts))
    azimuth = np.mod(np.arctan2(coords[:, 1], coords[:, 0]), 2 * np.pi)
    assert scipy.stats.kstest(azimuth, scipy.stats.uniform(0, 2 * np.pi).cdf).pvalue > ALPHA


def test_uniform_ball_spd_affine_inside():
    spd = get_manifold("spd", 2, "affine")
    center = np.array([[2.0, 0.3], [0.3, 1.0]])
    pts = sample_uniform_ball(spd, center, 0.8, 500, np.random.default_rng(SEED))
    assert pts.shape == (500, 2, 2) and spd.belongs(pts).all()
    r = spd.dist(center, pts)
    assert r.max() <= 0.8 * (1 + 1e-9) and r.min() >= 0
    # radius law is not degenerate: spread over the ball
    assert np.quantile(r, 0.9) > 0.6


def test_uniform_ball_validation():
    sphere = get_manifold("sphere", 2)
    with pytest.raises(InvalidParameterError, match="radius"):
        sample_uniform_ball(sphere, north(2), 3.5, 10, 0)
    with pytest.raises(InvalidParameterError, match="radius"):
        sample_uniform_ball(sphere, north(2), 0.0, 10, 0)
    with pytest.raises(OffManifoldError, match="center"):
        sample_uniform_ball(sphere, [1.0, 1.0, 0.0], 1.0, 10, 0)
    with pytest.raises(InvalidParameterError, match="manifold"):
        sample_uniform_ball("sphere", north(2), 1.0, 10, 0)


def test_extreme_parameters_raise_instead_of_returning_garbage():
    # matrices with condition number ~e^60 are not SPD in floating point; hyperboloid overflow -> inf
    with pytest.raises(InvalidParameterError, match=r"reduce radius \(got 50.0\)"):
        sample_uniform_ball(get_manifold("spd", 3, "affine"), 2 * np.eye(3), 50.0, 3, 0)
    with pytest.raises(InvalidParameterError, match="reduce std"):
        sample_wrapped_normal(get_manifold("hyperbolic", 2), [1.0, 0.0, 0.0], 5000.0, 3, 0)


# =============================================================== wrapped normal
def test_wrapped_normal_euclidean_is_gaussian():
    # alpha = 1e-6 per coordinate KS test; power against a wrong std (e.g. variance used as std).
    space = get_manifold("euclidean", 3)
    center = np.array([1.0, -2.0, 0.5])
    pts = sample_wrapped_normal(space, center, 0.7, 3000, np.random.default_rng(SEED))
    for i in range(3):
        assert scipy.stats.kstest(pts[:, i], scipy.stats.norm(center[i], 0.7).cdf).pvalue > ALPHA


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 3), ("spd", 2, "affine"), ("spd", 3, "log_cholesky")])
def test_wrapped_normal_on_manifold(args):
    # small std: E dist^2 = dim * std^2 to first order; checks the noise is in an orthonormal frame.
    manifold = get_manifold(*args)
    center = manifold.default_center()
    pts = sample_wrapped_normal(manifold, center, 0.01, 4000, np.random.default_rng(SEED))
    assert manifold.belongs(pts).all()
    msd = np.mean(manifold.dist(center, pts) ** 2)
    assert msd == pytest.approx(manifold.dim * 1e-4, rel=0.1)


def test_wrapped_normal_mixture():
    hyp = get_manifold("hyperbolic", 2)
    centers = hyp.from_poincare(np.array([[0.5, 0.0], [-0.5, 0.0], [0.0, 0.6]]))
    pts, labels = sample_wrapped_normal_mixture(hyp, centers, [0.05, 0.1, 0.05], [1, 1, 2], 1000,
                                                np.random.default_rng(SEED), return_labels=True)
    assert pts.shape == (1000, 3) and hyp.belongs(pts).all()
    assert np.all(hyp.dist(centers[labels], pts) < 0.6)
    assert set(np.unique(labels)) == {0, 1, 2}
    with pytest.raises(InvalidParameterError, match="stds"):
        sample_wrapped_normal_mixture(hyp, centers, [0.1, -1.0, 0.1], None, 10, 0)


# ====================================================================== Wishart
def test_wishart():
    scale = np.array([[1.0, 0.3], [0.3, 0.5]])
    w = sample_wishart(2, 5.0, scale, 20000, np.random.default_rng(SEED))
    assert w.shape == (20000, 2, 2) and get_manifold("spd", 2).belongs(w).all()
    # E[W] = dof * scale; entrywise z test, alpha = 1e-6 each. Power against a wrong dof/scale convention.
    mean, se = w.mean(axis=0), w.std(axis=0) / np.sqrt(w.shape[0])
    assert np.all(np.abs(mean - 5.0 * scale) < Z_ALPHA * se)
    assert sample_wishart(1, 3.0, None, 4, 0).shape == (4, 1, 1)
    with pytest.raises(InvalidParameterError, match="dof"):
        sample_wishart(3, 2.0, None, 4, 0)
    with pytest.raises(OffManifoldError, match="scale_matrix"):
        sample_wishart(2, 3.0, [[1.0, 2.0], [2.0, 1.0]], 4, 0)


# =================================================================== regression
REGRESSION_CASES = [
    (("sphere", 2), None, np.array([0.0, 1.2, 0.0])),
    (("hyperbolic", 2), None, np.array([0.0, 0.8, -0.6])),
    (("spd", 2, "affine"), np.array([[2.0, 0.5], [0.5, 1.0]]), np.array([[0.5, 0.2], [0.2, -0.3]])),
    (("spd", 2, "log_euclidean"), np.array([[2.0, 0.5], [0.5, 1.0]]), np.array([[0.5, 0.2], [0.2, -0.3]])),
    (("spd", 2, "log_cholesky"), np.array([[2.0, 0.5], [0.5, 1.0]]), np.array([[0.5, 0.2], [0.2, -0.3]])),
]


@pytest.mark.parametrize("args, footpoint, vector", REGRESSION_CASES)
def test_regression_noiseless_on_geodesic(args, footpoint, vector):
    manifold = get_manifold(*args)
    p = manifold.default_center() if footpoint is None else footpoint
    x, y = sample_geodesic_regression(manifold, p, vector, 40, 0.0, np.random.default_rng(SEED))
    assert x.shape == (40,) and y.shape == (40,) + manifold.point_shape
    assert x.min() == 0.0 and x.max() == 1.0
    # on the geodesic: Log_p(y_i) = x_i v (the geodesic is minimising here) and dist = x_i |v|
    logs = manifold.log(p, y)
    assert np.allclose(logs, x.reshape((-1,) + (1,) * len(manifold.point_shape)) * vector, atol=1e-9)
    assert np.allclose(manifold.dist(p, y), x * manifold.norm(p, vector), atol=1e-9)


@pytest.mark.parametrize("args, footpoint, vector", REGRESSION_CASES[:3])
def test_regression_noise_level(args, footpoint, vector):
    manifold = get_manifold(*args)
    p = manifold.default_center() if footpoint is None else footpoint
    rng = np.random.default_rng(SEED)
    x, y = sample_geodesic_regression(manifold, p, vector, 3000, 0.01, rng)
    assert x.min() == 0.0 and x.max() == 1.0
    geo = manifold.exp(np.broadcast_to(p, y.shape), x.reshape((-1,) + (1,) * len(manifold.point_shape)) * vector)
    msd = np.mean(manifold.dist(geo, y) ** 2)
    assert msd == pytest.approx(manifold.dim * 1e-4, rel=0.1)


def test_regression_validation():
    sphere = get_manifold("sphere", 2)
    with pytest.raises(OffManifoldError, match="shooting_vector"):
        sample_geodesic_regression(sphere, north(2), [0.0, 0.0, 1.0], 10, 0.1, 0)
    with pytest.raises(InvalidParameterError, match="n must"):
        sample_geodesic_regression(sphere, north(2), [1.0, 0.0, 0.0], 1, 0.1, 0)
    with pytest.raises(InvalidParameterError, match="noise_std"):
        sample_geodesic_regression(sphere, north(2), [1.0, 0.0, 0.0], 10, -0.1, 0)


# ================================================================ public ball
def test_clip_to_ball_sphere():
    sphere = get_manifold("sphere", 2)
    center = north(2)
    rng = np.random.default_rng(SEED)
    pts = sample_uniform_ball(sphere, center, 1.5, 300, rng)
    radius = 0.6
    clipped, n_clipped = clip_to_ball(sphere, pts, center, radius)
    d_before, d_after = sphere.dist(center, pts), sphere.dist(center, clipped)
    outside = d_before > radius
    assert n_clipped == outside.sum() > 0
    assert np.array_equal(clipped[~outside], pts[~outside])  # unchanged bit for bit
    assert np.allclose(d_after[outside], radius, atol=1e-12)
    # moved along the geodesic from the centre: same direction of Log_c
    u_before = sphere.log(center, pts[outside]) / d_before[outside, None]
    u_after = sphere.log(center, clipped[outside]) / d_after[outside, None]
    assert np.allclose(u_before, u_after, atol=1e-9)
    assert check_in_ball(sphere, clipped, center, radius).shape == pts.shape


@pytest.mark.parametrize("args", [("hyperbolic", 2), ("spd", 2, "affine"), ("euclidean", 2)])
def test_clip_to_ball_other_spaces(args):
    manifold = get_manifold(*args)
    center = manifold.default_center()
    pts = sample_wrapped_normal(manifold, center, 1.0, 200, np.random.default_rng(SEED))
    clipped, n_clipped = clip_to_ball(manifold, pts, center, 0.5)
    assert n_clipped > 0
    assert manifold.dist(center, clipped).max() <= 0.5 * (1 + 1e-9)
    check_in_ball(manifold, clipped, center, 0.5)


def test_check_in_ball_message():
    sphere = get_manifold("sphere", 2)
    center = north(2)
    pts = sphere.from_lat_lon([90.0, 80.0, 30.0, 45.0], [0.0, 10.0, 20.0, 30.0])
    with pytest.raises(OutsideBallError) as info:
        check_in_ball(sphere, pts, center, 0.5)
    message = str(info.value)
    assert "2 of 4 points" in message and "radius=0.5" in message
    assert f"{np.radians(60.0):.6g}" in message and "data[2]" in message
    assert isinstance(info.value, ValueError)


def test_ball_validation():
    sphere = get_manifold("sphere", 2)
    pts = sphere.from_lat_lon([80.0, -89.0], [0.0, 0.0])
    with pytest.raises(InvalidParameterError, match="radius"):
        clip_to_ball(sphere, pts, north(2), np.pi / 4)  # r must be < r* = pi/4
    # the antipode (cut locus): never refused, clipped onto the boundary along the public first frame vector
    clipped, moved = clip_to_ball(sphere, np.array([north(2), -north(2)]), north(2), 0.5)
    expected = sphere.exp(north(2), 0.5 * sphere.tangent_frame(north(2))[0])
    assert moved == 1 and np.array_equal(clipped[0], north(2)) and np.allclose(clipped[1], expected)
    with pytest.raises(InvalidParameterError, match="shape"):
        check_in_ball(sphere, north(2), north(2), 0.5)


def test_clipping_overflowing_points_lands_on_the_boundary():
    """R^2 records at +-1e308 (|x - c| overflows) go to the boundary along their direction, not to the centre."""
    plane = get_manifold("euclidean", 2)
    pts = np.array([[1e308, 1e308], [-1e308, 1e308], [1e308, 0.0], [-1.7e308, -1.7e308], [0.1, 0.2]])
    clipped, moved = clip_to_ball(plane, pts, np.array([1.0, 0.0]), 1.0)
    assert moved == 4 and np.array_equal(clipped[4], pts[4])
    assert np.allclose(np.linalg.norm(clipped[:4] - [1.0, 0.0], axis=1), 1.0)
    assert np.allclose(clipped[:4], [[1 + 0.5**0.5, 0.5**0.5], [1 - 0.5**0.5, 0.5**0.5], [2.0, 0.0],
                                     [1 - 0.5**0.5, -0.5**0.5]])


# ============================================================== real datasets
def test_list_datasets():
    names = list_datasets()
    assert set(names) == {"cities", "connectomes", "karate", "optical_nerves", "hands", "digits_covariance",
                          "image_patches_covariance", "hand_orientations"}
    assert all(isinstance(v, str) and v for v in names.values())
    with pytest.raises(InvalidParameterError, match="name"):
        load_dataset("nope")


def test_cities():
    data = load_dataset("cities")
    sphere = data.manifold()
    assert data.points.shape == (50, 3) and data.manifold_spec == ("sphere", 2, None)
    assert sphere.belongs(data.points, atol=1e-12).all()
    tokyo = data.names.index("Tokyo")
    lat, lon = sphere.to_lat_lon(data.points[tokyo])
    assert (lat, lon) == (pytest.approx(35.685, abs=1e-9), pytest.approx(139.7514, abs=1e-9))
    assert np.allclose(sphere.to_lat_lon(data.points), (data.extras["lat"], data.extras["lon"]), atol=1e-9)
    # geomstats' own load_cities is our embedding rotated by 180 degrees about the polar axis
    from geomstats.datasets.utils import load_cities

    gs_points, gs_names = load_cities()
    assert list(gs_names) == list(data.names)
    assert np.allclose(np.asarray(gs_points) * [-1, -1, 1], data.points, atol=1e-12)


def test_connectomes():
    data = load_dataset("connectomes")
    assert data.points.shape == (86, 28, 28) and data.manifold_spec == ("spd", 28, "affine")
    assert np.array_equal(data.points, np.swapaxes(data.points, 1, 2))
    assert np.linalg.eigvalsh(data.points)[:, 0].min() > 0.4  # SPD, no ridge needed
    assert set(np.unique(data.labels)) == {0, 1}
    small = load_dataset("connectomes", sub_block=3)
    assert small.points.shape == (86, 3, 3) and small.manifold_spec == ("spd", 3, "affine")
    assert np.array_equal(small.points, data.points[:, :3, :3])
    assert small.manifold().belongs(small.points).all()
    with pytest.raises(InvalidParameterError, match="sub_block"):
        load_dataset("connectomes", sub_block=29)
    with pytest.raises(InvalidParameterError, match="sub_block"):
        load_dataset("cities", sub_block=2)


def test_dataset_copies():
    first = load_dataset("connectomes", sub_block=2)
    first.points[0, 0, 0] = -5.0
    first.labels[:] = 7
    second = load_dataset("connectomes", sub_block=2)
    assert second.points[0, 0, 0] == 1.0 and 7 not in second.labels


def test_karate():
    data = load_dataset("karate")
    hyp = data.manifold()
    assert data.points.shape == (34, 3) and hyp.belongs(data.points).all()
    ball = hyp.to_poincare(data.points)
    assert np.allclose(ball, data.extras["poincare"]) and np.all(np.linalg.norm(ball, axis=1) < 1)
    assert len(np.unique(np.round(ball, 9), axis=0)) == 34  # distinct nodes, distinct points
    depth, edges = data.extras["depth"], data.extras["edges"]
    assert depth[0] == 0 and edges.shape == (78, 2)
    assert np.all(np.abs(depth[edges[:, 0]] - depth[edges[:, 1]]) <= 1)  # BFS levels
    assert np.allclose(hyp.dist(hyp.default_center(), data.points), depth * 1.0, atol=1e-9)
    assert set(np.unique(data.labels)) == {1, 2}


def test_karate_tree_embedding_path_graph():
    adjacency = np.diag(np.ones(3), 1) + np.diag(np.ones(3), -1)  # path 0-1-2-3
    ball, depth, parent = karate_tree_embedding(adjacency, depth_step=2.0)
    assert list(depth) == [0, 1, 2, 3] and list(parent) == [-1, 0, 1, 2]
    assert np.allclose(np.linalg.norm(ball, axis=1), np.tanh(depth))
    with pytest.raises(InvalidParameterError, match="connected"):
        karate_tree_embedding(np.zeros((3, 3)))


@pytest.mark.parametrize("name, shape, dim", [("optical_nerves", (22, 5, 3), 11), ("hands", (52, 22, 3), 62)])
def test_shape_datasets(name, shape, dim):
    data = load_dataset(name)
    assert data.extras["landmarks"].shape == shape
    assert data.points.shape == (shape[0], dim + 1) and data.manifold_spec == ("sphere", dim, None)
    assert data.manifold().belongs(data.points, atol=1e-12).all()
    assert "preshape" in data.description.lower() and "rotation" in data.description.lower()


def test_preshape_invariances():
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal((4, 5, 3))
    z = preshape(x)
    assert np.allclose(preshape(3.0 * x + rng.standard_normal((4, 1, 3))), z)
    assert np.allclose(np.linalg.norm(z, axis=1), 1.0)


# ===================================================================== uploads
def csv_bytes(text):
    return text.encode("utf-8")


def npy_bytes(array, allow_pickle=False):
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


S2 = get_manifold("sphere", 2)
H2 = get_manifold("hyperbolic", 2)
SPD2 = get_manifold("spd", 2, "log_euclidean")


def test_upload_sphere_lat_lon_and_xyz():
    pts = parse_points(csv_bytes("lat,lon\n35.685,139.7514\n-33.9,18.4\n0,0\n"), S2, filename="c.csv")
    assert pts.shape == (3, 3) and S2.belongs(pts, atol=1e-12).all()
    lat, lon = S2.to_lat_lon(pts)
    assert np.allclose(lat, [35.685, -33.9, 0]) and np.allclose(lon, [139.7514, 18.4, 0])
    # reversed column order with long names, semicolon delimiter, BOM and a comment line
    text = "\ufeff# my cities\nLongitude;Latitude\n139.7514;35.685\n18.4;-33.9\n0;0\n"
    assert np.allclose(parse_points(csv_bytes(text), S2), pts)
    xyz = "x,y,z\n" + "\n".join(",".join(f"{v:.17g}" for v in p) for p in pts)
    assert np.allclose(parse_points(csv_bytes(xyz), S2), pts, atol=1e-15)
    assert np.allclose(parse_points(npy_bytes(pts), S2, filename="p.npy"), pts)
    # content sniffing: NPY without a filename, and an UploadedFile-like object
    assert np.allclose(parse_points(io.BytesIO(npy_bytes(pts)), S2), pts)


def test_upload_sphere_normalise():
    text = "x,y,z\n0,0,1\n0,0.5,0.9\n1,0,0\n"
    with pytest.raises(InvalidUploadError, match=r"line 3 has norm .*unit norm.*normalise=True"):
        parse_points(csv_bytes(text), S2, filename="pts.csv")
    pts, info = parse_points(csv_bytes(text), S2, normalise=True, return_info=True)
    assert S2.belongs(pts, atol=1e-14).all()
    assert info["n_projected"] == 1
    assert info["max_projection_distance"] == pytest.approx(abs(np.hypot(0.5, 0.9) - 1.0))
    assert info["notes"] and info["format"] == "csv"


def test_upload_hyperbolic():
    ball = np.array([[0.1, 0.2], [-0.5, 0.3], [0.0, 0.0]])
    expected = H2.from_poincare(ball)
    csv_text = "b1,b2\n" + "\n".join(f"{a},{b}" for a, b in ball)
    assert np.allclose(parse_points(csv_bytes(csv_text), H2), expected)
    assert np.allclose(parse_points(npy_bytes(ball), H2, filename="b.npy"), expected)
    hyper_text = "x0,x1,x2\n" + "\n".join(",".join(f"{v:.17g}" for v in p) for p in expected)
    assert np.allclose(parse_points(csv_bytes(hyper_text), H2), expected)
    assert np.allclose(parse_points(npy_bytes(expected), H2), expected)
    with pytest.raises(InvalidUploadError, match=r"line 3 has Poincaré-ball norm 1\b.*\|b\| < 1"):
        parse_points(csv_bytes("u,v\n0.1,0.1\n0.6,0.8\n"), H2)
    with pytest.raises(InvalidUploadError, match=r"line 2 has <x,x>_L"):
        parse_points(csv_bytes("x0,x1,x2\n2,0,0\n1,0,0\n"), H2)
    with pytest.raises(InvalidUploadError, match=r"x0 = -1"):
        parse_points(csv_bytes("1,0,0\n-1,0,0\n"), H2)


def test_upload_spd():
    rng = np.random.default_rng(SEED)
    mats = sample_wishart(2, 4.0, None, 5, rng)
    assert np.allclose(parse_points(npy_bytes(mats), SPD2, filename="m.npy"), mats)
    assert np.allclose(parse_points(npy_bytes(mats.reshape(5, 4)), SPD2, filename="m.npy"), mats)
    text = "a,b,c,d\n" + "\n".join(",".join(f"{v:.17g}" for v in m.ravel()) for m in mats)
    assert np.allclose(parse_points(csv_bytes(text), SPD2, filename="m.csv"), mats)
    with pytest.raises(InvalidUploadError, match=r"'m\.csv': line 2 is not symmetric"):
        parse_points(csv_bytes("1,0,0,1\n1,0.5,0.4,1\n"), SPD2, filename="m.csv")
    with pytest.raises(InvalidUploadError, match=r"line 1 is not positive definite \(smallest eigenvalue -1"):
        parse_points(csv_bytes("1,2,2,1\n1,0,0,1\n"), SPD2)
    bad = mats.copy()
    bad[3] = [[1.0, 0.0], [0.0, -1.0]]
    with pytest.raises(InvalidUploadError, match=r"row 3 \(0-based\) is not positive definite"):
        parse_points(npy_bytes(bad), SPD2)
    with pytest.raises(InvalidUploadError, match=r"expected \(n, 4\) or \(n, 2, 2\)"):
        parse_points(npy_bytes(np.ones((3, 3, 3))), SPD2)


def test_upload_euclidean():
    r3 = get_manifold("euclidean", 3)
    assert parse_points(csv_bytes("1 2 3\n4 5 6\n"), r3).shape == (2, 3)


BAD_UPLOADS = [
    (b"", S2, "empty"),
    (b"  \n\n", S2, "empty"),
    (b"lat,lon\n", S2, "contains 0 point"),
    (b"lat,lon\n10,20\n", S2, "contains 1 point"),
    (b"lat,lon\n10,20\nnan,3\n", S2, r"line 3, column 'lat': 'nan' is not a finite number"),
    (b"x,y,z\n0,0,1\n0,inf,0\n", S2, r"line 3, column 'y': 'inf' is not a finite number"),
    (b"x,y,z\n0,0,1\n0,abc,1\n", S2, r"line 3, column 'y': 'abc' is not a number"),
    (b"x,y,z\n0,0,1\n0,1\n", S2, r"line 3 has 2 columns; expected 3"),
    (b"a,b,c,d\n0,0,1,0\n0,1,0,0\n", S2, r"4 columns .*expected 3 ambient coordinates"),
    (b"10,20\n30,40\n", S2, "header"),
    (b"lat,lon\n10,20\n95,0\n", S2, r"line 3, column 'lat': latitude 95 is outside \[-90, 90\]"),
    (b"\xff\xfe\x00garbage", S2, "UTF-8"),
]


@pytest.mark.parametrize("content, manifold, words", BAD_UPLOADS)
def test_bad_uploads(content, manifold, words):
    with pytest.raises(InvalidUploadError, match=words) as info:
        parse_points(content, manifold, filename="upload.csv")
    assert isinstance(info.value, InvalidParameterError) and isinstance(info.value, ValueError)
    assert "'upload.csv'" in str(info.value) and info.value.param == "file"


def test_upload_too_large():
    content = b"0,0,1\n" * (20 * 1024 * 1024 // 6 + 10)
    with pytest.raises(InvalidUploadError, match=r"MB; the limit is 20 MB"):
        parse_points(content, S2, filename="big.csv")


def test_upload_refuses_pickle():
    # allow_pickle=False really refuses an object array (which could run code when unpickled)
    payload = npy_bytes(np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    with pytest.raises(InvalidUploadError, match="pickled"):
        parse_points(payload, S2, filename="evil.npy")


def test_upload_npy_bad_cases():
    with pytest.raises(InvalidUploadError, match="dtype"):
        parse_points(npy_bytes(np.ones((3, 3), dtype=bool)), S2)
    with pytest.raises(InvalidUploadError, match="dtype"):
        parse_points(npy_bytes(np.array([["a", "b", "c"]] * 3)), S2)
    with pytest.raises(InvalidUploadError, match=r"row 1 \(0-based\) contains nan"):
        parse_points(npy_bytes(np.array([[0, 0, 1.0], [np.nan, 0, 1.0]])), S2)
    with pytest.raises(InvalidUploadError, match=r"shape \(4, 2\); expected \(n, 3\)"):
        parse_points(npy_bytes(np.zeros((4, 2))), S2)
    with pytest.raises(InvalidUploadError, match="not a valid .npy"):
        parse_points(npy_bytes(np.eye(3))[:-5], S2, filename="cut.npy")
    archive = io.BytesIO()
    np.savez(archive, a=np.eye(3))
    with pytest.raises(InvalidUploadError, match="archive"):
        parse_points(archive.getvalue(), S2, fmt="npy")


def test_upload_argument_validation():
    with pytest.raises(InvalidParameterError, match="fmt"):
        parse_points(b"0,0,1\n1,0,0\n", S2, fmt="xlsx")
    with pytest.raises(InvalidParameterError, match="normalise"):
        parse_points(b"1,0,0,1\n1,0,0,1\n", SPD2, normalise=True)
    with pytest.raises(InvalidParameterError, match="manifold"):
        parse_points(b"0,0,1\n1,0,0\n", "sphere")
    with pytest.raises(InvalidUploadError, match="bytes"):
        parse_points(12345, S2)


def test_hand_orientations_are_the_hand_frames_relative_to_the_nominal_pose():
    """Each rotation's columns are the hand's own axes (wrist → middle knuckle, little → index knuckle, palm
    normal) in the nominal pose's coordinates: checked from the raw joints, independently of the loader's code."""
    from geodp_core.data.datasets import NOMINAL_HAND_POSE

    data = load_dataset("hand_orientations")
    so3 = data.manifold()
    assert data.points.shape == (52, 3, 3) and so3.belongs(data.points).all()
    joints = data.extras["landmarks"]
    camera = NOMINAL_HAND_POSE @ data.points  # back to camera coordinates
    forward = joints[:, 10] - joints[:, 0]
    np.testing.assert_allclose(camera[:, :, 0], forward / np.linalg.norm(forward, axis=1, keepdims=True), atol=1e-12)
    across = joints[:, 6] - joints[:, 18]
    assert np.all(np.einsum("ij,ij->i", camera[:, :, 1], across) > 0)
    np.testing.assert_allclose(np.einsum("ij,ij->i", camera[:, :, 1], camera[:, :, 0]), 0.0, atol=1e-12)
    assert set(np.unique(data.labels)) == {0, 1}
