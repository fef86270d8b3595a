r"""Exact GDP accounting of the Riemannian Gaussian mechanism.

The Riemannian Gaussian mechanism releases :math:`Y \sim p_{\eta}` with density

.. math::

    p_{\eta}(y) = \frac{1}{Z(\sigma)} \exp\Big(-\frac{\operatorname{dist}(\eta, y)^2}{2\sigma^2}\Big)

with respect to the Riemannian volume (docs/specification.md §5.2). On a homogeneous space the
normaliser does not depend on :math:`\eta`, the privacy loss of an output
:math:`y` for neighbouring summaries :math:`\eta_1, \eta_2`
(:math:`\operatorname{dist}(\eta_1, \eta_2) = \Delta`) is

.. math::

    L(y) = \frac{d_2^2 - d_1^2}{2\sigma^2}, \qquad d_i = \operatorname{dist}(\eta_i, y),

and the privacy profile is :math:`\delta(\varepsilon) = \int_{L > \varepsilon} p_1 -
e^{\varepsilon} \int_{L > \varepsilon} p_2`. The geodesic reflection swapping
:math:`\eta_1` and :math:`\eta_2` maps :math:`p_2` to :math:`p_1` and :math:`L` to
:math:`-L`, so with :math:`Y \sim p_1`

.. math::

    \delta(\varepsilon) = \Pr[L(Y) > \varepsilon] - e^{\varepsilon}\,\Pr[L(Y) < -\varepsilon].

In geodesic polar coordinates :math:`(r, \theta)` around :math:`\eta_1` (with
:math:`\eta_2` on the axis :math:`\theta = 0`) the radius has density
:math:`\propto J(r) e^{-r^2/(2\sigma^2)}`, :math:`u = \cos\theta` is independent with
:math:`(1+u)/2 \sim \mathrm{Beta}(\tfrac{d-1}{2}, \tfrac{d-1}{2})`, and for fixed
:math:`r` the events :math:`\{L > \varepsilon\}` and :math:`\{L < -\varepsilon\}` are
:math:`\{u < c_+(r)\}` and :math:`\{u > c_-(r)\}`. Both probabilities are therefore
one-dimensional integrals over :math:`r` of regularised incomplete beta functions,
evaluated by Gauss–Legendre quadrature split at every point where the integrand
is not smooth. The circle :math:`S^1` has a closed form. The derivation and the
accuracy evidence are in ``docs/derivations/riemannian_gaussian_gdp.md``.

The reduction needs the law of cosines of a simply connected space of constant curvature
:math:`\kappa`, which the space's radial volume declares
(:attr:`~geodp_core.geometry.radial_volume.RadialVolume.model_curvature`): :math:`\mathbb{R}^d`
(:math:`\kappa = 0`), :math:`H^d` (:math:`\kappa = -1`) and the round sphere of radius
:math:`1/\sqrt\kappa`. The latter is the unit sphere with every distance multiplied by
:math:`1/\sqrt\kappa`, and the privacy loss :math:`(d_2^2 - d_1^2)/(2\sigma^2)` is unchanged when
distances and :math:`\sigma` are scaled together, so

.. math:: \mu_\kappa(\sigma, \Delta) = \mu_1(\sqrt\kappa\,\sigma, \sqrt\kappa\,\Delta).

Every function takes ``space`` as a name (``"sphere"``, ``"hyperbolic"``, ``"euclidean"``, with the
dimension ``dim``), a :class:`~geodp_core.geometry.base.Manifold` or a
:class:`~geodp_core.geometry.radial_volume.RadialVolume`; a space whose volume is not such a model
(e.g. the rotation group :math:`SO(3) = S^3(2)/\pm1`, or :math:`\mathbb{C}P^n` for :math:`n \ge 2`)
raises :class:`~geodp_core.exceptions.UnavailableError`: no exact :math:`\mu` is computed for it.

Public functions: :func:`gdp_mu`, :func:`privacy_profile`,
:func:`riemannian_gaussian_sigma_for_mu`, :func:`gdp_mu_monte_carlo` (the source
paper's Algorithm 2, kept as a cross-check).
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import optimize, special

from geodp_core._validation import check_finite_array, check_int, check_option, check_real, check_rng
from geodp_core.exceptions import ConvergenceError, InvalidParameterError, NumericalOverflowError, UnavailableError
from geodp_core.geometry.radial import radial_volume
from geodp_core.privacy import log_gdp_delta

__all__ = [
    "SPACES",
    "MonteCarloGDPEstimate",
    "gdp_mu",
    "gdp_mu_monte_carlo",
    "privacy_profile",
    "riemannian_gaussian_sigma_for_mu",
    "riemannian_gaussian_calibration",
    "CALIBRATION_WASTE",
    "exact_gdp_available",
]

#: The space names the functions accept (besides a manifold or a radial volume).
SPACES = ("sphere", "hyperbolic", "euclidean")

# Half-width K (in units of sigma) of the core of the radial law.  The radial
# log-density f(r) = (d-1) log J(r) - r^2/(2 sigma^2) is concave with
# f'' <= -1/sigma^2, so the mass outside [mode - K sigma, mode + K sigma] is below
# exp(-K^2/2) = exp(-800) relative to the peak.
_WINDOW_HALF_WIDTH = 40.0
# Extra radial breakpoints mode + sigma * k (so that no quadrature piece spans
# many standard deviations of the radial law).
_RADIAL_STEPS = np.array([-32.0, -16.0, -8.0, -4.0, -2.0, -1.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0])
# Gauss–Legendre nodes per smooth piece.
_N_NODES = 20
# Number of eps grid points of the worst-case search (before local refinement).
_N_EPS_GRID = 256
# Relative tolerance of the bisection on mu.
_MU_RTOL = 1e-12


# --------------------------------------------------------------------------- validation


def _volume(space, dim):
    """The radial volume of ``space`` (a name with ``dim``, a manifold or a volume; ``dim`` then None or its own)."""
    if isinstance(space, str):
        check_option(space, "space", SPACES)
        return radial_volume(space, check_int(dim, "dim", low=1))
    if isinstance(space, (bool, int, float, np.number)) or not hasattr(space, "dim"):
        check_option(space, "space", SPACES)  # raises, naming the parameter and the valid names
    volume = radial_volume(space)
    if dim is not None and check_int(dim, "dim", low=1) != volume.dim:
        raise InvalidParameterError(f"dim must be None or {volume.dim} (the dimension of {volume.label}); got {dim!r}",
                                    param="dim")
    return volume


def _reduction(volume):
    r"""``(model, scale)``: the unit-curvature model of the exact reduction and :math:`\sqrt{|\kappa|}`, or ``None``."""
    kappa = volume.model_curvature
    projective = volume.projective_curvature
    if kappa is None and projective is not None and volume.dim >= 2:
        return _PROJECTIVE, float(np.sqrt(projective))
    if kappa is None:
        return None
    if volume.dim == 1 and kappa < 0.0:  # pragma: no cover - H^1 declares curvature 0 (it is the real line)
        kappa = 0.0
    if kappa > 0.0:
        return _SPHERE, float(np.sqrt(kappa))
    if kappa < 0.0:
        return _HYPERBOLIC, float(np.sqrt(-kappa))
    return _FLAT, 1.0


def exact_gdp_available(space, dim=None):
    """Whether :func:`gdp_mu` computes the exact μ on ``space`` (a name with ``dim``, a manifold or a volume):
    its radial volume is that of a simply connected space of constant curvature."""
    try:
        volume = _volume(space, dim)
    except UnavailableError:  # not isotropic
        return False
    return _reduction(volume) is not None


def _validate(space, dim, sigma, sensitivity):
    """``(model, dim, sigma, delta, scale)``: the unit model and the arguments in its units (σ√|κ|, Δ√|κ|)."""
    volume = _volume(space, dim)
    sigma = check_real(sigma, "sigma", low=0.0)
    upper = float(volume.upper)
    if np.isfinite(upper):
        sensitivity = check_real(sensitivity, "sensitivity", low=0.0, high=upper, high_closed=True)
    else:
        sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    reduction = _reduction(volume)
    if reduction is None:
        raise UnavailableError(
            f"no exact GDP accounting of the Riemannian Gaussian on {volume.label}: the reduction to one polar "
            "integral needs the law of cosines of a simply connected space of constant curvature (R^d, S^d(r), H^d), "
            "and this space is not one",
            param="space",
        )
    model, scale = reduction
    if scale == 1.0:
        return model, volume.dim, sigma, sensitivity, scale
    return model, volume.dim, sigma * scale, min(sensitivity * scale, model.r_max), scale


# --------------------------------------------------------------------------- unit-curvature models


class _Model:
    r"""A simply connected model space of curvature 0, +1 or -1: what the reduction needs of it.

    The quadrature below is written once; the model supplies the space's :math:`S(x)` (:math:`\sin` or
    :math:`\sinh`, the per-dimension factor of :math:`J(r) = S(r)^{d-1}`), its largest radius, the bound of the
    privacy loss and its extreme regimes, and the exact sampler of the Monte Carlo cross-check.
    """

    #: Largest geodesic distance.
    r_max = np.inf
    #: Flat: the privacy loss is linear and μ = Δ/σ exactly.
    is_flat = False

    def loss_upper_bound(self, sigma, delta):
        """Supremum of the privacy loss (``inf`` when unbounded)."""
        return np.inf

    def check_sensitivity(self, delta):
        """Refuse a sensitivity the model's formulas cannot represent (nothing by default)."""

    def infimum_mu(self, dim, delta):
        """Infimum of μ(σ) over σ (0 unless μ(σ) stays bounded below)."""
        return 0.0

    def large_sigma(self, dim, sigma, delta):
        """``(mu, worst eps)`` beyond the validated range of σ, or ``None`` (inside it)."""
        return None

    def conditional_tails(self, dim, sigma, delta, eps, r):
        """``P[L > ε]``, ``P[L <= ε]``, ``P[L < -ε]`` for fixed radius (:func:`_conditional_tail_probabilities`)."""
        return _conditional_tail_probabilities(self, dim, sigma, delta, eps, r)


class _FlatModel(_Model):
    r""":math:`\mathbb{R}^d` (and :math:`H^1`, isometric to the real line)."""

    is_flat = True

    def ambient_distance(self, base, points):
        return np.linalg.norm(points - base, axis=1)


