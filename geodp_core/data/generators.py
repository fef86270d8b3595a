r"""Synthetic data generators (docs/specification.md §2.4).

Every generator takes an explicit ``numpy.random.Generator`` (or a non-negative
integer seed), returns exactly ``n`` points and checks that they lie on the
manifold before returning them.

- von Mises–Fisher on :math:`S^d` (Wood 1994, exact), vMF mixtures;
- uniform in a geodesic ball on :math:`S^d`, :math:`H^d`, :math:`\mathbb{R}^d` and SPD(m);
- wrapped normal :math:`\mathrm{Exp}_c(N(0, \sigma^2 I))` and its mixtures;
- Wishart matrices;
- geodesic-regression data :math:`y_i = \mathrm{Exp}(\mathrm{Exp}(p, x_i v), \varepsilon_i)`.
"""

import numpy as np
import scipy.stats

from geodp_core._validation import check_finite_array, check_int, check_real, check_rng
from geodp_core.data._common import check_manifold, finalise_points, standard_frame_coords
from geodp_core.exceptions import InvalidParameterError, NumericalOverflowError
from geodp_core.geometry import get_manifold

__all__ = [
    "MAX_SAMPLES",
    "sample_von_mises_fisher",
    "vmf_kappa_from_std",
    "vmf_mean_resultant_length",
    "sample_vmf_mixture",
    "sample_uniform_ball",
    "sample_wrapped_normal",
    "sample_wrapped_normal_mixture",
    "sample_wishart",
    "sample_geodesic_regression",
]

MAX_SAMPLES = 10_000_000
"""Largest ``n`` a generator accepts (memory guard)."""


def _check_n(n, low=1):
    return check_int(n, "n", low=low, high=MAX_SAMPLES)


def _check_weights(weights, n_components, name="weights"):
    """Non-negative weights of length ``n_components`` with a positive sum, returned normalised."""
    if weights is None:
        return np.full(n_components, 1.0 / n_components)
    w = check_finite_array(weights, name, ndim=1)
    if w.shape[0] != n_components:
        raise InvalidParameterError(
            f"{name} must have one entry per component ({n_components}); got {w.shape[0]}", param=name
        )
    if (w < 0).any() or w.sum() <= 0:
        raise InvalidParameterError(
            f"{name} must be non-negative with a positive sum; got {w.tolist()}", param=name
        )
    return w / w.sum()


def _component_sizes(weights, n, rng):
    """Multinomial component sizes and the (shuffled) component label of every sample."""
    counts = rng.multinomial(n, weights)
    labels = np.repeat(np.arange(len(weights)), counts)
    return counts, labels


def _shuffle_together(points, labels, rng):
    order = rng.permutation(labels.shape[0])
    return points[order], labels[order]


# --------------------------------------------------------------------------- vMF
def vmf_kappa_from_std(std):
    r"""Concentration of the vMF law from the conformal paper's "std" parameter.

    .. math:: \kappa = 1 / \mathrm{std}^2 .

    Parameters
    ----------
    std : float
        Positive angular spread (radians).

    Returns
    -------
    float
    """
    std = check_real(std, "std", low=0.0)
    kappa = (1.0 / std) / std  # no OverflowError from std**2; a huge std gives kappa -> 0 (uniform)
    if not np.isfinite(kappa):
        raise NumericalOverflowError(
            f"std = {std!r} is too small: kappa = 1/std^2 overflows double precision; std must be >= 7.5e-155",
            param="std",
        )
    return float(kappa)


