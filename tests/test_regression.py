"""Geodesic regression: gradients vs finite differences, non-private fit, sensitivities (appendix G), validation."""

import numpy as np
import pytest

from geodp_core import regression as R
from geodp_core.data import sample_geodesic_regression
from geodp_core.exceptions import InvalidParameterError, OffManifoldError
from geodp_core.geometry import get_manifold

SEED = 20261121
SPACES = [
    ("sphere", 2),
    ("sphere", 3),
    ("hyperbolic", 2),
    ("spd", 2, "affine"),
    ("spd", 3, "affine"),
    ("spd", 2, "log_euclidean"),
    ("spd", 2, "log_cholesky"),
    ("euclidean", 2),
    ("kendall", 4),
    ("kendall", 6),
    ("so3", 3),
]


def _ids(args):
    return "-".join(map(str, args))


def _data(manifold, n=15, noise=0.2, speed=0.6, seed=SEED):
    rng = np.random.default_rng(seed)
    p0 = manifold.default_center()
    v0 = manifold.from_frame(p0, rng.normal(size=manifold.dim) * speed)
    x, y = sample_geodesic_regression(manifold, p0, v0, n, noise, rng)
    return rng, p0, v0, x, y


# ---------------------------------------------------------------- gradients
@pytest.mark.parametrize("args", SPACES, ids=_ids)
@pytest.mark.parametrize("tau", [None, 0.15])
def test_gradients_match_finite_differences(args, tau):
    """Closed-form Exp adjoints (and clipping = Huber gradient) vs central differences of E.

    The footpoint direction moves p along Exp_p(h u) with v transported by the ADAPTER's
    parallel transport (independent of the module's own transport)."""
    manifold = get_manifold(*args)
    rng, p0, _, x, y = _data(manifold)
    p = manifold.exp(p0, manifold.from_frame(p0, rng.normal(size=manifold.dim) * 0.3), check=False)
    v = manifold.from_frame(p, rng.normal(size=manifold.dim) * 0.8)  # away from the fit: large residuals
    g_p, g_v = R.energy_gradients(manifold, p, v, x, y, tau=tau)
    h = 1e-5
    for u in manifold.tangent_frame(p):
        ends = [manifold.exp(p, s * h * u, check=False) for s in (1.0, -1.0)]
        moved = [manifold.parallel_transport(p, q, v) for q in ends]
        fd_p = (R.energy(manifold, ends[0], moved[0], x, y, tau) - R.energy(manifold, ends[1], moved[1], x, y, tau)) / (2 * h)
        fd_v = (R.energy(manifold, p, v + h * u, x, y, tau) - R.energy(manifold, p, v - h * u, x, y, tau)) / (2 * h)
        assert fd_p == pytest.approx(float(manifold.inner(p, g_p, u)), abs=1e-7)
        assert fd_v == pytest.approx(float(manifold.inner(p, g_v, u)), abs=1e-7)


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2), ("spd", 2, "affine"), ("kendall", 5), ("so3", 3)],
                         ids=_ids)
def test_exp_adjoints_are_adjoint_of_forward_differentials(args):
    """<d_w Exp(p, w)[u], e> = <u, d_w Exp^dagger e> with the forward differential by finite differences."""
    manifold = get_manifold(*args)
    rng = np.random.default_rng(SEED)
    p = manifold.default_center()
    w = manifold.from_frame(p, rng.normal(size=manifold.dim))
    q = manifold.exp(p, w, check=False)
    e = manifold.from_frame(q, rng.normal(size=manifold.dim))
    _, adj_w = R.exp_adjoints(manifold, p, w, e)
    h = 1e-6
    for u in manifold.tangent_frame(p):
        forward = (manifold.exp(p, w + h * u, check=False) - manifold.exp(p, w - h * u, check=False)) / (2 * h)
        assert float(manifold.inner(q, forward, e)) == pytest.approx(float(manifold.inner(p, u, adj_w)), abs=1e-6)


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 3), ("spd", 2, "affine"), ("kendall", 5), ("so3", 3)],
                         ids=_ids)