class _QuadricModel(_Model):
    r"""A unit-curvature quadric :math:`\{x_0^2 + k\,|\bar x|^2 = 1\}` of :math:`\mathbb{R}^{d+1}` (:math:`k = +1`: the
    sphere, :math:`k = -1`: the hyperboloid, Minkowski form) with :math:`C, S = \cos, \sin` or :math:`\cosh, \sinh`
    (:meth:`cos_sin`): the Monte Carlo cross-check's pair :math:`e_0` and :math:`\eta'`, and the isometry between
    them, written once."""

    #: Sectional curvature :math:`k = \pm 1`.
    curvature = 1.0

    def moved_base(self, dim, delta):
        """(C(Δ), S(Δ), 0, ...): the point at distance Δ from e0 along e1."""
        eta = np.zeros(dim + 1)
        eta[0], eta[1] = self.cos_sin(delta)
        return eta

    def move(self, points, delta):
        r"""The isometry of the (e0, e1) plane taking e0 to (C(Δ), S(Δ), 0, ...), in place: the rotation by Δ on the
        sphere (:math:`x_0 \mapsto Cx_0 - Sx_1`), the boost by Δ on the hyperboloid (:math:`x_0 \mapsto Cx_0 + Sx_1`)."""
        c, s = self.cos_sin(delta)
        x0, x1 = points[:, 0].copy(), points[:, 1].copy()
        points[:, 0], points[:, 1] = c * x0 - self.curvature * s * x1, s * x0 + c * x1


class _SphereModel(_QuadricModel):
    r"""The unit sphere :math:`S^d \subset \mathbb{R}^{d+1}`: :math:`S = \sin`, distances at most :math:`\pi`."""

    r_max = np.pi

    def loss_upper_bound(self, sigma, delta):
        r"""Supremum of the privacy loss: :math:`\Delta(2\pi - \Delta)/(2\sigma^2)`."""
        return delta * (2.0 * np.pi - delta) / (2.0 * sigma**2)

    @staticmethod
    def log_s(x):
        return np.log(np.sin(x))

    @staticmethod
    def s_ratio(p, q, log_denominator):
        """The sines are bounded: the product is formed directly."""
        return np.sin(p) * np.sin(q) * np.exp(-log_denominator)

    @staticmethod
    def cot(r):
        return 1.0 / np.tan(r)

    @staticmethod
    def mode_bracket_high(dim, sigma):
        return np.pi - 1e-12

    @staticmethod
    def upper_event_possible(r, delta, s_plus):
        r""":math:`\{d_2 > s_+\}` is empty when :math:`s_+` exceeds the largest distance
        :math:`\min(r + \Delta, 2\pi - r - \Delta)`."""
        return (s_plus < np.pi) & (r < np.pi) & (r + delta + s_plus < 2.0 * np.pi)

    @staticmethod
    def lower_event_possible(r):
        return r < np.pi

    @staticmethod
    def extra_kinks(sigma, delta, eps, q):
        r""":math:`x_+ = 0` at :math:`r = ((2\pi - \Delta)^2 - 2\sigma^2\varepsilon)/(2(2\pi - \Delta))`,
        :math:`x_- = 1` at :math:`r = ((2\pi - \Delta)^2 + 2\sigma^2\varepsilon)/(2(2\pi - \Delta))`
        (plus :math:`r = \pi - \Delta` and :math:`s_+ = \pi`, harmless extra splits)."""
        w = 2.0 * np.pi - delta
        two_s2e = 2.0 * sigma**2 * eps
        return [
            (w**2 - two_s2e) / (2.0 * w),
            (w**2 + two_s2e) / (2.0 * w),
            np.full_like(q, np.pi - delta),
            np.sqrt(np.maximum(np.pi**2 - two_s2e, 0.0)),
        ]

    @staticmethod
    def one_dimensional_tails(sigma, delta, eps):
        return _circle_tail_probabilities(sigma, delta, eps)

    def large_sigma(self, dim, sigma, delta):
        r"""Beyond :data:`_SPHERE_MAX_SIGMA`: the loss is bounded by :math:`L_{\max}` (:meth:`loss_upper_bound`), so
        the mechanism is :math:`L_{\max}`-DP, hence :math:`\mu \le` eps_dp_to_gdp(:math:`L_{\max}`)
        :math:`\approx 1.26 L_{\max}` and :math:`\mu \to 0` like :math:`1/\sigma^2`: 0 where that bound underflows,
        else refused (the law is nearly uniform and the quadrature inaccurate)."""
        if sigma <= _SPHERE_MAX_SIGMA:
            return None
        at_unit = 1.26 * self.loss_upper_bound(1.0, delta)  # L_max is this / sigma^2 (no square of a huge sigma)
        with np.errstate(under="ignore"):
            bound = at_unit / sigma / sigma
        if bound < np.finfo(float).tiny:
            return 0.0, np.nan  # mu is below the smallest normal double: 0 to double precision
        underflow = np.sqrt(at_unit / np.finfo(float).tiny)
        raise NumericalOverflowError(
            f"sigma={sigma!r} is beyond the range where the exact GDP quadrature is accurate: sigma must be in "
            f"(0, {_SPHERE_MAX_SIGMA:g}] in unit-curvature units (or so large that mu underflows, sigma > "
            f"{underflow:.3g}); here the law is nearly uniform and the mechanism is eps-DP with eps = "
            f"{bound / 1.26:.3g}, so mu <= {bound:.3g}",
            param="sigma",
        )

    @staticmethod
    def propose_radii(dim, sigma, batch, rng):
        r""":math:`\sigma \le 1`: propose :math:`\sigma\chi_d`, reject :math:`r > \pi`, accept with probability
        :math:`(\sin r / r)^{d-1} \le 1`; :math:`\sigma > 1`: propose the radius of a uniform point (density
        :math:`\propto \sin^{d-1} r`), accept with probability :math:`e^{-r^2/(2\sigma^2)}`."""
        if sigma <= 1.0:
            r = sigma * np.sqrt(rng.chisquare(dim, size=batch))
            with np.errstate(invalid="ignore", divide="ignore"):
                accept = np.where(r < np.pi, (np.sin(r) / r) ** (dim - 1), 0.0)
            return r, accept
        first = rng.standard_normal((batch, dim + 1))
        r = np.arccos(np.clip(first[:, 0] / np.linalg.norm(first, axis=1), -1.0, 1.0))
        return r, np.exp(-(r**2) / (2.0 * sigma**2))

    @staticmethod
    def cos_sin(radii):
        return np.cos(radii), np.sin(radii)

    @staticmethod
    def ambient_distance(base, points):
        return np.arccos(np.clip(points @ base, -1.0, 1.0))


class _HyperbolicModel(_QuadricModel):
    r"""The hyperboloid :math:`H^d`: :math:`S = \sinh` (in logs: it overflows), unbounded distances."""

    def check_sensitivity(self, delta):
        """Refuse a sensitivity whose cosh/sinh overflow (naming ``sensitivity``)."""
        if delta > _HYPERBOLIC_MAX_SENSITIVITY:
            raise NumericalOverflowError(
                f"sensitivity={delta!r} is too large on hyperbolic space: cosh/sinh of distances overflow double "
                f"precision; sensitivity must be in (0, {_HYPERBOLIC_MAX_SENSITIVITY:g}]",
                param="sensitivity",
            )

    @staticmethod
    def log_s(x):
        # log sinh x = x + log(1 - e^{-2x}) - log 2, accurate for every x > 0 and free of overflow.
        return x + np.log(-np.expm1(-2.0 * x)) - np.log(2.0)

    def s_ratio(self, p, q, log_denominator):
        """In logs: sinh overflows."""
        return np.exp(self.log_s(p) + self.log_s(q) - log_denominator)

    @staticmethod
    def cot(r):
        return 1.0 / np.tanh(r)

    @staticmethod
    def mode_bracket_high(dim, sigma):
        return (dim - 1) * sigma**2 + np.sqrt(dim - 1) * sigma + 1.0

    @staticmethod
    def upper_event_possible(r, delta, s_plus):
        return True

    @staticmethod
    def lower_event_possible(r):
        return True

    @staticmethod
    def extra_kinks(sigma, delta, eps, q):
        return []

    def infimum_mu(self, dim, delta):
        return _hyperbolic_mu_limit(dim, delta)

    def large_sigma(self, dim, sigma, delta):
        if sigma <= _HYPERBOLIC_MAX_SIGMA:
            return None
        mu, _ = _gdp_mu_and_worst_eps(self, dim, _HYPERBOLIC_MAX_SIGMA, delta)
        return max(mu, delta / sigma), np.inf

    @staticmethod
    def propose_radii(dim, sigma, batch, rng):
        r""":math:`\sinh^{d-1} r\, e^{-r^2/(2\sigma^2)} = 2^{1-d}(1 - e^{-2r})^{d-1} e^{(d-1)r - r^2/(2\sigma^2)}`:
        propose :math:`N((d-1)\sigma^2, \sigma^2)`, reject :math:`r \le 0`, accept with probability
        :math:`(1 - e^{-2r})^{d-1}`."""
        r = rng.normal((dim - 1) * sigma**2, sigma, size=batch)
        return r, np.where(r > 0.0, (-np.expm1(-2.0 * np.maximum(r, 0.0))) ** (dim - 1), 0.0)

    curvature = -1.0

    @staticmethod
    def cos_sin(radii):
        return np.cosh(radii), np.sinh(radii)

    @staticmethod
    def ambient_distance(base, points):
        minkowski = -points[:, 0] * base[0] + points[:, 1:] @ base[1:]
        return np.arccosh(np.maximum(-minkowski, 1.0))