def vmf_mean_resultant_length(kappa, sphere_dim):
    r"""Mean resultant length :math:`E\langle X, \mu\rangle = A_p(\kappa)` of vMF on :math:`S^{p-1}`.

    .. math:: A_p(\kappa) = \frac{I_{p/2}(\kappa)}{I_{p/2-1}(\kappa)}, \qquad p = d + 1,

    with :math:`I_\nu` the modified Bessel function of the first kind (exponentially
    scaled Bessel functions are used, so large :math:`\kappa` is fine); 0 at :math:`\kappa = 0`.
    """
    from scipy.special import ive

    kappa = check_real(kappa, "kappa", low=0.0, low_closed=True)
    sphere_dim = check_int(sphere_dim, "sphere_dim", low=1, high=10**6)
    if kappa == 0.0:
        return 0.0
    p = sphere_dim + 1
    if kappa < 1e-8:  # A_p(kappa) = (kappa/p)(1 - kappa^2/(p^2 (p+2)) + ...): exact in double precision
        return kappa / p
    if kappa >= 1e6 * p * p:  # A_p = 1 - (p-1)/(2 kappa) - (p-1)(p-3)/(8 kappa^2) + O(p^3/kappa^3)
        return float(1.0 - (p - 1.0) / (2.0 * kappa) - (p - 1.0) * (p - 3.0) / (8.0 * kappa * kappa))
    value = float(ive(p / 2.0, kappa) / ive(p / 2.0 - 1.0, kappa))
    if not (np.isfinite(value) and 0.0 <= value <= 1.0):
        raise NumericalOverflowError(
            f"the Bessel ratio A_p(kappa) is not computable in double precision for kappa = {kappa!r} and "
            f"sphere_dim = {sphere_dim} (the Bessel functions underflow); use a smaller sphere_dim",
            param="sphere_dim",
        )
    return value


def _wood_cosines(kappa, p, n, rng):
    r"""Exact draws of :math:`t = \langle X, \mu\rangle` for vMF on :math:`S^{p-1}` (Wood 1994).

    Rejection from :math:`t = (1 - (1+b)z)/(1 - (1-b)z)`, :math:`z \sim \mathrm{Beta}((p-1)/2, (p-1)/2)`,
    accepting when :math:`\kappa t + (p-1)\log(1 - x_0 t) - c \ge \log u`, with
    :math:`b = (p-1)/(2\kappa + \sqrt{4\kappa^2 + (p-1)^2})`, :math:`x_0 = (1-b)/(1+b)`,
    :math:`c = \kappa x_0 + (p-1)\log(1 - x_0^2)`. Written in terms of :math:`1 - t` and
    :math:`1 - x_0` so that it stays accurate for very large :math:`\kappa`.
    Returns ``(t, one_minus_t)``. Acceptance rate is above ~0.65 (measured) for every :math:`\kappa, p`.
    """
    a = p - 1.0
    # b = a / (2 kappa + sqrt(4 kappa^2 + a^2)) without overflow (kappa up to 1.8e308) or 0/0 (kappa = 0)
    h = kappa / a
    if h >= 1.0:
        g = 0.5 / h
        b = g / (1.0 + np.hypot(1.0, g))
    else:
        b = 1.0 / (2.0 * h + np.hypot(2.0 * h, 1.0))
    b = max(b, np.finfo(float).tiny)  # kappa > 9e307: keep b a normal double (the draws are then t = 1)
    one_minus_x0 = 2.0 * b / (1.0 + b)
    x0 = 1.0 - one_minus_x0
    log_one_minus_x0_sq = np.log(one_minus_x0) + np.log1p(x0)
    accepted = []
    n_accepted = 0
    for _ in range(10_000):
        batch = max(int(1.6 * (n - n_accepted)) + 16, 64)
        z = rng.beta(a / 2.0, a / 2.0, size=batch)
        denom = 1.0 - (1.0 - b) * z
        one_minus_t = 2.0 * b * z / denom
        log_u = np.log(rng.uniform(size=batch))
        log_ratio = kappa * (one_minus_x0 - one_minus_t) + a * (
            np.log(one_minus_x0 + x0 * one_minus_t) - log_one_minus_x0_sq
        )
        keep = one_minus_t[log_ratio >= log_u]
        accepted.append(keep)
        n_accepted += keep.shape[0]
        if n_accepted >= n:
            one_minus_t = np.concatenate(accepted)[:n]
            return 1.0 - one_minus_t, one_minus_t
    raise RuntimeError("Wood's vMF sampler failed to accept enough samples")  # pragma: no cover