def test_transport_along_geodesic_is_isometric_and_matches_adapter(args):
    manifold = get_manifold(*args)
    rng = np.random.default_rng(SEED)
    p = manifold.default_center()
    w = manifold.from_frame(p, rng.normal(size=manifold.dim) * 0.7)
    z = manifold.from_frame(p, rng.normal(size=manifold.dim))
    moved = R.transport_along_geodesic(manifold, p, w, z)
    q = manifold.exp(p, w, check=False)
    assert float(manifold.norm(q, moved)) == pytest.approx(float(manifold.norm(p, z)), rel=1e-10)
    np.testing.assert_allclose(moved, manifold.parallel_transport(p, q, z), atol=1e-10)


@pytest.mark.parametrize("length", [0.8, 2.5, 4.0, 7.0])
def test_so3_jacobi_fields_match_finite_differences_of_exp_also_beyond_pi(length):
    """SO(3), curvature 1/4 (docs/derivations/rotations.md): after transport back along the traversed geodesic,
    d_p Exp^† = e_par + cos(L/2) e_perp and d_w Exp^† = e_par + sinc(L/2) e_perp. Checked against central
    differences of Exp at |w| = L below and beyond π (where the geodesic no longer minimises), and the transport
    of the velocity is the velocity at the end point."""
    manifold = get_manifold("so3")
    rng = np.random.default_rng(SEED)
    p = manifold.random_uniform(1, rng)[0]
    coords = rng.normal(size=3)
    w = manifold.from_frame(p, length * coords / np.linalg.norm(coords))
    q = manifold.exp(p, w)
    e = manifold.from_frame(q, rng.normal(size=3))
    adj_p, adj_w = R.exp_adjoints(manifold, p, w, e)
    h = 1e-6
    for u in manifold.tangent_frame(p):
        forward_w = (manifold.exp(p, w + h * u) - manifold.exp(p, w - h * u)) / (2 * h)
        ends = [manifold.exp(p, s * h * u) for s in (1.0, -1.0)]
        moved = [manifold.parallel_transport(p, end, w) for end in ends]
        forward_p = (manifold.exp(ends[0], moved[0]) - manifold.exp(ends[1], moved[1])) / (2 * h)
        assert float(manifold.inner(q, forward_w, e)) == pytest.approx(float(manifold.inner(p, u, adj_w)), abs=1e-7)
        assert float(manifold.inner(q, forward_p, e)) == pytest.approx(float(manifold.inner(p, u, adj_p)), abs=1e-7)
    velocity = (manifold.exp(p, (1 + h) * w) - manifold.exp(p, (1 - h) * w)) / (2 * h)
    np.testing.assert_allclose(R.transport_along_geodesic(manifold, p, w, w), velocity, atol=1e-7)
    # the factors themselves: a unit normal vector is scaled by cos(L/2) and sinc(L/2), the tangent one kept
    u_hat = w / length
    normal = manifold.from_frame(p, np.cross(coords, rng.normal(size=3)))
    normal = normal / manifold.norm(p, normal)
    for vec, factors in ((u_hat, (1.0, 1.0)), (normal, (np.cos(length / 2), np.sinc(length / 2 / np.pi)))):
        back_p, back_w = R.exp_adjoints(manifold, p, w, R.transport_along_geodesic(manifold, p, w, vec))
        np.testing.assert_allclose(back_p, factors[0] * vec, atol=1e-12)
        np.testing.assert_allclose(back_w, factors[1] * vec, atol=1e-12)


def test_sphere_transport_follows_long_geodesic():
    """Beyond pi the traversed geodesic is not minimising: transporting the velocity gives the velocity."""
    sphere = get_manifold("sphere", 2)
    p = np.array([0.0, 0.0, 1.0])
    w = np.array([4.0, 0.0, 0.0])
    moved = R.transport_along_geodesic(sphere, p, w, w)
    np.testing.assert_allclose(moved, 4.0 * np.array([np.cos(4.0), 0.0, -np.sin(4.0)]), atol=1e-12)