class _ProjectiveModel(_SphereModel):
    r"""The real projective space :math:`\mathbb{R}P^d = S^d/\pm1` (unit curvature; :math:`SO(3)` is
    :math:`\mathbb{R}P^3` of curvature 1/4): distances at most :math:`\pi/2`.

    Lift :math:`\eta, \eta', y` to the unit sphere with :math:`\tilde y` within :math:`r = d(\eta, y) \le \pi/2` of
    :math:`\tilde\eta` and :math:`\tilde\eta'` within :math:`\Delta` of it; with :math:`\tilde d` the sphere
    distance of :math:`\tilde y` and :math:`\tilde\eta'` (law of cosines in the polar angle of :math:`\tilde y`),
    :math:`d(\eta', y) = \min(\tilde d, \pi - \tilde d)` (the other lift :math:`-\tilde y`). So

    .. math::

        \{L > \varepsilon\} = \{s_+ < \tilde d < \pi - s_+\}, \qquad
        \{L < -\varepsilon\} = \{\tilde d < s_-\} \cup \{\tilde d > \pi - s_-\},

    and :math:`\{\tilde d > \pi - t\} = \{d(\tilde y, -\tilde\eta') < t\}`, the sphere's lower event for the
    antipode :math:`-\tilde\eta'` at distance :math:`\pi - \Delta` (with :math:`t = s_+`: the lower event at
    :math:`-\varepsilon`). Every probability is one of the sphere's closed forms.
    """

    r_max = np.pi / 2.0

    def loss_upper_bound(self, sigma, delta):
        r"""Supremum of the privacy loss: :math:`\Delta(\pi - \Delta)/(2\sigma^2)` (:math:`d_2 \le
        \min(r + \Delta, \pi/2)`)."""
        return delta * (np.pi - delta) / (2.0 * sigma**2)

    @staticmethod
    def mode_bracket_high(dim, sigma):
        return np.pi / 2.0 - 1e-12

    def conditional_tails(self, dim, sigma, delta, eps, r):
        """``P[L > ε]``, ``P[L <= ε]``, ``P[L < -ε]`` for fixed radius (see the class docstring)."""
        far = np.pi - delta
        above, not_above, below = _conditional_tail_probabilities(_SPHERE, dim, sigma, delta, eps, r)
        beyond_plus = _conditional_tail_probabilities(_SPHERE, dim, sigma, far, -eps, r)[2]  # d~ > pi - s_+
        beyond_minus = _conditional_tail_probabilities(_SPHERE, dim, sigma, far, eps, r)[2]  # d~ > pi - s_-
        with np.errstate(invalid="ignore"):
            possible = r**2 + 2.0 * sigma**2 * eps < (np.pi / 2.0) ** 2  # s_+ < pi/2
        upper = np.where(possible, np.maximum(above - beyond_plus, 0.0), 0.0)
        not_upper = np.where(possible, np.minimum(not_above + beyond_plus, 1.0), 1.0)
        lower = np.minimum(below + beyond_minus, 1.0)
        return upper, not_upper, lower

    def extra_kinks(self, sigma, delta, eps, q):
        r"""The sphere's kinks for :math:`\Delta` and for the antipode at :math:`\pi - \Delta` (at ±ε), and
        :math:`s_+ = \pi/2`."""
        far = np.pi - delta
        q_far = sigma**2 * eps / far
        points = list(_SphereModel.extra_kinks(sigma, delta, eps, q))
        for sign in (1.0, -1.0):
            points += [far / 2.0 - sign * q_far, sign * q_far - far / 2.0, far / 2.0 + sign * q_far]
            points += list(_SphereModel.extra_kinks(sigma, far, sign * eps, sign * q_far))
        points.append(np.sqrt(np.maximum((np.pi / 2.0) ** 2 - 2.0 * sigma**2 * eps, 0.0)))
        return points

    @staticmethod
    def one_dimensional_tails(sigma, delta, eps):  # pragma: no cover - RP^1 is refused by _reduction
        raise UnavailableError("no exact GDP accounting on the projective line", param="space")

    @staticmethod
    def propose_radii(dim, sigma, batch, rng):
        r"""The sphere's proposals, rejecting radii beyond :math:`\pi/2` (the radius law is the sphere's, cut)."""
        r, accept = _SphereModel.propose_radii(dim, sigma, batch, rng)
        return r, np.where(r <= np.pi / 2.0, accept, 0.0)

    @staticmethod
    def ambient_distance(base, points):
        r""":math:`\arccos|\langle x, y\rangle|`: the nearer of the two lifts."""
        return np.arccos(np.clip(np.abs(points @ base), 0.0, 1.0))


_FLAT, _SPHERE, _HYPERBOLIC, _PROJECTIVE = _FlatModel(), _SphereModel(), _HyperbolicModel(), _ProjectiveModel()


# --------------------------------------------------------------------------- S^1 closed form


def _log_normal_mass(lo, hi, sigma):
    r"""Return :math:`\log(\Phi(hi/\sigma) - \Phi(lo/\sigma))` accurately (``-inf`` if empty)."""
    lo, hi = np.broadcast_arrays(np.asarray(lo, float) / sigma, np.asarray(hi, float) / sigma)
    out = np.full(lo.shape, -np.inf)
    ok = hi > lo
    # Use the tail on the side away from 0 so that the subtraction is benign.
    right = ok & (lo >= 0.0)
    left = ok & ~right
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = special.log_ndtr(-lo[right]), special.log_ndtr(-hi[right])
        out[right] = a + np.log1p(-np.exp(b - a))
        a, b = special.log_ndtr(hi[left]), special.log_ndtr(lo[left])
        out[left] = a + np.log1p(-np.exp(b - a))
    return out


def _circle_tail_probabilities(sigma, delta, eps):
    r"""Closed-form logs of P[L > eps], P[L <= eps] and P[L < -eps] on the circle S^1.

    With :math:`\eta_1 = 0`, :math:`\eta_2 = \Delta` and :math:`Y = t \in (-\pi, \pi]`
    (density :math:`\propto e^{-t^2/(2\sigma^2)}`), the loss is linear on the two arcs
    :math:`[\Delta - \pi, \pi]` (decreasing) and :math:`(-\pi, \Delta - \pi)` (increasing),
    with range :math:`[-L_{max}, L_{max}]`, :math:`L_{max} = \Delta(2\pi - \Delta)/(2\sigma^2)`.
    For :math:`0 \le \varepsilon < L_{max}`:

    .. math::

        \{L > \varepsilon\} = (t_2, t_1), \quad
        t_1 = \frac{\Delta}{2} - \frac{\sigma^2\varepsilon}{\Delta}, \quad
        t_2 = \frac{2\sigma^2\varepsilon - (2\pi-\Delta)^2}{2(2\pi-\Delta)},

        \{L < -\varepsilon\} = (-\pi, t_4) \cup (t_3, \pi], \quad
        t_3 = \frac{\Delta}{2} + \frac{\sigma^2\varepsilon}{\Delta}, \quad
        t_4 = -\frac{2\sigma^2\varepsilon + (2\pi-\Delta)^2}{2(2\pi-\Delta)}.
    """
    w = 2.0 * np.pi - delta
    s2e = sigma**2 * eps
    t1 = delta / 2.0 - s2e / delta
    t2 = (2.0 * s2e - w**2) / (2.0 * w)
    t3 = delta / 2.0 + s2e / delta
    t4 = -(2.0 * s2e + w**2) / (2.0 * w)
    log_c = _log_normal_mass(-np.pi, np.pi, sigma)
    log_upper = _log_normal_mass(t2, t1, sigma) - log_c
    log_not_upper = np.logaddexp(_log_normal_mass(-np.pi, t2, sigma), _log_normal_mass(t1, np.pi, sigma)) - log_c
    log_lower = np.logaddexp(_log_normal_mass(t3, np.pi, sigma), _log_normal_mass(-np.pi, t4, sigma)) - log_c
    beyond = eps >= _SPHERE.loss_upper_bound(sigma, delta)
    log_upper = np.where(beyond, -np.inf, log_upper)
    log_not_upper = np.where(beyond, 0.0, np.minimum(log_not_upper, 0.0))
    log_lower = np.where(beyond, -np.inf, log_lower)
    return log_upper, log_not_upper, log_lower


# --------------------------------------------------------------------------- radial law (d >= 2)