def sample_von_mises_fisher(mean_direction, kappa, n, rng):
    r"""Exact von Mises–Fisher sample on :math:`S^d \subset \mathbb{R}^{d+1}` (any :math:`d \ge 1`).

    Density with respect to the uniform measure on the sphere:

    .. math:: f(x) \propto \exp(\kappa \langle \mu, x\rangle).

    The cosine :math:`t = \langle X, \mu\rangle` has density
    :math:`\propto e^{\kappa t}(1 - t^2)^{(d-2)/2}` on :math:`[-1, 1]` and is drawn
    exactly by Wood's (1994) rejection algorithm (vectorised); the direction
    orthogonal to :math:`\mu` is uniform, so

    .. math:: X = t\,\mu + \sqrt{1 - t^2}\, V, \qquad V \sim \mathrm{Unif}(S^d \cap \mu^\perp).

    Parameters
    ----------
    mean_direction : array_like, shape (d+1,)
        Unit vector :math:`\mu` (unit norm within 1e-6; it is then renormalised).
    kappa : float
        Concentration :math:`\kappa \ge 0` (0 = uniform on the sphere).
        See :func:`vmf_kappa_from_std` for the "std" parametrisation.
    n : int
        Number of points.
    rng : numpy.random.Generator or int

    Returns
    -------
    ndarray, shape (n, d+1)
    """
    mu = check_finite_array(mean_direction, "mean_direction", ndim=1)
    if mu.shape[0] < 2:
        raise InvalidParameterError(
            f"mean_direction must have at least 2 coordinates (a point of S^d, d >= 1); got shape {mu.shape}",
            param="mean_direction",
        )
    sphere = get_manifold("sphere", mu.shape[0] - 1)
    mu = sphere.validate_points(mu, "mean_direction", single=True)
    mu = mu / np.linalg.norm(mu)
    kappa = check_real(kappa, "kappa", low=0.0, low_closed=True)
    n = _check_n(n)
    rng = check_rng(rng)
    t, one_minus_t = _wood_cosines(kappa, sphere.dim + 1, n, rng)
    coords = rng.standard_normal((n, sphere.dim))
    coords /= np.linalg.norm(coords, axis=1, keepdims=True)
    directions = sphere.from_frame(mu, coords)
    sin = np.sqrt(np.maximum(one_minus_t * (1.0 + t), 0.0))
    points = t[:, None] * mu + sin[:, None] * directions
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    return finalise_points(sphere, points, n)


def sample_vmf_mixture(mean_directions, kappas, weights, n, rng, return_labels=False):
    r"""Mixture of von Mises–Fisher laws on :math:`S^d` (heterogeneous density).

    .. math:: f(x) = \sum_k w_k\, \mathrm{vMF}(x; \mu_k, \kappa_k).

    Component sizes are multinomial, so the sample is an exact draw from the mixture;
    the points are returned in random order.

    Parameters
    ----------
    mean_directions : array_like, shape (k, d+1)
        Unit mean directions.
    kappas : array_like, shape (k,)
        Concentrations :math:`\kappa_k \ge 0`.
    weights : array_like, shape (k,) or None
        Non-negative mixture weights (normalised here); ``None`` = equal weights.
    n : int
    rng : numpy.random.Generator or int
    return_labels : bool
        Also return the component index of each point.

    Returns
    -------
    points : ndarray, shape (n, d+1)
    labels : ndarray of int, shape (n,)
        Only if ``return_labels``.
    """
    mus = check_finite_array(mean_directions, "mean_directions", ndim=2)
    if mus.shape[0] < 1 or mus.shape[1] < 2:
        raise InvalidParameterError(
            f"mean_directions must have shape (k, d+1) with k >= 1 and d >= 1; got {mus.shape}",
            param="mean_directions",
        )
    sphere = get_manifold("sphere", mus.shape[1] - 1)
    mus = sphere.validate_points(mus, "mean_directions")
    kap = check_finite_array(kappas, "kappas", ndim=1)
    if kap.shape[0] != mus.shape[0] or (kap < 0).any():
        raise InvalidParameterError(
            f"kappas must hold {mus.shape[0]} non-negative concentrations; got {kap.tolist()}", param="kappas"
        )
    w = _check_weights(weights, mus.shape[0])
    n = _check_n(n)
    rng = check_rng(rng)
    counts, labels = _component_sizes(w, n, rng)
    parts = [
        sample_von_mises_fisher(mus[k], kap[k], int(c), rng) for k, c in enumerate(counts) if c > 0
    ]
    points, labels = _shuffle_together(np.concatenate(parts), labels, rng)
    return (points, labels) if return_labels else points