# ---------------------------------------------------------------- the fit
@pytest.mark.parametrize("args", [("sphere", 2), ("spd", 2, "affine"), ("hyperbolic", 2), ("kendall", 4),
                                  ("kendall", 12), ("so3", 3)], ids=_ids)
def test_fit_recovers_noise_free_geodesic_exactly(args):
    manifold = get_manifold(*args)
    _, p0, v0, x, y = _data(manifold, n=12, noise=0.0, speed=0.8)
    fit = R.fit_geodesic_regression(manifold, x, y)
    assert fit.converged
    assert float(manifold.dist(fit.footpoint, p0)) < 1e-9
    np.testing.assert_allclose(fit.shooting_vector, v0, atol=1e-8)
    assert fit.energy < 1e-18


@pytest.mark.parametrize("args", [("sphere", 2), ("spd", 2, "affine")], ids=_ids)
def test_fit_recovers_geodesic_with_small_noise(args):
    manifold = get_manifold(*args)
    _, p0, v0, x, y = _data(manifold, n=200, noise=0.01, speed=0.8)
    fit = R.fit_geodesic_regression(manifold, x, y)
    assert fit.converged and fit.gradient_norm < 1e-6
    assert float(manifold.dist(fit.footpoint, p0)) < 0.01
    transported = manifold.parallel_transport(fit.footpoint, p0, fit.shooting_vector)
    assert float(manifold.norm(p0, transported - v0)) < 0.02
    # stationarity of the energy: no direction lowers it
    assert fit.energy <= R.energy(manifold, p0, v0, x, y)


def test_fit_in_euclidean_space_is_ordinary_least_squares():
    manifold = get_manifold("euclidean", 3)
    _, _, _, x, y = _data(manifold, n=30, noise=0.3)
    fit = R.fit_geodesic_regression(manifold, x, y)
    design = np.stack([np.ones_like(x), x], axis=1)
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    np.testing.assert_allclose(fit.footpoint, coef[0], atol=1e-10)
    np.testing.assert_allclose(fit.shooting_vector, coef[1], atol=1e-10)


def test_predict_mspe_and_residuals_agree():
    manifold = get_manifold("sphere", 2)
    _, p0, v0, x, y = _data(manifold)
    pred = R.predict(manifold, p0, v0, x)
    assert pred.shape == y.shape
    norms = R.residual_norms(manifold, p0, v0, x, y)
    np.testing.assert_allclose(norms, manifold.dist(pred, y), atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(R.residuals(manifold, p0, v0, x, y), axis=-1), norms, atol=1e-10)
    mspe = R.mean_squared_prediction_error(manifold, p0, v0, x, y)
    assert mspe == pytest.approx(np.mean(norms**2)) and mspe == pytest.approx(2 * R.energy(manifold, p0, v0, x, y))
    batched = R.mean_squared_prediction_error(manifold, np.stack([p0, p0]), np.stack([v0, 0 * v0]), x, y)
    assert batched.shape == (2,) and batched[0] == pytest.approx(mspe)
    # the Huber energy equals least squares when tau exceeds every residual
    assert R.energy(manifold, p0, v0, x, y, tau=10.0) == pytest.approx(R.energy(manifold, p0, v0, x, y))