def _log_s(model, x):
    """``log(sin x)`` on the sphere, ``log(sinh x)`` on H^d (stable for large x)."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return model.log_s(x)


@lru_cache(maxsize=8)
def _reference_nodes(n_nodes):
    r"""Gauss–Legendre nodes on [0, 1] pushed through :math:`h(u) = \sin^2(\pi u/2)`.

    The map clusters nodes quadratically at both ends of each piece: an endpoint
    behaviour :math:`(r - a)^{(d-1)/2}` (an incomplete beta function leaving 0 or 1)
    becomes :math:`\sin^{d-1}(\pi u/2)`, which is smooth, so the rule converges fast.
    Returns the positions :math:`h(u_k)` and the weights :math:`w_k h'(u_k)`.
    """
    u, w = np.polynomial.legendre.leggauss(n_nodes)
    u, w = (u + 1.0) / 2.0, w / 2.0
    return np.sin(np.pi * u / 2.0) ** 2, w * (np.pi / 2.0) * np.sin(np.pi * u)


def _quadrature(breakpoints, n_nodes):
    """Nodes and weights on the consecutive pieces of sorted ``breakpoints`` (last axis)."""
    position, weight = _reference_nodes(n_nodes)
    length = np.diff(breakpoints, axis=-1)[..., None]
    nodes = breakpoints[..., :-1, None] + length * position
    shape = breakpoints.shape[:-1] + (-1,)
    return nodes.reshape(shape), (length * weight).reshape(shape)


@dataclass(frozen=True)
class _RadialLaw:
    r"""Radial law :math:`\propto e^{f(r)}`, :math:`f(r) = (d-1)\log J(r) - r^2/(2\sigma^2)`, d >= 2.

    :math:`f` is concave with :math:`f'' \le -1/\sigma^2`, so the mass beyond
    ``mode + K sigma`` is below :math:`e^{-K^2/2}` (K = 40: :math:`e^{-800}`) of the peak.
    ``core_high`` is that radius; the integration domain ``[low, high]`` extends a further
    :math:`\Delta + K\sigma` so that :math:`\Pr[L < -\varepsilon]`, whose region starts at
    :math:`r = \Delta/2 + \sigma^2\varepsilon/\Delta`, is integrated in full for every
    :math:`\varepsilon` whose :math:`\{L > \varepsilon\}` region meets the core.
    """

    model: _Model
    dim: int
    sigma: float
    delta: float
    mode: float
    low: float
    core_high: float
    high: float
    log_normaliser: float

    @classmethod
    def build(cls, model, dim, sigma, delta):
        r_max = model.r_max
        # f'(r) decreases from +inf (r -> 0) to -inf: bracket its root.
        lo = min(1e-3, 1e-3 * sigma)
        hi = model.mode_bracket_high(dim, sigma)
        mode = optimize.brentq(lambda r: _log_density_slope(model, dim, sigma, r), lo, hi, xtol=1e-14 * hi)
        reach = _WINDOW_HALF_WIDTH * sigma
        low = max(0.0, mode - reach)
        core_high = min(r_max, mode + reach)
        high = min(r_max, core_high + delta + reach)
        law = cls(model, dim, sigma, delta, mode, low, core_high, high, 0.0)
        nodes, weights = _quadrature(law.fixed_breakpoints()[None, :], 4 * _N_NODES)
        with np.errstate(divide="ignore"):
            log_terms = np.log(weights) + _log_radial_unnormalised(model, dim, sigma, nodes)
        return cls(model, dim, sigma, delta, mode, low, core_high, high, float(special.logsumexp(log_terms)))

    def fixed_breakpoints(self):
        """Domain ends, core end and mode + k sigma (|k| <= 32), clipped and sorted."""
        points = np.concatenate(
            [[self.low, self.core_high, self.high, self.mode], self.mode + self.sigma * _RADIAL_STEPS]
        )
        return np.sort(np.clip(points, self.low, self.high))

    def log_pdf(self, r):
        return _log_radial_unnormalised(self.model, self.dim, self.sigma, r) - self.log_normaliser

    def decay_breakpoints(self, points):
        r"""Add :math:`p + \lambda_p \{1/4, 1, 4, 16, 64\}` after each point p beyond the mode.

        :math:`\lambda_p = 1/|f'(p)|` is the e-folding length of the radial density at p;
        by concavity the density is below :math:`e^{-k}` of its value at p beyond
        :math:`p + k\lambda_p`. An integrand that starts at p (a region boundary in the
        tail) is thus resolved on its own scale, however far in the tail p is.
        """
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # checked by nan_to_num below
            slope = _log_density_slope(self.model, self.dim, self.sigma, points)
            scale = np.where(slope < 0.0, -1.0 / slope, 0.0)
        scale = np.nan_to_num(scale, nan=0.0, posinf=0.0)
        extra = points[..., :, None] + scale[..., :, None] * _DECAY_STEPS
        return np.concatenate([points, extra.reshape(points.shape[:-1] + (-1,))], axis=-1)


_DECAY_STEPS = np.array([0.25, 1.0, 4.0, 16.0, 64.0])


def _log_radial_unnormalised(model, dim, sigma, r):
    r"""Return :math:`f(r) = (d-1)\log J(r) - r^2/(2\sigma^2)`."""
    r = np.asarray(r, dtype=float)
    return (dim - 1) * _log_s(model, r) - r**2 / (2.0 * sigma**2)


def _log_density_slope(model, dim, sigma, r):
    r"""Return :math:`f'(r) = (d-1)\cot r - r/\sigma^2` (sphere) or :math:`(d-1)\coth r - r/\sigma^2` (H^d)."""
    r = np.asarray(r, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = model.cot(r)
    return (dim - 1) * ratio - r / sigma**2


# --------------------------------------------------------------------------- d >= 2 quadrature


def _theta_cdf(x, dim):
    r"""Return :math:`\Pr[(1+\cos\theta)/2 \le x] = I_x(\tfrac{d-1}{2}, \tfrac{d-1}{2})` for x in [0, 1]."""
    if dim == 2:
        return (2.0 / np.pi) * np.arcsin(np.sqrt(x))
    if dim == 3:
        return x
    a = (dim - 1) / 2.0
    return special.betainc(a, a, x)


def _s_ratio(model, p, q, log_denominator):
    r"""Return :math:`S(p)S(q)/[S(r)S(\Delta)]` with :math:`S = \sin` or :math:`\sinh` (``log_denominator`` given).

    On the sphere the sines are bounded and the product is formed directly; on :math:`H^d` in logs (sinh
    overflows).
    """
    return model.s_ratio(p, q, log_denominator)


def _conditional_tail_probabilities(model, dim, sigma, delta, eps, r):
    r"""For fixed radius: :math:`\Pr_\theta[L > \varepsilon]`, its complement and :math:`\Pr_\theta[L < -\varepsilon]`.

    With :math:`S = \sin` (sphere) or :math:`\sinh` (H^d),
    :math:`s_\pm = \sqrt{r^2 \pm 2\sigma^2\varepsilon}` and the law of cosines
    :math:`C(d_2) = C(r)C(\Delta) \pm S(r)S(\Delta)\cos\theta`, the event
    :math:`\{L > \varepsilon\} = \{d_2 > s_+\}` is :math:`\{(1 + \cos\theta)/2 < x_+\}` and
    :math:`\{L < -\varepsilon\} = \{d_2 < s_-\}` is :math:`\{(1 - \cos\theta)/2 < x_-\}`, where

    .. math::

        x_+ = \frac{S\big(\tfrac{r + \Delta + s_+}{2}\big)\,S\big(\tfrac{r + \Delta - s_+}{2}\big)}{S(r)S(\Delta)},
        \qquad
        x_- = \frac{S\big(\tfrac{s_- + |r - \Delta|}{2}\big)\,S\big(\tfrac{s_- - |r - \Delta|}{2}\big)}{S(r)S(\Delta)}

    (product-to-sum identities; the differences :math:`r + \Delta - s_+` and
    :math:`s_- - |r-\Delta|` are formed as ratios so that no cancellation occurs). The
    probabilities are :math:`I_{x_\pm}(\tfrac{d-1}{2}, \tfrac{d-1}{2})`, with
    :math:`x_\pm` clipped to [0, 1]. On the sphere :math:`\{d_2 > s_+\}` is empty when
    :math:`s_+` exceeds the largest distance :math:`\min(r + \Delta, 2\pi - r - \Delta)`.
    The complement :math:`\Pr_\theta[L \le \varepsilon] = I_{1 - x_+}` is computed from
    :math:`1 - x_+`, which is :math:`x_-` with :math:`s_-` replaced by :math:`s_+`, so that it
    keeps its relative accuracy when :math:`\Pr_\theta[L > \varepsilon]` is close to 1.
    """
    two_s2e = 2.0 * sigma**2 * eps
    abs_diff = np.abs(r - delta)
    log_denominator = _log_s(model, r) + _log_s(model, delta)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # Upper event {d2 > s_plus}.
        s_plus = np.sqrt(r**2 + two_s2e)
        gap_plus = (2.0 * r * delta + delta**2 - two_s2e) / (r + delta + s_plus)  # = r + Delta - s_plus
        ok = (gap_plus > 0.0) & (r > 0.0)
        ok &= model.upper_event_possible(r, delta, s_plus)
        x_plus = np.minimum(np.where(ok, _s_ratio(model, (r + delta + s_plus) / 2.0, gap_plus / 2.0, log_denominator),
                                     0.0), 1.0)
        p_upper = _theta_cdf(x_plus, dim)
        # Complement {d2 <= s_plus}: empty when s_plus <= |r - Delta|, everything when ~ok.
        denom = s_plus + abs_diff
        gap = (2.0 * r * delta - delta**2 + two_s2e) / denom  # = s_plus - |r - Delta|
        y_plus = np.minimum(np.where(gap > 0.0, _s_ratio(model, denom / 2.0, gap / 2.0, log_denominator), 0.0), 1.0)
        p_not_upper = np.where(ok, _theta_cdf(y_plus, dim), 1.0)

        # Lower event {d2 < s_minus}; empty unless r^2 > 2 sigma^2 eps.
        s_minus_sq = r**2 - two_s2e
        s_minus = np.sqrt(np.maximum(s_minus_sq, 0.0))
        denom = s_minus + abs_diff
        gap_minus = (2.0 * r * delta - delta**2 - two_s2e) / denom  # = s_minus - |r - Delta|
        ok = (s_minus_sq > 0.0) & (denom > 0.0) & (gap_minus > 0.0) & (r > 0.0)
        ok &= model.lower_event_possible(r)
        x_minus = np.minimum(np.where(ok, _s_ratio(model, denom / 2.0, gap_minus / 2.0, log_denominator), 0.0), 1.0)
        p_lower = _theta_cdf(x_minus, dim)
    return p_upper, p_not_upper, p_lower


def _eps_breakpoints(model, sigma, delta, eps):
    r"""Radii where :math:`x_\pm` leaves (0, 1) (kinks of the integrand), shape (n_eps, k).

    :math:`x_+ = 1` at :math:`r = \Delta/2 - \sigma^2\varepsilon/\Delta`; :math:`x_+ = 0` at
    :math:`r = \sigma^2\varepsilon/\Delta - \Delta/2` and on the sphere at
    :math:`r = ((2\pi - \Delta)^2 - 2\sigma^2\varepsilon)/(2(2\pi - \Delta))`;
    :math:`x_- = 0` at :math:`r = \Delta/2 + \sigma^2\varepsilon/\Delta`; on the sphere
    :math:`x_- = 1` at :math:`r = ((2\pi - \Delta)^2 + 2\sigma^2\varepsilon)/(2(2\pi - \Delta))`
    (plus :math:`r = \pi - \Delta` and :math:`s_+ = \pi`, harmless extra splits).
    """
    q = sigma**2 * eps / delta
    points = [delta / 2.0 - q, q - delta / 2.0, delta / 2.0 + q]
    points += model.extra_kinks(sigma, delta, eps, q)
    return np.stack(points, axis=-1)


def _quadrature_tail_probabilities(model, dim, sigma, delta, eps, n_nodes=_N_NODES):
    r"""Log of :math:`\Pr[L > \varepsilon]`, :math:`\Pr[L \le \varepsilon]`, :math:`\Pr[L < -\varepsilon]` (d >= 2).

    Pieces: the radial law's fixed breakpoints and the kinks of
    :func:`_eps_breakpoints`, each followed by its decay breakpoints; ``n_nodes``
    mapped Gauss–Legendre nodes per piece; sums in log space (``logsumexp``) so that
    probabilities far below the double-precision range keep their relative accuracy.
    """
    law = _RadialLaw.build(model, dim, sigma, delta)
    kinks = np.clip(_eps_breakpoints(model, sigma, delta, eps), law.low, law.high)
    fixed = np.broadcast_to(law.fixed_breakpoints(), eps.shape + law.fixed_breakpoints().shape)
    points = np.concatenate([fixed, law.decay_breakpoints(kinks)], axis=-1)
    points = np.sort(np.clip(points, law.low, law.high), axis=-1)
    nodes, weights = _quadrature(points, n_nodes)
    live = weights > 0.0  # skip the empty pieces (coincident breakpoints)
    eps_live = np.broadcast_to(eps[:, None], nodes.shape)[live]
    probabilities = model.conditional_tails(dim, sigma, delta, eps_live, nodes[live])
    log_w = np.full(nodes.shape, -np.inf)
    with np.errstate(divide="ignore"):
        log_w[live] = np.log(weights[live]) + law.log_pdf(nodes[live])
    # log sum_k w_k p_k per eps (a logsumexp of log w + log p: p may be subnormal in the far tail).
    log_w_live = log_w[live]
    terms = np.full(nodes.shape, -np.inf)
    results = []
    with np.errstate(divide="ignore"):
        for p_live in probabilities:
            terms[live] = log_w_live + np.log(p_live)
            shift = np.max(terms, axis=-1, keepdims=True)
            shift[~np.isfinite(shift)] = 0.0
            total = np.sum(np.exp(terms - shift), axis=-1)
            results.append(np.minimum(np.log(total) + shift[:, 0], 0.0))
    return tuple(results)


def _log_tail_probabilities(model, dim, sigma, delta, eps, chunk=256):
    """Log of P[L > eps], P[L <= eps], P[L < -eps] (closed form on S^1, else quadrature in chunks).

    Only the circle reaches here with ``dim = 1`` (H^1 and the line are flat: closed form upstream).
    """
    if dim == 1:
        return model.one_dimensional_tails(sigma, delta, eps)
    parts = [
        _quadrature_tail_probabilities(model, dim, sigma, delta, eps[start : start + chunk])
        for start in range(0, eps.size, chunk)
    ]
    return tuple(np.concatenate([part[k] for part in parts]) for k in range(3))


def _log_one_minus_gdp_delta(mu, eps):
    r"""Return :math:`\log(1 - \delta_\mu(\varepsilon))`.

    .. math::

        1 - \delta_\mu(\varepsilon) = \Phi(\varepsilon/\mu - \mu/2) + e^{\varepsilon}\Phi(-\varepsilon/\mu - \mu/2).

    Accurate where :math:`\delta_\mu(\varepsilon)` is within rounding of 1 (large
    :math:`\mu`, small :math:`\varepsilon`), where ``log_gdp_delta`` rounds to 0.
    """
    return np.logaddexp(special.log_ndtr(eps / mu - mu / 2.0), eps + special.log_ndtr(-eps / mu - mu / 2.0))


def _combine_profile(eps, log_upper, log_not_upper, log_lower):
    r"""Return :math:`(\log\delta, \log(1-\delta))` from the three tail probabilities.

    :math:`\delta = A(1 - e^{\varepsilon}B/A)` and :math:`1 - \delta = (1 - A) + e^{\varepsilon}B`
    with :math:`A = \Pr[L > \varepsilon]`, :math:`B = \Pr[L < -\varepsilon]`: both are formed
    without cancellation beyond the factor :math:`1 - e^{\varepsilon}B/A`.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = eps + log_lower - log_upper
        value = log_upper + np.log(-np.expm1(np.minimum(ratio, 0.0)))
        log_delta = np.where(np.isfinite(log_upper) & (ratio < 0.0), value, -np.inf)
        log_comp = np.minimum(np.logaddexp(log_not_upper, eps + log_lower), 0.0)
    return log_delta, log_comp