# ------------------------------------------------------------------ uniform ball
def _unit_frame_coords(rng, n, dim):
    coords = rng.standard_normal((n, dim))
    return coords / np.linalg.norm(coords, axis=1, keepdims=True)


def _uniform_ball_radii(volume, dim, radius, n, rng, radial_law):
    r"""Radii of the uniform law in a geodesic ball of radius ``radius`` (any positive radius).

    Euclidean space, or a radius below ``1e-8`` where :math:`J(r)` equals :math:`r^{d-1}` to
    within :math:`(d-1)r^2/6 < 10^{-16}` (double precision): exact :math:`R\,U^{1/d}`. Otherwise
    :class:`~geodp_core.geometry.radial.RadialLaw`; its refusals (radius beyond its
    double-precision range, e.g. :math:`H^d` with huge ``radius``) are re-raised naming ``radius``.
    """
    from geodp_core.geometry.radial import SCALE_MIN

    if volume.is_flat or radius < SCALE_MIN:
        return radius * rng.random(n) ** (1.0 / dim)
    try:
        return radial_law(volume, dim, "uniform", radius).sample(n, rng)
    except InvalidParameterError as exc:
        raise type(exc)(f"radius = {radius!r} cannot be sampled on {volume.label}: {exc}", param="radius") from exc


def sample_uniform_ball(manifold, center, radius, n, rng):
    r"""Uniform sample (w.r.t. Riemannian volume) in the geodesic ball :math:`B(c, R)`.

    In geodesic polar coordinates :math:`y = \mathrm{Exp}_c(r u)` the volume is
    :math:`J(r)\,dr\,du`, so the direction :math:`u` is uniform on the unit sphere of
    :math:`T_c M` and the radius has density

    .. math:: p(r) = \frac{J(r)}{\int_0^R J(s)\,ds}\,\mathbf 1[0 \le r \le R],

    with :math:`J(r) = \sin^{d-1} r` on :math:`S^d`, :math:`\sinh^{d-1} r` on :math:`H^d`,
    :math:`r^{d-1}` on :math:`\mathbb{R}^d` and on the flat SPD metrics (log-Euclidean,
    log-Cholesky: a uniform ball in the Euclidean chart), :math:`\sin^{d-1} r\cos r` on the Kendall
    shape space (:math:`R \le \pi/2`, the whole space at :math:`\pi/2`). The radius is drawn by
    :class:`geodp_core.geometry.radial.RadialLaw` with the ``"uniform"`` profile. For
    SPD with the affine-invariant metric the polar sampler
    :func:`geodp_core.geometry.spd_polar.sample_spd_polar` (uniform profile) is used.

    Parameters
    ----------
    manifold : Manifold
    center : array_like
        Ball centre :math:`c` (a point of ``manifold``).
    radius : float
        :math:`0 < R`; on :math:`S^d` also :math:`R \le \pi` (:math:`R = \pi` is the whole sphere).
    n : int
    rng : numpy.random.Generator or int

    Returns
    -------
    ndarray, shape (n, *manifold.point_shape)
        Every point satisfies :math:`\mathrm{dist}(c, y) \le R`.
    """
    manifold = check_manifold(manifold)
    center = manifold.validate_points(center, "center", single=True)
    limit = manifold.injectivity_radius
    radius = check_real(
        radius, "radius", low=0.0, high=None if np.isinf(limit) else limit, high_closed=True
    )
    n = _check_n(n)
    rng = check_rng(rng)
    if manifold.radial_volume is None:  # not isotropic (SPD(m), affine): the space's own polar sampler
        try:
            points = manifold.sample_polar(center, "uniform", radius, n, rng)
        except InvalidParameterError as exc:
            raise type(exc)(f"radius = {radius!r} cannot be sampled on {manifold.label}: {exc}",
                            param="radius") from exc
        return finalise_points(manifold, points, n, ("radius", radius))
    from geodp_core.geometry.radial import RadialLaw

    radii = _uniform_ball_radii(manifold.radial_volume, manifold.dim, radius, n, rng, RadialLaw)
    coords = _unit_frame_coords(rng, n, manifold.dim) * np.asarray(radii)[:, None]
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
        points = manifold.exp(center, manifold.from_frame(center, coords), check=False)
    return finalise_points(manifold, points, n, ("radius", radius))