# ---------------------------------------------------------------- sensitivity
def test_sensitivity_formulas():
    s = R.regression_sensitivities(50, 0.3, 1.0, 2.0)
    assert s.footpoint == s.shooting == pytest.approx(2 * 0.3 / 50)
    assert s.joint == pytest.approx(np.sqrt(2) * 2 * 0.3 / 50)
    s = R.regression_sensitivities(20, 0.1, -0.5, 1.5)
    a = np.sqrt(0.5) * 1.5
    assert s.footpoint == pytest.approx(2 * 0.1 * np.cosh(a) / 20)
    assert s.shooting == pytest.approx(2 * 0.1 * np.sinh(a) / a / 20)
    # with v_max = 2(tau_m + tau) they are the paper's Theorem 3.3 and its appendix eq. (44)
    paper = R.paper_sensitivities(20, 0.1, -0.5, 0.65)
    s = R.regression_sensitivities(20, 0.1, -0.5, 2 * (0.65 + 0.1))
    assert paper["footpoint"] == pytest.approx(s.footpoint)
    assert paper["shooting_appendix"] == pytest.approx(s.shooting)
    assert paper["shooting_eq20"] == pytest.approx(20 * s.shooting)  # eq. (20) lacks the 1/n


def _neighbour_ratios(manifold, n, n_pairs, rng, noise):
    """Appendix-G experiment: D = first n of n+1 points, D' = last n; ratios theory / observed."""
    ratios = []
    for _ in range(n_pairs):
        p0 = manifold.default_center()
        v0 = manifold.from_frame(p0, rng.normal(size=manifold.dim) * 0.5)
        x, y = sample_geodesic_regression(manifold, p0, v0, n + 1, noise, rng)
        data_d, data_e = (x[1:], y[1:]), (x[:-1], y[:-1])
        # paper style: at the fit of D, tau = largest residual over D and D'
        fit = R.fit_geodesic_regression(manifold, *data_d)
        p, v = fit.footpoint, fit.shooting_vector
        tau = max(R.residual_norms(manifold, p, v, *data_d).max(), R.residual_norms(manifold, p, v, *data_e).max())
        cases = [(p, v, tau, None)]
        # public tau with clipping at a random (p, v): the bound must hold everywhere, not only at the fit
        p_rand = manifold.exp(p0, manifold.from_frame(p0, rng.normal(size=manifold.dim) * 0.5), check=False)
        cases.append((p_rand, manifold.from_frame(p_rand, rng.normal(size=manifold.dim)), 0.05, 0.05))
        for pp, vv, t, clip in cases:
            g_d = R.energy_gradients(manifold, pp, vv, *data_d, tau=clip)
            g_e = R.energy_gradients(manifold, pp, vv, *data_e, tau=clip)
            sens = R.regression_sensitivities(n, t, manifold.curvature_bounds[0], float(manifold.norm(pp, vv)))
            ratios.append((sens.footpoint / float(manifold.norm(pp, g_d[0] - g_e[0])),
                           sens.shooting / float(manifold.norm(pp, g_d[1] - g_e[1]))))
    return np.array(ratios)


@pytest.mark.parametrize("args, noise", [(("sphere", 2), np.sqrt(0.001)), (("spd", 2, "affine"), 0.01),
                                         (("hyperbolic", 2), 0.05), (("kendall", 5), 0.02)],
                         ids=["S2", "SPD2", "H2", "Kendall5"])
def test_sensitivity_validity_ratio_at_least_one(args, noise):
    """Appendix G: r = Delta_theory / Delta_observed >= 1 for 3 x 8 neighbouring pairs x 2 evaluation points.

    (Observed on S^2 over 20 pairs x n in {20, 50, 100}: r_p >= 1.03, r_v >= 1.48; see the derivation doc.)"""
    manifold = get_manifold(*args)
    rng = np.random.default_rng(SEED)
    for n in (20, 50, 100):
        ratios = _neighbour_ratios(manifold, n, 8, rng, noise)
        assert ratios.min() >= 1.0, (n, ratios.min(axis=0))