def _log_profile(model, dim, sigma, delta, eps):
    """Return (log delta(eps), log(1 - delta(eps))) for validated arguments and a 1-D eps array.

    ``log delta`` is ``-inf`` where delta(eps) = 0.
    """
    if model.is_flat:
        mu = delta / sigma
        return np.asarray(log_gdp_delta(mu, eps), dtype=float), _log_one_minus_gdp_delta(mu, eps)
    return _combine_profile(eps, *_log_tail_probabilities(model, dim, sigma, delta, eps))


def _profile(model, dim, sigma, delta, eps):
    """Privacy profile for validated arguments and a 1-D eps array."""
    return np.exp(_log_profile(model, dim, sigma, delta, eps)[0])


def privacy_profile(space, dim, sigma, sensitivity, eps):
    r"""Privacy profile :math:`\delta(\varepsilon)` of the Riemannian Gaussian mechanism.

    .. math::

        \delta(\varepsilon) = \int_{L > \varepsilon} p_{\eta_1} - e^{\varepsilon}\int_{L > \varepsilon} p_{\eta_2}
        = \Pr_{Y \sim p_{\eta_1}}[L > \varepsilon] - e^{\varepsilon} \Pr_{Y \sim p_{\eta_1}}[L < -\varepsilon],

    with :math:`L = (d_2^2 - d_1^2)/(2\sigma^2)` and :math:`\operatorname{dist}(\eta_1, \eta_2) = \Delta`.
    This is the smallest :math:`\delta` for which the mechanism is
    :math:`(\varepsilon, \delta)`-DP. Euclidean space (and :math:`H^1`): exactly the Gaussian
    profile with :math:`\mu = \Delta/\sigma`; :math:`S^1`: closed form; :math:`S^d, H^d`
    (:math:`d \ge 2`): deterministic quadrature (relative error below 1e-10 against nested
    adaptive quadrature, see the derivation note), in log space, so tiny values keep their
    relative accuracy.

    Parameters
    ----------
    space : {"sphere", "hyperbolic", "euclidean"}, Manifold or RadialVolume
        Constant-curvature model space (a name: unit curvature; "sphere" with ``dim=1`` is the circle), or a
        manifold / radial volume declaring such a space (e.g. a sphere of curvature κ: see the module docstring).
    dim : int or None
        Dimension d >= 1 (with a name; None or the space's own dimension otherwise).
    sigma : float
        Rate sigma > 0 of the density ∝ exp(-dist²/(2σ²)).
    sensitivity : float
        Delta > 0, the distance between the neighbouring summaries; at most the diameter (pi on the unit sphere).
    eps : float or array_like
        Values eps >= 0.

    Returns
    -------
    numpy.ndarray or float
        delta(eps), same shape as ``eps`` (a float for scalar input).
    """
    model, dim, sigma, delta, _ = _validate(space, dim, sigma, sensitivity)
    eps_array = check_finite_array(eps, "eps")
    if np.any(eps_array < 0.0):
        raise InvalidParameterError(
            f"eps must contain only values in [0, inf); got {eps_array[eps_array < 0.0].flat[0]!r}", param="eps"
        )
    flat = eps_array.reshape(-1)
    values = (_profile(model, dim, sigma, delta, flat) if flat.size else flat).reshape(eps_array.shape)
    return float(values) if values.ndim == 0 else values


# --------------------------------------------------------------------------- mu search


_LOG_HALF = np.log(0.5)


def _violation(mu, eps, log_delta, log_comp):
    r"""Signed violation of :math:`\delta(\varepsilon) \le \delta_\mu(\varepsilon)` at each grid point.

    Where :math:`\delta \le 1/2` it is :math:`\log\delta - \log\delta_\mu`; where
    :math:`\delta > 1/2` it is :math:`\log(1 - \delta_\mu) - \log(1 - \delta)`, because both
    profiles are then within rounding of 1 and only their complements are resolved.
    Positive means violated; ``-inf`` where :math:`\delta = 0`.
    """
    upper = log_delta > _LOG_HALF
    out = np.full(eps.shape, -np.inf)
    low = ~upper & np.isfinite(log_delta)
    if np.any(low):
        out[low] = log_delta[low] - np.asarray(log_gdp_delta(mu, eps[low]), dtype=float)
    if np.any(upper):
        out[upper] = _log_one_minus_gdp_delta(mu, eps[upper]) - log_comp[upper]
    return out


def _satisfied(mu, eps, log_delta, log_comp):
    """True when delta(eps) <= delta_mu(eps) at every grid point."""
    return bool(np.all(_violation(mu, eps, log_delta, log_comp) <= 0.0))


def _smallest_mu(eps, log_delta, log_comp, start):
    r"""Smallest :math:`\mu` with :math:`\delta(\varepsilon_k) \le \delta_\mu(\varepsilon_k)` for all k.

    :math:`\delta_\mu(\varepsilon)` increases with :math:`\mu` for each fixed
    :math:`\varepsilon`, so the admissible :math:`\mu` form an interval
    :math:`[\mu^*, \infty)`; geometric bisection returns its upper bracket (the safe side).
    Points with :math:`\delta(\varepsilon_k) = 0` impose nothing; if all are 0, returns 0.
    """
    active = np.isfinite(log_delta)
    if not np.any(active):
        return 0.0
    eps, log_delta, log_comp = eps[active], log_delta[active], log_comp[active]
    hi = start
    while not _satisfied(hi, eps, log_delta, log_comp):
        hi *= 2.0
        if hi > max(1e6, 1e3 * start):
            raise ConvergenceError(
                f"no mu <= {hi / 2.0:.3g} dominates the computed privacy profile (start={start!r}); "
                "sigma is too small for the sensitivity"
            )
    lo = hi / 2.0
    while _satisfied(lo, eps, log_delta, log_comp):
        hi, lo = lo, lo / 2.0
        if lo < 1e-300:  # pragma: no cover
            return hi
    while hi / lo - 1.0 > _MU_RTOL:
        mid = np.sqrt(lo * hi)
        if _satisfied(mid, eps, log_delta, log_comp):
            hi = mid
        else:
            lo = mid
    return hi


def _eps_search_range(model, dim, sigma, delta):
    """Upper end of the eps range on which the profile is checked.

    Sphere: the supremum of the loss, unless the radial law is concentrated well inside
    [0, pi]; then, as on H^d, the eps beyond which {L > eps} (which needs
    r >= sigma^2 eps/Delta - Delta/2) misses the core of the radial law, so that
    delta(eps) < e^{-800}. Beyond it only the H^d limit Delta/sigma is used (see gdp_mu).
    """
    upper = model.loss_upper_bound(sigma, delta)
    if dim >= 2:
        law = _RadialLaw.build(model, dim, sigma, delta)
        if law.core_high < model.r_max:
            upper = min(upper, (law.core_high + delta / 2.0) * delta / sigma**2)
    return max(upper, 0.0)


def _search_mu(log_profile, eps_high, start):
    """Smallest mu dominating the profile on [0, eps_high]; returns (mu, worst eps).

    ``log_profile(eps)`` returns (log delta, log(1 - delta)). A uniform grid of
    ``_N_EPS_GRID`` points, then up to six rounds of local refinement (31 new points
    between the neighbours of the binding grid point) while mu moves by more than 1e-10
    relative.
    """
    eps = np.linspace(0.0, eps_high, _N_EPS_GRID)
    log_delta, log_comp = log_profile(eps)
    mu = _smallest_mu(eps, log_delta, log_comp, start=start)
    if mu == 0.0:
        return mu, 0.0
    for _ in range(6):
        k = int(np.argmax(_violation(mu, eps, log_delta, log_comp)))
        extra = np.linspace(eps[max(k - 1, 0)], eps[min(k + 1, eps.size - 1)], 33)[1:-1]
        extra_delta, extra_comp = log_profile(extra)
        eps = np.concatenate([eps, extra])
        log_delta = np.concatenate([log_delta, extra_delta])
        log_comp = np.concatenate([log_comp, extra_comp])
        order = np.argsort(eps, kind="stable")
        eps, log_delta, log_comp = eps[order], log_delta[order], log_comp[order]
        new_mu = _smallest_mu(eps, log_delta, log_comp, start=mu)
        moved, mu = new_mu / mu - 1.0, new_mu
        if moved <= 1e-10:
            break
    return mu, float(eps[int(np.argmax(_violation(mu, eps, log_delta, log_comp)))])