# ---------------------------------------------------------------- wrapped normal
def sample_wrapped_normal(manifold, center, std, n, rng):
    r"""Wrapped (exponential-map) normal around ``center``.

    .. math:: Y = \mathrm{Exp}_c\Big(\sum_{k=1}^{d} Z_k e_k(c)\Big),\qquad Z \sim N(0, \sigma^2 I_d),

    with :math:`(e_k)` an orthonormal frame of :math:`T_c M`. On :math:`\mathbb{R}^d` this is
    exactly :math:`N(c, \sigma^2 I)`; on the sphere tangent vectors longer than
    :math:`\pi` wrap around.

    Parameters
    ----------
    manifold : Manifold
    center : array_like
    std : float
        :math:`\sigma \ge 0` (0 returns ``n`` copies of the centre).
    n : int
    rng : numpy.random.Generator or int

    Returns
    -------
    ndarray, shape (n, *manifold.point_shape)
    """
    manifold = check_manifold(manifold)
    center = manifold.validate_points(center, "center", single=True)
    std = check_real(std, "std", low=0.0, low_closed=True)
    n = _check_n(n)
    rng = check_rng(rng)
    coords = standard_frame_coords(rng, n, manifold.dim, std)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
        points = manifold.exp(center, manifold.from_frame(center, coords), check=False)
    return finalise_points(manifold, points, n, ("std", std))


def sample_wrapped_normal_mixture(manifold, centers, stds, weights, n, rng, return_labels=False):
    r"""Mixture of wrapped normals :math:`\sum_k w_k\, \mathrm{WN}(c_k, \sigma_k^2)` (heterogeneous data).

    Intended for :math:`S^d` and :math:`H^d` (any manifold adapter works).

    Parameters
    ----------
    manifold : Manifold
    centers : array_like, shape (k, *manifold.point_shape)
    stds : array_like, shape (k,)
        Non-negative tangent standard deviations.
    weights : array_like, shape (k,) or None
        Non-negative weights (normalised here); ``None`` = equal weights.
    n : int
    rng : numpy.random.Generator or int
    return_labels : bool

    Returns
    -------
    points : ndarray, shape (n, *manifold.point_shape)
    labels : ndarray of int, shape (n,)
        Only if ``return_labels``.
    """
    manifold = check_manifold(manifold)
    cs = manifold.validate_points(centers, "centers")
    if cs.ndim != len(manifold.point_shape) + 1 or cs.shape[0] < 1:
        raise InvalidParameterError(
            f"centers must have shape (k, {', '.join(map(str, manifold.point_shape))}); got {cs.shape}",
            param="centers",
        )
    sd = check_finite_array(stds, "stds", ndim=1)
    if sd.shape[0] != cs.shape[0] or (sd < 0).any():
        raise InvalidParameterError(
            f"stds must hold {cs.shape[0]} non-negative standard deviations; got {sd.tolist()}", param="stds"
        )
    w = _check_weights(weights, cs.shape[0])
    n = _check_n(n)
    rng = check_rng(rng)
    counts, labels = _component_sizes(w, n, rng)
    parts = [sample_wrapped_normal(manifold, cs[k], sd[k], int(c), rng) for k, c in enumerate(counts) if c > 0]
    points, labels = _shuffle_together(np.concatenate(parts), labels, rng)
    return (points, labels) if return_labels else points