def _worst_pair_gradients(manifold, n, tau, speed):
    """Neighbours differing in the record at x = 1 whose clipped residuals are opposite and perpendicular
    to the geodesic: the bound is attained (ratio 1)."""
    p = manifold.default_center()
    frame = manifold.tangent_frame(p)
    v = speed * frame[0]
    x = np.linspace(0.0, 1.0, n)
    on = manifold.exp(np.broadcast_to(p, (n,) + p.shape), x[:, None] * v, check=False)
    q = on[-1]
    normal = R.transport_along_geodesic(manifold, p, v, frame[1])  # unit, perpendicular to the geodesic at q
    y_d, y_e = on.copy(), on.copy()
    y_d[-1] = manifold.exp(q, 3 * tau * normal, check=False)  # residual 3 tau: clipped to tau
    y_e[-1] = manifold.exp(q, -3 * tau * normal, check=False)
    g_d = R.energy_gradients(manifold, p, v, x, y_d, tau=tau)
    g_e = R.energy_gradients(manifold, p, v, x, y_e, tau=tau)
    return (float(manifold.norm(p, g_d[0] - g_e[0])), float(manifold.norm(p, g_d[1] - g_e[1])))


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2)], ids=_ids)
def test_sensitivity_bound_is_attained_by_worst_pair(args):
    manifold = get_manifold(*args)
    n, tau, speed = 20, 0.2, 1.0
    obs_p, obs_v = _worst_pair_gradients(manifold, n, tau, speed)
    sens = R.regression_sensitivities(n, tau, manifold.curvature_bounds[0], speed)
    if manifold.name == "sphere":  # perpendicular residual: cos(L), sin(L)/L factors, below the bound 1
        assert obs_p == pytest.approx(2 * tau / n * np.cos(speed))
        assert obs_v == pytest.approx(2 * tau / n * np.sin(speed) / speed)
    else:  # H^2: cosh / sinh attain the bound exactly
        assert obs_p == pytest.approx(sens.footpoint, rel=1e-9)
        assert obs_v == pytest.approx(sens.shooting, rel=1e-9)
        # the paper's Theorem D.1 statement, 2 tau sinh(sqrt(-k) tau)/(n sqrt(-k)), is violated
        d1 = R.paper_sensitivities(n, tau, -1.0, data_radius=speed / 2 - tau)["shooting_theorem_d1"]
        assert d1 < obs_v
    assert obs_p <= sens.footpoint * (1 + 1e-12) and obs_v <= sens.shooting * (1 + 1e-12)


def test_kendall_lean_gradients_equal_the_jacobi_field_adjoints():
    """The matrix-product Kendall gradients equal -(1/n) sum of the closed-form Exp adjoints of the clipped
    residuals (the generic path through the geodesic's transport), for several chains at once."""
    manifold = get_manifold("kendall", 7)
    rng, p0, _, x, y = _data(manifold, n=25, noise=0.3, speed=0.9)
    p = manifold.exp(np.broadcast_to(p0, (3,) + p0.shape),
                     manifold.from_frame(p0, rng.normal(size=(3, manifold.dim)) * 0.4), check=False)
    v = manifold.from_frame(p, rng.normal(size=(3, manifold.dim)) * np.array([0.0, 0.7, 1.4])[:, None])
    for tau in (None, 0.1):
        grads = R._gradients(manifold, p, v, x, y, tau)
        for j in range(3):
            w = x[:, None, None] * v[j]
            q = manifold.exp(np.broadcast_to(p[j], w.shape), w, check=False)
            e = manifold.log(q, y, check=False)
            d = manifold.norm(q, e)
            if tau is not None:
                e = e * np.minimum(1.0, tau / d)[:, None, None]
            adj_p, adj_w = R.exp_adjoints(manifold, np.broadcast_to(p[j], w.shape), w, e)
            np.testing.assert_allclose(grads.footpoint[j], -adj_p.mean(axis=0), atol=1e-12)
            np.testing.assert_allclose(grads.shooting[j], -(x[:, None, None] * adj_w).mean(axis=0), atol=1e-12)
            np.testing.assert_allclose(grads.residual_norms[j], d, atol=1e-7)