#: Below this sigma the law is Euclidean to within O(sigma^2) (< 1e-14 relative): mu = Delta/sigma.
_SMALL_SIGMA = 1e-7
#: Largest sigma where the quadrature is validated on the sphere (the derivation note checks up to 200).
_SPHERE_MAX_SIGMA = 200.0
#: On H^d beyond this sigma mu(sigma) has reached its limit mu_inf to ~1e-10; mu(sigma) is non-increasing,
#: so mu(_HYPERBOLIC_MAX_SIGMA) is a (conservative) value for every larger sigma.
_HYPERBOLIC_MAX_SIGMA = 1e3
#: Largest sensitivity on H^d: sinh/cosh of the distance overflow from about 710.
_HYPERBOLIC_MAX_SENSITIVITY = 700.0


def _gdp_mu_and_worst_eps(model, dim, sigma, delta):
    """Return (mu, worst-case eps) for validated arguments.

    Extreme regimes (see :func:`gdp_mu`): sigma below ``_SMALL_SIGMA`` gives the Euclidean
    limit Delta/sigma; on the sphere beyond ``_SPHERE_MAX_SIGMA`` mu is 0 if it underflows,
    else refused; on H^d beyond ``_HYPERBOLIC_MAX_SIGMA`` the value there (an upper bound).
    Results that are not finite raise :class:`NumericalOverflowError` naming ``sigma``.
    """
    with np.errstate(over="ignore", under="ignore"):
        ratio = delta / sigma
    if not np.isfinite(ratio):
        raise NumericalOverflowError(
            f"sigma={sigma!r} is too small for sensitivity={delta!r}: mu >= sensitivity/sigma overflows double "
            f"precision; sigma must be at least sensitivity/1.7e308 = {delta / 1.7e308:.3g}",
            param="sigma",
        )
    model.check_sensitivity(delta)
    if model.is_flat or sigma < _SMALL_SIGMA:
        # Small noise: the law lives in a ball of radius ~ 40 sigma where the metric is Euclidean to
        # O(sigma^2); mu(sigma) = (Delta/sigma)(1 + O(sigma^2)) (checked: 1.6e-11 relative at sigma = 1e-5).
        return ratio, np.nan
    extreme = model.large_sigma(dim, sigma, delta)
    if extreme is not None:
        return extreme
    mu, worst = _search_mu(
        lambda eps: _log_profile(model, dim, sigma, delta, eps),
        _eps_search_range(model, dim, sigma, delta),
        start=delta / sigma,
    )
    if not np.isfinite(model.loss_upper_bound(sigma, delta)) and delta / sigma > mu:
        # Unbounded loss (H^d): as eps -> inf, log delta(eps) ~ -sigma^2 eps^2/(2 Delta^2), so the per-eps mu
        # tends to Delta/sigma (Liu et al. 2022, Thm 3.3): the supremum is at least this limit.
        mu, worst = delta / sigma, np.inf
    return mu, worst


def _hyperbolic_limit_log_profile(dim, delta, eps):
    r"""(log delta, log(1 - delta)) of the sigma -> infinity limit on :math:`H^d` (d >= 2).

    The radial law concentrates at :math:`r \approx (d-1)\sigma^2`, where
    :math:`d_2 - r \to \log(\cosh\Delta - \sinh\Delta\cos\theta)`, so
    :math:`L \to L_\infty = (d-1)\log(\cosh\Delta - \sinh\Delta\cos\theta)` (a ratio of
    Poisson kernels). With :math:`a = (d-1)/2`:

    .. math::

        \Pr[L_\infty > \varepsilon] = I_{x_1}(a, a),\
        x_1 = \frac{e^{\Delta} - e^{\varepsilon/(d-1)}}{2\sinh\Delta}, \qquad
        \Pr[L_\infty < -\varepsilon] = I_{x_2}(a, a),\
        x_2 = \frac{e^{-\varepsilon/(d-1)} - e^{-\Delta}}{2\sinh\Delta}.
    """
    scale = 2.0 * np.sinh(delta)
    up = np.exp(eps / (dim - 1))
    x1 = np.clip((np.exp(delta) - up) / scale, 0.0, 1.0)
    not_x1 = np.clip((up - np.exp(-delta)) / scale, 0.0, 1.0)  # 1 - x1
    x2 = np.clip((np.exp(-eps / (dim - 1)) - np.exp(-delta)) / scale, 0.0, 1.0)
    with np.errstate(divide="ignore"):
        logs = [np.log(_theta_cdf(x, dim)) for x in (x1, not_x1, x2)]
    return _combine_profile(eps, *logs)


def _hyperbolic_mu_limit(dim, delta):
    """GDP parameter of the sigma -> infinity limit on H^d: the infimum of mu(sigma)."""
    mu, _ = _search_mu(
        lambda eps: _hyperbolic_limit_log_profile(dim, delta, eps), (dim - 1) * delta, start=1.0
    )
    return mu


def gdp_mu(space, dim, sigma, sensitivity):
    r"""Exact GDP parameter :math:`\mu` of the Riemannian Gaussian mechanism.

    Returns the smallest :math:`\mu` such that the privacy profile satisfies

    .. math::

        \delta(\varepsilon) \le \delta_\mu(\varepsilon)
        = \Phi\Big(-\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big)
          - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big)
        \quad \text{for all } \varepsilon \ge 0,

    i.e. the mechanism with density ∝ exp(-dist(η, y)²/(2σ²)) is μ-GDP for summaries of
    sensitivity Δ (Theorem 4.1 of the GDP-on-manifolds paper; one neighbouring pair
    suffices on constant curvature). Euclidean space (and :math:`H^1`): exactly
    :math:`\Delta/\sigma`. Otherwise :math:`\delta(\varepsilon)` is computed by
    :func:`privacy_profile` on a grid covering the whole range where it can be
    positive (on the sphere :math:`L \le \Delta(2\pi - \Delta)/(2\sigma^2)`), the worst
    :math:`\varepsilon` is refined locally, and :math:`\mu` is found by bisection
    (relative tolerance 1e-12, returning the upper bracket). Where
    :math:`\delta(\varepsilon) > 1/2` the complements :math:`1 - \delta` and
    :math:`1 - \delta_\mu` are compared instead (both in log space), so that large μ are
    resolved. The ε range ends where :math:`\delta(\varepsilon) < e^{-800}`; on :math:`H^d`
    the result is at least :math:`\Delta/\sigma`, the limit of the per-ε μ as ε → ∞.
    Relative accuracy about 1e-9 (see ``docs/derivations/riemannian_gaussian_gdp.md``).

    A sphere of curvature :math:`\kappa` (a manifold or volume that declares one) is computed as the unit sphere
    with :math:`(\sqrt\kappa\,\sigma, \sqrt\kappa\,\Delta)`, which has the same privacy loss.

    Parameters
    ----------
    space : {"sphere", "hyperbolic", "euclidean"}, Manifold or RadialVolume
        Model space of constant curvature +1, -1 or 0 (a name; "sphere" with ``dim=1`` is the circle), or a
        manifold / radial volume whose ``model_curvature`` declares such a space.
    dim : int or None
        Dimension d >= 1 (with a name; None or the space's own dimension otherwise).
    sigma : float
        Rate sigma > 0.
    sensitivity : float
        Delta > 0, at most the diameter (pi on the unit sphere): dist(η₁, η₂) for neighbouring data sets.

    Returns
    -------
    float
        mu > 0.

    Raises
    ------
    InvalidParameterError
        Unknown space, dim < 1, sigma <= 0, sensitivity <= 0 (or above the diameter), NaN/inf/bool.
    UnavailableError
        The space is not a simply connected space of constant curvature (no exact μ is computed).
    """
    model, dim, sigma, delta, _ = _validate(space, dim, sigma, sensitivity)
    return float(_gdp_mu_and_worst_eps(model, dim, sigma, delta)[0])


# --------------------------------------------------------------------------- calibration


def riemannian_gaussian_sigma_for_mu(space, dim, mu, sensitivity):
    r"""Smallest rate :math:`\sigma` whose Riemannian Gaussian mechanism is :math:`\mu`-GDP.

    Euclidean (and :math:`H^1`): :math:`\sigma = \Delta/\mu`. Otherwise :math:`\mu(\sigma)`
    (:func:`gdp_mu`) is non-increasing in :math:`\sigma` (checked numerically over
    :math:`\sigma \in [0.02, 200]`, :math:`\Delta \in [0.01, \pi]`, d in {1, ..., 5}; see the
    derivation note), so the target is bracketed from :math:`\sigma_0 = \Delta/\mu` by
    doubling or halving, and :math:`\log\mu(\sigma) = \log\mu_{target}` is solved by Brent's
    method on :math:`\log\sigma`. The result is verified,
    ``gdp_mu(space, dim, sigma, sensitivity) <= mu``, and nudged upward until it is.

    Reachability:

    * :math:`S^d`: :math:`\mu(\sigma)` decreases from :math:`+\infty` (σ → 0) to 0 (σ → ∞,
      like :math:`1/\sigma^2`: the law tends to the uniform one); every target is reachable
      (and, in every case computed, :math:`\mu(\sigma) \le \Delta/\sigma`).
    * :math:`H^d` (d >= 2): :math:`\mu(\sigma) \ge \Delta/\sigma`, but :math:`\mu(\sigma)` does
      not tend to 0: the radial mass drifts to :math:`r \approx (d-1)\sigma^2`, where the
      privacy loss tends to :math:`(d-1)\log(\cosh\Delta - \sinh\Delta\cos\theta)`, whose law
      does not depend on σ. Its GDP parameter :math:`\mu_\infty(d, \Delta)` (closed-form
      profile) is the infimum of :math:`\mu(\sigma)`. A target
      :math:`\mu \le \mu_\infty (1 + 10^{-9})` raises
      :class:`~geodp_core.exceptions.UnavailableError` giving :math:`\mu_\infty`.

    A sphere of curvature :math:`\kappa`: the unit sphere's :math:`\sigma` for :math:`\sqrt\kappa\,\Delta`,
    divided by :math:`\sqrt\kappa`.

    Parameters
    ----------
    space : {"sphere", "hyperbolic", "euclidean"}, Manifold or RadialVolume
        Model space (as in :func:`gdp_mu`); "sphere" with ``dim=1`` is the circle.
    dim : int or None
        Dimension d >= 1 (with a name).
    mu : float
        Target mu > 0.
    sensitivity : float
        Delta > 0 (at most the diameter).

    Returns
    -------
    float
        sigma > 0 with ``gdp_mu(space, dim, sigma, sensitivity) <= mu``, within about 1e-8
        (relative) of the exact solution.

    Raises
    ------
    UnavailableError
        On H^d (d >= 2) when mu is not above the infimum mu_inf(d, Delta).
    """
    model, dim, _, delta, scale = _validate(space, dim, 1.0, sensitivity)
    return _sigma_for_mu(model, dim, mu, delta) / scale