# ----------------------------------------------------------------------- Wishart
def sample_wishart(m, dof, scale_matrix, n, rng):
    r"""Wishart matrices :math:`W = \sum_{j=1}^{\nu} g_j g_j^T`, :math:`g_j \sim N(0, \Sigma)`.

    .. math:: E[W] = \nu\,\Sigma .

    Drawn with :data:`scipy.stats.wishart` (Bartlett decomposition) using ``rng``.

    Parameters
    ----------
    m : int
        Matrix size (:math:`m \ge 1`).
    dof : float
        Degrees of freedom :math:`\nu \ge m` (then :math:`W` is SPD almost surely).
    scale_matrix : array_like, shape (m, m) or None
        SPD scale :math:`\Sigma`; ``None`` = identity.
    n : int
    rng : numpy.random.Generator or int

    Returns
    -------
    ndarray, shape (n, m, m)
    """
    m = check_int(m, "m", low=1, high=64)
    spd = get_manifold("spd", m)
    dof = check_real(dof, "dof", low=float(m), low_closed=True)
    scale = np.eye(m) if scale_matrix is None else spd.validate_points(scale_matrix, "scale_matrix", single=True)
    scale = 0.5 * (scale + scale.T)
    n = _check_n(n)
    rng = check_rng(rng)
    draws = scipy.stats.wishart(df=dof, scale=scale).rvs(size=n, random_state=rng)
    points = np.asarray(draws, dtype=float).reshape(n, m, m)
    points = 0.5 * (points + np.swapaxes(points, -1, -2))
    return finalise_points(spd, points, n, ("dof", dof))


# -------------------------------------------------------------------- regression
def sample_geodesic_regression(manifold, footpoint, shooting_vector, n, noise_std, rng):
    r"""Geodesic-regression data (docs/specification.md §2.4).

    .. math::
        x_i = \frac{u_i - \min_j u_j}{\max_j u_j - \min_j u_j},\quad u_i \sim U(0,1),\qquad
        y_i = \mathrm{Exp}_{g_i}(\varepsilon_i),\quad g_i = \mathrm{Exp}_p(x_i v),

    with :math:`\varepsilon_i = \sum_k Z_{ik} e_k(g_i)`, :math:`Z_{ik} \sim N(0, \sigma^2)`
    in an orthonormal frame at :math:`g_i`. Hence :math:`\min_i x_i = 0`,
    :math:`\max_i x_i = 1` exactly and, for :math:`\sigma = 0`, the :math:`y_i` lie on
    the geodesic :math:`t \mapsto \mathrm{Exp}_p(t v)`.

    Parameters
    ----------
    manifold : Manifold
        :math:`S^d`, :math:`H^d`, SPD(m) (any metric) or :math:`\mathbb{R}^d`.
    footpoint : array_like
        :math:`p`, a point of ``manifold``.
    shooting_vector : array_like
        :math:`v \in T_p M`.
    n : int
        :math:`n \ge 2`.
    noise_std : float
        :math:`\sigma \ge 0`.
    rng : numpy.random.Generator or int

    Returns
    -------
    x : ndarray, shape (n,)
    y : ndarray, shape (n, *manifold.point_shape)
    """
    manifold = check_manifold(manifold)
    footpoint = manifold.validate_points(footpoint, "footpoint", single=True)
    shooting_vector = manifold.validate_tangent(footpoint, shooting_vector, "shooting_vector")
    if shooting_vector.shape != tuple(manifold.point_shape):
        raise InvalidParameterError(
            f"shooting_vector must be a single tangent vector of shape {manifold.point_shape}; "
            f"got shape {shooting_vector.shape}",
            param="shooting_vector",
        )
    n = _check_n(n, low=2)
    noise_std = check_real(noise_std, "noise_std", low=0.0, low_closed=True)
    rng = check_rng(rng)
    u = rng.uniform(size=n)
    while u.max() == u.min():  # pragma: no cover - probability zero
        u = rng.uniform(size=n)
    x = (u - u.min()) / (u.max() - u.min())
    k = len(manifold.point_shape)
    x_expanded = x.reshape((n,) + (1,) * k)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
        on_geodesic = manifold.exp(footpoint, x_expanded * shooting_vector, check=False)
    if noise_std == 0.0:
        culprit = ("the norm of shooting_vector", float(manifold.norm(footpoint, shooting_vector)))
        return x, finalise_points(manifold, on_geodesic, n, culprit)
    coords = standard_frame_coords(rng, n, manifold.dim, noise_std)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
        y = manifold.exp(on_geodesic, manifold.from_frame(on_geodesic, coords), check=False)
    return x, finalise_points(manifold, y, n, ("noise_std", noise_std))