def test_kendall_worst_pair_factors_are_the_jacobi_fields():
    """On Kendall space the Jacobi factors are cos(2L) along i*velocity (curvature 4) and cos(L) along the rest
    (curvature 1): a residual flip in either direction moves the gradient by exactly 2 tau/n times them, within
    the bound 2 tau/n (lower curvature bound 1 >= 0)."""
    manifold = get_manifold("kendall", 5)
    n, tau, speed = 20, 0.2, 1.0
    p = manifold.default_center()
    frame = manifold.tangent_frame(p)
    v = speed * frame[0]
    x = np.linspace(0.0, 1.0, n)
    on = manifold.exp(np.broadcast_to(p, (n,) + p.shape), x[:, None, None] * v, check=False)
    q = on[-1]
    sens = R.regression_sensitivities(n, tau, manifold.curvature_bounds[0], speed)
    i_velocity = np.stack([-v[:, 1], v[:, 0]], axis=-1) / speed  # i u, curvature-4 direction
    other = frame[2] - np.sum(frame[2] * i_velocity) * i_velocity  # curvature-1 direction (orthogonal to u, iu)
    other /= np.linalg.norm(other)
    for direction, factor_p, factor_v in ((i_velocity, np.cos(2 * speed), np.sin(2 * speed) / (2 * speed)),
                                          (other, np.cos(speed), np.sin(speed) / speed)):
        normal = R.transport_along_geodesic(manifold, p, v, direction)
        y_d, y_e = on.copy(), on.copy()
        y_d[-1] = manifold.exp(q, 3 * tau * normal, check=False)
        y_e[-1] = manifold.exp(q, -3 * tau * normal, check=False)
        g_d = R.energy_gradients(manifold, p, v, x, y_d, tau=tau)
        g_e = R.energy_gradients(manifold, p, v, x, y_e, tau=tau)
        obs_p = float(manifold.norm(p, g_d[0] - g_e[0]))
        obs_v = float(manifold.norm(p, g_d[1] - g_e[1]))
        assert obs_p == pytest.approx(2 * tau / n * abs(factor_p), rel=1e-9)
        assert obs_v == pytest.approx(2 * tau / n * abs(factor_v), rel=1e-9)
        assert obs_p <= sens.footpoint and obs_v <= sens.shooting


def test_jacobi_bounds():
    assert R.jacobi_bounds(1.0, 10.0) == (1.0, 1.0)
    assert R.jacobi_bounds(0.0, 10.0) == (1.0, 1.0)
    c_p, c_v = R.jacobi_bounds(-4.0, 0.5)
    assert c_p == pytest.approx(np.cosh(1.0)) and c_v == pytest.approx(np.sinh(1.0))


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "call, param",
    [
        (lambda M, x, y: R.fit_geodesic_regression(M, x[:-1], y), "x"),
        (lambda M, x, y: R.fit_geodesic_regression(M, np.zeros_like(x), y), "x"),
        (lambda M, x, y: R.fit_geodesic_regression(M, x[:1], y[:1]), "y"),
        (lambda M, x, y: R.fit_geodesic_regression(M, np.where(x > 0.5, np.nan, x), y), "x"),
        (lambda M, x, y: R.fit_geodesic_regression(M, x, 2 * y), "y"),
        (lambda M, x, y: R.fit_geodesic_regression("sphere", x, y), "manifold"),
        (lambda M, x, y: R.energy(M, y[0], np.ones(3), x, y), "shooting_vector"),
        (lambda M, x, y: R.energy(M, y[0], 0 * y[0], x, y, tau=-1.0), "tau"),
        (lambda M, x, y: R.regression_sensitivities(1, 0.1, 1.0, 1.0), "n"),
        (lambda M, x, y: R.regression_sensitivities(10, 0.0, 1.0, 1.0), "tau"),
        (lambda M, x, y: R.regression_sensitivities(10, 0.1, 1.0, np.inf), "max_speed"),
        (lambda M, x, y: R.validate_covariates(x + 1.0, unit_interval=True), "x"),
    ],
)
def test_validation_names_the_parameter(call, param):
    manifold = get_manifold("sphere", 2)
    _, _, _, x, y = _data(manifold)
    with pytest.raises(InvalidParameterError) as info:
        call(manifold, x, y)
    assert info.value.param == param
    assert param.split("[")[0] in str(info.value)