def _sigma_for_mu(model, dim, mu, delta):
    """:func:`riemannian_gaussian_sigma_for_mu` in the units of the unit model."""
    target = check_real(mu, "mu", low=0.0)
    tiny = np.finfo(float).tiny
    if target < tiny:
        raise NumericalOverflowError(
            f"mu={target!r} is subnormal: it has lost relative precision and sigma cannot be verified against it; "
            f"mu must be at least {tiny:.3g}",
            param="mu",
        )
    model.check_sensitivity(delta)
    with np.errstate(over="ignore"):
        sigma0 = delta / target
    if not np.isfinite(sigma0):
        raise NumericalOverflowError(
            f"mu={target!r} is too small for sensitivity={delta!r}: sigma ~ sensitivity/mu overflows double "
            "precision; use a larger mu or a smaller sensitivity",
            param="mu",
        )
    if model.is_flat:
        sigma = sigma0
        while delta / sigma > target:
            sigma = np.nextafter(sigma, np.inf)
        return float(sigma)

    mu_inf = model.infimum_mu(dim, delta)
    if mu_inf > 0.0 and target <= mu_inf * (1.0 + 1e-9):
        raise UnavailableError(
            f"mu must be greater than {mu_inf:.6g} for the Riemannian Gaussian mechanism on "
            f"hyperbolic space of dim {dim} with sensitivity={delta!r}: mu(sigma) decreases to "
            f"this limit as sigma -> inf and never reaches it; got mu={target!r}",
            param="mu",
        )

    @lru_cache(maxsize=64)
    def excess_at_sigma(sigma):
        with np.errstate(divide="ignore"):  # mu = 0 (underflow, huge sigma on the sphere): -inf, far below
            return float(np.log(_gdp_mu_and_worst_eps(model, dim, sigma, delta)[0]) - np.log(target))

    def log_excess(log_sigma):
        return excess_at_sigma(float(np.exp(log_sigma)))

    # Fast path: secant iterations on log mu(log sigma), whose slope is about -1 (mu ~ Delta/sigma);
    # usually 3 evaluations reach 1e-9. Whatever it returns is verified on the safe side below, and
    # if it does not converge we fall back to bracketing + Brent.
    sigma = _secant_log_sigma(log_excess, np.log(sigma0))
    if sigma is not None:
        return _verified_sigma(excess_at_sigma, sigma, target)

    # Bracket [low, high] in log sigma with log_excess(low) > 0 >= log_excess(high). Since
    # mu(sigma) ~ Delta/sigma, log mu has slope about -1 in log sigma: the first step is the
    # excess itself (plus 20%), which usually brackets the root at once; then steps double.
    low = high = np.log(sigma0)
    excess0 = log_excess(low)
    step = max(1.2 * abs(excess0), 1e-3)
    if excess0 > 0.0:
        high = low + step
        while log_excess(high) > 0.0:
            step *= 2.0
            low, high = high, high + step
            if high > np.log(sigma0) + 60.0:  # pragma: no cover - excluded by the limit check
                raise ConvergenceError(f"no sigma <= {sigma0 * np.exp(60.0):.3g} reaches mu={target!r}")
    else:
        low = high - step
        while log_excess(low) <= 0.0:
            step *= 2.0
            low, high = low - step, low
    sigma = float(np.exp(optimize.brentq(log_excess, low, high, xtol=1e-7, rtol=1e-10)))
    return _verified_sigma(excess_at_sigma, sigma, target)


#: Largest fraction of the target μ a fast calibration may leave unused: achieved μ in [(1 - w) μ, μ].
CALIBRATION_WASTE = 0.01


def _local_mu(model, dim, sigma, delta):
    r"""Small-:math:`\Delta` GDP parameter :math:`\Delta\sqrt{I(\sigma)}` of the Riemannian Gaussian.

    For a location family the privacy loss of a pair at distance :math:`\Delta` is about :math:`\Delta` times
    the score, so :math:`\mu \approx \Delta\sqrt{I}` with the Fisher information of the location along a unit
    direction :math:`I = E[r^2]/(d\,\sigma^4)` (the score is :math:`\langle \mathrm{Log}_\eta y, u\rangle/\sigma^2`
    and the direction of :math:`\mathrm{Log}_\eta y` is uniform). :math:`E[r^2]` is one 1-D Gauss–Legendre
    quadrature of the radial law (fast, no privacy profile); flat space gives :math:`\Delta/\sigma` exactly.
    Used only as a first guess: the calibration is verified by the exact :func:`gdp_mu`.
    """
    density = _RadialLaw.build(model, dim, sigma, delta)
    nodes, weights = _quadrature(density.fixed_breakpoints()[None, :], _N_NODES)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        logp = density.log_pdf(nodes)
        w = weights * np.exp(logp - np.max(logp))
        second_moment = float(np.sum(w * nodes**2) / np.sum(w))
    if not np.isfinite(second_moment) or second_moment <= 0.0:
        raise ConvergenceError("the radial second moment could not be evaluated")
    return delta * np.sqrt(second_moment / dim) / sigma**2


def _total_variation_mu(model, dim, sigma, delta):
    r"""GDP parameter of the privacy profile at :math:`\varepsilon = 0` alone (one quadrature point).

    :math:`\delta(0)` is the total variation between the laws centred at distance :math:`\Delta`, and
    :math:`\delta_\mu(0) = 2\Phi(\mu/2) - 1`, so :math:`\mu_{TV} = -2\Phi^{-1}\big((1 - \delta(0))/2\big)`
    (from :math:`\log(1 - \delta(0))`, accurate when :math:`\delta(0)` is close to 1). A lower bound of
    :func:`gdp_mu` (the supremum over :math:`\varepsilon` includes 0), and equal to it whenever the worst
    :math:`\varepsilon` is 0, which is the usual case (every one of 40 random cases on S^d and H^d, d <= 10).
    """
    _, log_comp = _log_profile(model, dim, sigma, delta, np.array([0.0]))
    return float(-2.0 * special.ndtri_exp(log_comp[0] - np.log(2.0)))


def riemannian_gaussian_calibration(space, dim, mu, sensitivity, waste=CALIBRATION_WASTE):
    r"""A rate :math:`\sigma` whose Riemannian Gaussian is :math:`\mu_a`-GDP with
    :math:`(1-w)\mu \le \mu_a \le \mu`, at the cost of about one exact quadrature.

    1. Guess: solve :math:`c\,\mu_{TV}(\sigma) = 0.996\,\mu` for :math:`\sigma`, where :math:`\mu_{TV}` is the
       GDP parameter of the total variation alone (:func:`_total_variation_mu`: the privacy profile at
       :math:`\varepsilon = 0`, one quadrature point per evaluation; the root search starts from the
       small-:math:`\Delta` Fisher approximation :func:`_local_mu`) and :math:`c = 1` at first.
    2. Verify: one exact :func:`gdp_mu` at that :math:`\sigma`. Inside the window: done. Otherwise
       :math:`c \leftarrow \mu_{exact}/\mu_{TV}` (the correction is smooth in :math:`\sigma`) and repeat, at
       most 3 times; then the exact search of :func:`riemannian_gaussian_sigma_for_mu` (tolerance 1e-9).

    The returned :math:`\mu_a` is always the exact quadrature's value at the returned :math:`\sigma`, so the
    guarantee never rests on the approximation.

    Returns
    -------
    (sigma, mu_achieved, n_quadratures) : (float, float, int)
        ``n_quadratures`` counts the exact :func:`gdp_mu` evaluations (the exact search counts as 6).
    """
    model, dim, _, delta, scale = _validate(space, dim, 1.0, sensitivity)
    target = check_real(mu, "mu", low=0.0)
    waste = check_real(waste, "waste", low=0.0, high=0.5)
    sigma, mu_exact, quadratures = _calibration(model, dim, target, delta, waste)
    return sigma / scale, mu_exact, quadratures


def _exact_mu(model, dim, sigma, delta):
    """:func:`gdp_mu` for validated arguments in the units of the unit model."""
    check_real(sigma, "sigma", low=0.0)
    return float(_gdp_mu_and_worst_eps(model, dim, sigma, delta)[0])


def _calibration(model, dim, target, delta, waste):
    """:func:`riemannian_gaussian_calibration` in the units of the unit model."""
    if model.is_flat or dim == 1:
        sigma = _sigma_for_mu(model, dim, target, delta)
        return sigma, _exact_mu(model, dim, sigma, delta), 1
    quadratures = 0
    try:
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):  # extremes: fall back
            found = _guess_and_verify(model, dim, target, delta, waste)
    except (ValueError, ArithmeticError, ConvergenceError):  # the guess failed: the exact search below decides
        found = None
    if found is not None:
        sigma, mu_exact, quadratures = found
        if (1.0 - waste) * target <= mu_exact <= target:
            return sigma, mu_exact, quadratures
    sigma = _sigma_for_mu(model, dim, target, delta)
    return sigma, _exact_mu(model, dim, sigma, delta), quadratures + 6


def _log_sigma_root(gap, x0):
    """Root in log sigma of the decreasing ``gap``, bracketed from ``x0``; ``None`` when no bracket is found."""
    low, high = x0 - 0.25, x0 + 0.25
    for _ in range(60):
        if gap(low) > 0.0:
            break
        low -= 2.0
    for _ in range(60):
        if gap(high) <= 0.0:
            break
        high += 2.0
    if not (gap(low) > 0.0 >= gap(high)):
        return None
    return float(np.exp(optimize.brentq(gap, low, high, xtol=1e-7)))


def _guess_and_verify(model, dim, target, delta, waste):
    """Steps 1–2 of :func:`riemannian_gaussian_calibration`; ``(sigma, mu, quadratures)`` of the last try."""
    quadratures, correction, last = 0, 1.0, None
    if not (np.isfinite(delta / target) and target >= np.finfo(float).tiny):
        return None
    aim = target * (1.0 - 0.4 * waste)
    fisher = _log_sigma_root(lambda x: np.log(_local_mu(model, dim, float(np.exp(x)), delta)) - np.log(aim),
                             np.log(delta / target))
    if fisher is None:
        return None
    for _ in range(3):
        def gap(log_sigma, c=correction):
            return np.log(c * _total_variation_mu(model, dim, float(np.exp(log_sigma)), delta)) - np.log(aim)

        sigma = _log_sigma_root(gap, np.log(fisher))
        if sigma is None:
            break
        mu_exact = _exact_mu(model, dim, sigma, delta)
        quadratures += 1
        last = (sigma, mu_exact, quadratures)
        if (1.0 - waste) * target <= mu_exact <= target:
            return last
        correction = mu_exact / _total_variation_mu(model, dim, sigma, delta)
        if not np.isfinite(correction) or correction <= 0.0:
            break
    return last


def _secant_log_sigma(log_excess, x0, tol=1e-9, max_iter=8):
    """Secant root of ``log_excess`` in log sigma from ``x0`` with initial slope -1; ``None`` if it fails."""
    f0 = log_excess(x0)
    if f0 == 0.0:
        return float(np.exp(x0))
    x1 = x0 + f0  # slope -1: log mu(sigma) - log target = -(log sigma - root)
    for _ in range(max_iter):
        f1 = log_excess(x1)
        if abs(f1) < tol:
            return float(np.exp(x1))
        slope = (f1 - f0) / (x1 - x0) if x1 != x0 else -1.0
        if not np.isfinite(slope) or slope >= 0.0:  # mu must decrease in sigma: give up, use the bracket
            return None
        x0, f0, x1 = x1, f1, x1 - f1 / slope
        if not np.isfinite(x1) or abs(x1 - x0) > 5.0:
            return None
    return None


def _verified_sigma(excess_at_sigma, sigma, target):
    """Nudge ``sigma`` upward until ``gdp_mu(sigma) <= target`` is verified (the safe side)."""
    step = 1e-9
    while excess_at_sigma(float(sigma)) > 0.0:
        sigma *= 1.0 + step
        step *= 2.0
        if step > 1e-2:  # pragma: no cover - the root is located within 1e-9 before this
            raise ConvergenceError(f"could not verify a sigma for mu={target!r}")
    return float(sigma)


# --------------------------------------------------------------------------- Monte Carlo (paper's Algorithm 2)


@dataclass(frozen=True)
class MonteCarloGDPEstimate:
    """Result of :func:`gdp_mu_monte_carlo`.

    Attributes
    ----------
    mu : float
        Algorithm 2's estimate max_eps mu_eps (biased upward: a maximum of noisy estimates).
    eps : numpy.ndarray
        The eps grid.
    delta : numpy.ndarray
        Unbiased Monte Carlo estimates of delta(eps).
    delta_std_error : numpy.ndarray
        Their standard errors (binomial; meaningful where both tail counts are large).
    tail_fraction_eta1, tail_fraction_eta2 : numpy.ndarray
        Fractions of the samples from p_eta1 and from p_eta2 with loss L >= eps.
    n_samples : int
        Samples drawn from each of p_eta1 and p_eta2.
    """

    mu: float
    eps: np.ndarray
    delta: np.ndarray
    delta_std_error: np.ndarray
    tail_fraction_eta1: np.ndarray
    tail_fraction_eta2: np.ndarray
    n_samples: int


def _sample_radii(model, dim, sigma, n_samples, rng):
    r"""Exact draws of the radius, density :math:`\propto J(r) e^{-r^2/(2\sigma^2)}`, by rejection
    (the proposals of the model: :meth:`_SphereModel.propose_radii`, :meth:`_HyperbolicModel.propose_radii`)."""
    radii = []
    n_accepted = 0
    while n_accepted < n_samples:
        batch = max(4 * (n_samples - n_accepted), 4096)
        r, accept = model.propose_radii(dim, sigma, batch, rng)
        kept = r[rng.random(batch) < accept]
        radii.append(kept)
        n_accepted += kept.size
    return np.concatenate(radii)[:n_samples]


def _sample_riemannian_gaussian(model, dim, sigma, n_samples, rng):
    """Exact samples of the Riemannian Gaussian centred at e_0 = (1, 0, ..., 0), ambient coordinates.

    ``Exp_{e_0}(r u)`` with the radius from :func:`_sample_radii` and ``u`` uniform on the unit
    sphere of the tangent space: points of the unit sphere in R^{d+1} or of the hyperboloid.
    """
    radii = _sample_radii(model, dim, sigma, n_samples, rng)
    direction = rng.standard_normal((n_samples, dim))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    cos_r, sin_r = model.cos_sin(radii)
    return np.column_stack([cos_r, sin_r[:, None] * direction])


def gdp_mu_monte_carlo(space, dim, sigma, sensitivity, n_samples, rng, n_eps=1000, eps_max=None):
    r"""Monte Carlo estimate of μ (the source paper's Algorithm 2), kept as a cross-check.

    Draws ``n_samples`` points from each of :math:`p_{\eta_1}` and :math:`p_{\eta_2}`
    (exact samplers, see ``_sample_riemannian_gaussian``), estimates

    .. math::

        \hat\delta(\varepsilon) = \frac{1}{n}\sum_i 1[L(Y_i) \ge \varepsilon]
        - e^{\varepsilon}\frac{1}{n}\sum_i 1[L(Y'_i) \ge \varepsilon],
        \qquad Y_i \sim p_{\eta_1},\ Y'_i \sim p_{\eta_2},

    on ``n_eps`` equally spaced values in (0, eps_max], solves
    :math:`\hat\delta(\varepsilon) = \delta_\mu(\varepsilon)` for each and returns the
    maximum (as the smallest μ dominating all estimates). The paper averages m batches
    of size n; this is the same as one batch of size n·m. The maximum of noisy
    estimates is biased upward: use :func:`gdp_mu` for accounting.

    Parameters
    ----------
    space : {"sphere", "hyperbolic", "euclidean"}, Manifold or RadialVolume
        As in :func:`gdp_mu` (a sphere of curvature κ is sampled as the unit sphere with √κ σ and √κ Δ: the
        privacy loss is the same).
    dim : int or None
        Dimension d >= 1 (sphere, Euclidean: the real line for d = 1) or d >= 2 (hyperbolic); with a name.
    sigma, sensitivity : float
        As in :func:`gdp_mu`.
    n_samples : int
        Samples per distribution, >= 100.
    rng : numpy.random.Generator or int
        Source of randomness.
    n_eps : int, optional
        Number of eps values (the paper's n_eps), default 1000.
    eps_max : float, optional
        Largest eps; default: the largest privacy loss observed among the samples.

    Returns
    -------
    MonteCarloGDPEstimate
    """
    model, dim, sigma, delta, _ = _validate(space, dim, sigma, sensitivity)
    n_samples = check_int(n_samples, "n_samples", low=100)
    rng = check_rng(rng)
    n_eps = check_int(n_eps, "n_eps", low=1)
    if eps_max is not None:
        eps_max = check_real(eps_max, "eps_max", low=0.0)

    if model.is_flat:  # the GDP paper's Figure 1 (the real line): exact mu = Delta/sigma to compare with
        eta1, eta2 = np.zeros(dim), np.zeros(dim)
        eta2[0] = delta
        y1 = sigma * rng.standard_normal((n_samples, dim))
        y2 = eta2 + sigma * rng.standard_normal((n_samples, dim))
        return _monte_carlo_mu(model, sigma, delta, eta1, eta2, y1, y2, n_samples, n_eps, eps_max)

    eta1 = np.zeros(dim + 1)
    eta1[0] = 1.0
    eta2 = model.moved_base(dim, delta)
    # Samples around eta2 are samples around eta1 moved by the isometry taking eta1 to eta2
    # (rotation / boost in the (e0, e1) plane).
    y1 = _sample_riemannian_gaussian(model, dim, sigma, n_samples, rng)
    y2 = _sample_riemannian_gaussian(model, dim, sigma, n_samples, rng)
    model.move(y2, delta)
    return _monte_carlo_mu(model, sigma, delta, eta1, eta2, y1, y2, n_samples, n_eps, eps_max)


def _monte_carlo_mu(model, sigma, delta, eta1, eta2, y1, y2, n_samples, n_eps, eps_max):
    """Algorithm 2's estimate from samples ``y1`` around ``eta1`` and ``y2`` around ``eta2``."""

    def loss(points):
        d1 = model.ambient_distance(eta1, points)
        d2 = model.ambient_distance(eta2, points)
        return (d2**2 - d1**2) / (2.0 * sigma**2)

    loss1, loss2 = np.sort(loss(y1)), np.sort(loss(y2))
    if eps_max is None:
        eps_max = max(float(loss1[-1]), 0.0)
    eps = np.linspace(eps_max / n_eps, eps_max, n_eps) if eps_max > 0.0 else np.zeros(1)
    p1 = 1.0 - np.searchsorted(loss1, eps, side="left") / n_samples
    p2 = 1.0 - np.searchsorted(loss2, eps, side="left") / n_samples
    with np.errstate(over="ignore", invalid="ignore"):
        scale = np.exp(eps)
        estimate = p1 - np.where(p2 > 0.0, scale * p2, 0.0)
        variance = p1 * (1.0 - p1) + np.where(p2 > 0.0, scale**2 * p2 * (1.0 - p2), 0.0)
        std_error = np.sqrt(variance / n_samples)
    with np.errstate(divide="ignore"):
        log_estimate = np.log(np.clip(estimate, 0.0, 1.0))
        log_comp = np.log1p(-np.clip(estimate, 0.0, 1.0))
    mu = _smallest_mu(eps, log_estimate, log_comp, start=delta / sigma)
    return MonteCarloGDPEstimate(float(mu), eps, estimate, std_error, p1, p2, n_samples)