def test_off_manifold_responses_rejected():
    manifold = get_manifold("spd", 2)
    x = np.array([0.0, 1.0])
    y = np.stack([np.eye(2), -np.eye(2)])
    with pytest.raises(OffManifoldError, match="y"):
        R.fit_geodesic_regression(manifold, x, y)


def test_so3_tangent_projection_and_geodesic_transport():
    """The rotations' own facts used by the constant-curvature Jacobi model: the tangent projection is the
    orthogonal projection onto R·so(3), and transport back undoes transport forward along any geodesic (also
    beyond π); every space declaring this model has constant curvature (equal bounds)."""
    from geodp_core.geometry import MANIFOLD_NAMES

    manifold = get_manifold("so3")
    rng = np.random.default_rng(SEED)
    p = manifold.random_uniform(1, rng)[0]
    ambient = rng.normal(size=(3, 3))
    tangent = manifold.to_tangent(p, ambient)
    assert manifold.validate_tangent(p, tangent) is not None
    np.testing.assert_allclose(manifold.to_tangent(p, tangent), tangent, atol=1e-14)
    # orthogonal: the removed part is orthogonal (Frobenius) to every tangent vector
    for u in manifold.tangent_frame(p):
        assert float(np.sum((ambient - tangent) * u)) == pytest.approx(0.0, abs=1e-12)
    for length in (0.3, 3.0, 5.5):
        w = manifold.from_frame(p, length * np.array([0.6, -0.8, 0.0]))
        z = manifold.from_frame(p, rng.normal(size=3))
        moved = manifold.geodesic_transport(p, w, z)
        np.testing.assert_allclose(manifold.geodesic_transport(p, w, moved, back=True), z, atol=1e-12)
    for code in MANIFOLD_NAMES:
        space = get_manifold(code)
        if space.jacobi_model == "constant_curvature":
            assert space.curvature_bounds[0] == space.curvature_bounds[1] and hasattr(space, "geodesic_transport")


def test_spd2_lean_gradients_equal_the_generic_matrix_path():
    """The entrywise SPD(2) gradients (log of a 2x2 matrix by its divided difference) equal the batched matrix
    path they replace, on spread and nearly isotropic residuals, with and without clipping; every residual
    equal to the prediction gives zero, not NaN."""
    manifold = get_manifold("spd", 2, "affine")
    rng, p0, _, x, y = _data(manifold, n=30, noise=0.3, speed=0.9)
    p = manifold.exp(np.broadcast_to(p0, (4,) + p0.shape),
                     manifold.from_frame(p0, rng.normal(size=(4, manifold.dim)) * 0.4), check=False)
    v = manifold.from_frame(p, rng.normal(size=(4, manifold.dim)) * np.array([0.0, 0.01, 0.7, 1.4])[:, None])
    for data in (y, np.broadcast_to(2.0 * np.eye(2), y.shape)):
        for tau in (None, 0.05):
            lean = R._gradients_spd2_affine(manifold, p, v, x, data, tau)
            generic = R._gradients_spd_affine(manifold, p, v, x, data, tau)
            for got, want in zip(lean, generic):
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)
    at_fit = R._predict(manifold, p[2], v[2], x)
    grads = R._gradients(manifold, p[2:3], v[2:3], x, at_fit)
    assert np.all(np.isfinite(grads.footpoint)) and np.max(grads.residual_norms) < 1e-7
    assert grads.footpoint_norm[0] < 1e-7 and grads.shooting_norm[0] < 1e-7
