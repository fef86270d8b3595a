r"""Radial volume densities of isotropic spaces: the :math:`J(r)` a manifold hands to its radial laws.

On a two-point homogeneous space the Riemannian volume in geodesic polar coordinates
:math:`y = \mathrm{Exp}_\eta(r u)` around any point is :math:`J(r)\,dr\,du` with :math:`u` uniform on the unit
sphere of :math:`T_\eta M`. Four families cover every isotropic space of this package:

.. math::

    J(r) = r^{d-1} \ (\text{flat}), \qquad
    \Big(\frac{\sin(\sqrt\kappa\, r)}{\sqrt\kappa}\Big)^{d-1} \ (\text{curvature } \kappa > 0), \qquad
    \sinh(r)^{d-1} \ (\text{curvature } -1), \qquad
    \sin(r)^{d-1}\cos(r) \ (\mathbb{C}P^{d/2},\ \text{holomorphic curvature } 4).

A manifold exposes its family as ``manifold.radial_volume`` (``None`` where the space is not isotropic, e.g.
affine-invariant SPD(m) for m >= 2); :class:`~geodp_core.geometry.radial.RadialLaw` asks this object — never the
manifold's name — for :math:`\log J`, its derivative, the range of the radius, the Laplace integrability limit,
closed-form inverse CDFs and the space-specific rejection envelopes. Derivations:
``docs/derivations/exact_samplers.md``.
"""

import math
from dataclasses import dataclass

import numpy as np

from geodp_core._validation import check_int
from geodp_core.exceptions import InvalidParameterError

__all__ = [
    "ComplexProjectiveVolume",
    "FlatVolume",
    "HyperbolicVolume",
    "RadialVolume",
    "SphericalVolume",
    "chi_tail_quantile",
    "gamma_tail_quantile",
    "log_concave_gaussian_tail_quantile",
    "log_sinh",
]

#: Largest intrinsic dimension accepted (keeps ``dim`` convertible to float everywhere).
MAX_DIM = 10**9


def log_sinh(x):
    r"""Stable :math:`\log\sinh(x)` for :math:`x \ge 0` (``-inf`` at 0).

    .. math:: \log\sinh x = x + \log(1 - e^{-2x}) - \log 2.
    """
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore"):
        return x + np.log(-np.expm1(-2.0 * x)) - math.log(2.0)


def log_expm1_ratio(y):
    r"""Stable :math:`\log\big((e^{y} - 1)/y\big)` (``0`` at ``y = 0``)."""
    y = np.asarray(y, dtype=float)
    out = np.zeros_like(y)
    small = np.abs(y) < 1e-8
    pos = (y > 0) & ~small
    neg = (y < 0) & ~small
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.where(pos, y + np.log(-np.expm1(-np.abs(y))) - np.log(np.abs(y)), out)
        out = np.where(neg, np.log(-np.expm1(-np.abs(y))) - np.log(np.abs(y)), out)
        out = np.where(small, 0.5 * y, out)
    return out


def log_sinh_over_x(x):
    r"""Stable :math:`\log(\sinh(x)/x)` for :math:`x \ge 0`."""
    x = np.asarray(x, dtype=float)
    small = x < 1e-4
    xs = np.where(small, 1.0, x)
    with np.errstate(divide="ignore"):
        big = log_sinh(xs) - np.log(xs)
    xsm = np.where(small, x, 0.0)
    return np.where(small, xsm * xsm / 6.0 - xsm**4 / 180.0, big)


def log_sinc(x):
    r""":math:`\log(\sin(x)/x)` for :math:`x \in [0, \pi]`; ``-inf`` beyond."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(np.sinc(x / np.pi))
    return np.where(x <= np.pi, out, -np.inf)


def asinh_exp(y):
    r"""Stable :math:`\operatorname{asinh}(e^{y})`."""
    y = np.asarray(y, dtype=float)
    yl = np.minimum(y, 20.0)
    yb = np.maximum(y, 20.0)
    return np.where(y < 20.0, np.arcsinh(np.exp(yl)), yb + np.log1p(np.sqrt(1.0 + np.exp(-2.0 * yb))))


def gamma_tail_quantile(shape, scale, tail):
    r"""``q`` with :math:`P[\Gamma(\text{shape}, \text{scale}) > q] = ` ``tail`` (``inf`` when ``scale`` is not finite positive)."""
    from scipy import stats

    if not (math.isfinite(scale) and scale > 0):
        return math.inf
    return float(stats.gamma.isf(tail, shape, scale=scale))


def chi_tail_quantile(dim, scale, tail):
    r"""``q`` with :math:`P[\text{scale}\,\chi_{\text{dim}} > q] = ` ``tail``."""
    from scipy import stats

    return float(scale * math.sqrt(stats.chi2.isf(tail, dim)))


def log_concave_gaussian_tail_quantile(power, drift, scale, tail):
    r"""Upper bound of the ``tail`` quantile of the density :math:`\propto r^k e^{-r^2/(2s^2) + cr}` on :math:`r > 0`.

    The density is :math:`s^{-2}`-strongly log-concave, so :math:`P[R > \mathbb{E}R + t] \le e^{-t^2/(2s^2)}`
    (Bakry–Émery / Herbst), and :math:`\mathbb{E}R \le \text{mode} + \sqrt3\,\mathrm{sd} \le \text{mode} + \sqrt3 s`
    for a one-dimensional log-concave law, the mode being :math:`(cs^2 + \sqrt{c^2s^4 + 4ks^2})/2`.
    """
    k, c, sd = float(power), float(drift), float(scale)
    mode = 0.5 * (c * sd * sd + math.sqrt((c * sd * sd) ** 2 + 4.0 * k * sd * sd))
    return float(mode + math.sqrt(3.0) * sd + sd * math.sqrt(2.0 * math.log(1.0 / tail)))


@dataclass(frozen=True)
class RadialVolume:
    r"""The radial volume density :math:`J(r)` of an isotropic space of intrinsic dimension ``dim``.

    Subclasses give :math:`\log J`, its derivative and the range :math:`[0, \text{upper}]` of the radius; the
    defaults describe a space without closed-form samplers. Instances are frozen and hashable (radial laws are
    cached by them).
    """

    dim: int

    def __post_init__(self):
        object.__setattr__(self, "dim", check_int(self.dim, "dim", low=1, high=MAX_DIM))

    #: Right end of the radius range (the diameter of a compact space).
    upper = math.inf
    #: ``J(r) <= r^(d-1)`` on the whole range (non-negative curvature, Bishop–Gromov): the Euclidean law of the same
    #: profile is a valid rejection envelope.
    below_euclidean = False
    #: ``J(r) = r^(d-1)``: every profile has an exact closed-form radius.
    is_flat = False

    @property
    def label(self):
        """Short name of the space in messages, e.g. ``S^2``."""
        return f"a {self.dim}-dimensional space"

    def _log_base(self, r):
        """:math:`\\log` of the per-dimension factor (``J = base^(d-1)``) on the clipped range."""
        raise NotImplementedError

    def _dlog_base(self, r):
        raise NotImplementedError

    def log_jacobian(self, radius):
        r""":math:`\log J(r)`, ``-inf`` outside :math:`[0, \text{upper}]`; :math:`J \equiv 1` when ``dim = 1``."""
        r = np.asarray(radius, dtype=float)
        inside = (r >= 0) & (r <= self.upper)
        if self.dim == 1:
            return np.where(inside, 0.0, -np.inf)
        rc = np.clip(r, 0.0, None if math.isinf(self.upper) else self.upper)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(inside, self._log_jacobian_inside(rc), -np.inf)

    def _log_jacobian_inside(self, r):
        return (self.dim - 1) * self._log_base(r)

    def dlog_jacobian(self, radius):
        r""":math:`(\log J)'(r)` on the interior of the range."""
        r = np.asarray(radius, dtype=float)
        if self.dim == 1:
            return np.zeros_like(r)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return self._dlog_jacobian_inside(r)

    def _dlog_jacobian_inside(self, r):
        return (self.dim - 1) * self._dlog_base(r)

    def laplace_scale_limit(self):
        r"""Largest Laplace scale :math:`s` for which :math:`e^{-r/s}J(r)` is integrable (exclusive)."""
        return math.inf

    def uniform_inverse_cdf(self, u, radius):
        r"""Closed-form radius of the uniform law on the ball :math:`B(\eta, R)` from uniforms ``u``, or ``None``."""
        if self.dim == 1:
            return radius * u
        return None

    @property
    def has_uniform_inverse_cdf(self):
        """Whether :meth:`uniform_inverse_cdf` has a closed form here."""
        return self.uniform_inverse_cdf(np.full(1, 0.5), 1.0) is not None

    def envelopes(self, profile, scale, log_z):
        """Space-specific exact rejection envelopes: ``{method: (log acceptance rate, propose(n, rng))}``."""
        return {}

    @property
    def projective_curvature(self):
        r""":math:`\kappa` when this is the real projective space :math:`S^d(1/\sqrt\kappa)/\pm 1`, else ``None``
        (the default)."""
        return None

    @property
    def model_curvature(self):
        r"""Curvature :math:`\kappa` of the simply connected constant-curvature space whose geodesic polar
        coordinates these are, in full (:math:`\mathbb{R}^d`: 0, :math:`H^d`: -1, the round sphere of radius
        :math:`1/\sqrt\kappa`: :math:`\kappa`), or ``None``.

        Only there does the spherical law of cosines give :math:`\mathrm{dist}(\eta', y)` from the polar
        coordinates of :math:`y` around :math:`\eta` (what the exact GDP reduction of the Riemannian Gaussian
        needs). ``None`` for a space of non-constant curvature (:math:`\mathbb{C}P^n`, ``n >= 2``) and for a
        quotient whose radius stops before the conjugate point :math:`\pi/\sqrt\kappa` (e.g. the rotation group
        :math:`SO(3) = S^3(2)/\pm 1`, radius range :math:`\pi < 2\pi`).
        """
        return None

    def radius_tail_bound(self, profile, scale, tail):
        r"""Upper bound :math:`q` with :math:`P[r > q] \le` ``tail`` for the radius of density
        :math:`\propto g(r)J(r)` (``profile`` ``"laplace"``: :math:`g = e^{-r/s}`, ``"gaussian"``:
        :math:`g = e^{-r^2/(2s^2)}`), or ``None``: not needed on a bounded range (every radius is at most
        :attr:`upper`), unknown otherwise.
        """
        return None


@dataclass(frozen=True)
class FlatVolume(RadialVolume):
    r"""Flat space :math:`\mathbb{R}^d`: :math:`J(r) = r^{d-1}` (exact Gamma, chi and power-law radii)."""

    is_flat = True

    @property
    def label(self):
        return f"R^{self.dim}"

    def _log_base(self, r):
        return np.log(r)

    def _dlog_base(self, r):
        return 1.0 / r

    def uniform_inverse_cdf(self, u, radius):
        return radius * u ** (1.0 / self.dim)

    @property
    def model_curvature(self):
        r"""0: :math:`\mathbb{R}^d` itself."""
        return 0.0

    def radius_tail_bound(self, profile, scale, tail):
        r"""Exact quantile: the radius is :math:`\Gamma(d, s)` (Laplace) or :math:`s\chi_d` (Gaussian)."""
        if profile == "laplace":
            return gamma_tail_quantile(self.dim, scale, tail)
        return chi_tail_quantile(self.dim, scale, tail)


@dataclass(frozen=True)
class SphericalVolume(RadialVolume):
    r"""Constant curvature :math:`\kappa > 0`: :math:`J(r) = (\sin(\sqrt\kappa r)/\sqrt\kappa)^{d-1}`.

    ``upper`` is the radius range: :math:`\pi/\sqrt\kappa` on the round sphere of curvature :math:`\kappa`, less on a
    quotient (the real projective space :math:`SO(3) = S^3(2)/\pm 1` has curvature 1/4 and range :math:`\pi`).
    """

    curvature: float = 1.0
    radius_range: float = None
    name: str = "S"

    below_euclidean = True

    def __post_init__(self):
        super().__post_init__()
        if not (isinstance(self.curvature, (int, float)) and 0 < self.curvature < math.inf):
            raise InvalidParameterError(f"curvature must be a positive number; got {self.curvature!r}",
                                        param="curvature")
        full = math.pi / math.sqrt(self.curvature)
        upper = full if self.radius_range is None else min(float(self.radius_range), full)
        object.__setattr__(self, "radius_range", upper)

    @property
    def upper(self):
        return self.radius_range

    @property
    def label(self):
        return f"{self.name}^{self.dim}" if self.name == "S" else self.name

    @property
    def _root(self):
        return math.sqrt(self.curvature)

    def _log_base(self, r):
        c = self._root
        if c == 1.0:
            return np.log(np.sin(r))
        return np.log(np.sin(c * r)) - math.log(c)

    def _dlog_base(self, r):
        c = self._root
        return c * np.cos(c * r) / np.sin(c * r)

    def uniform_inverse_cdf(self, u, radius):
        if self.dim == 1:
            return radius * u
        if self.dim == 2:  # CDF (1 - cos cr)/(1 - cos cR) = sin^2(cr/2)/sin^2(cR/2)
            c = self._root
            return (2.0 / c) * np.arcsin(np.sqrt(u) * math.sin(c * radius / 2))
        return None

    def log_euclidean_ratio(self, r):
        r""":math:`\log(J(r)/r^{d-1})` (``<= 0``), ``-inf`` beyond the range: the Euclidean envelope's acceptance."""
        d = self.dim
        if d == 1:
            return np.where(r <= self.upper, 0.0, -np.inf)
        return np.where(r <= self.upper, (d - 1) * log_sinc(self._root * r), -np.inf)


    @property
    def projective_curvature(self):
        r""":math:`\kappa` when this is the real projective space :math:`S^d(1/\sqrt\kappa)/\pm 1` (the radius runs to
        half the conjugate point, :math:`\pi/(2\sqrt\kappa)`; e.g. :math:`SO(3) = S^3(2)/\pm1`, range :math:`\pi`),
        else ``None``."""
        half = 0.5 * math.pi / math.sqrt(self.curvature)
        return float(self.curvature) if abs(self.radius_range - half) <= 1e-12 * half else None

    @property
    def model_curvature(self):
        r""":math:`\kappa` when the radius runs to the conjugate point :math:`\pi/\sqrt\kappa` (the round sphere
        :math:`S^d(1/\sqrt\kappa)`); ``None`` on a quotient with a shorter range (e.g. :math:`SO(3)`)."""
        full = math.pi / math.sqrt(self.curvature)
        return float(self.curvature) if self.radius_range >= full * (1.0 - 1e-15) else None


@dataclass(frozen=True)
class HyperbolicVolume(RadialVolume):
    r"""Curvature :math:`-1`: :math:`J(r) = \sinh(r)^{d-1}`, with the tilted Gamma / normal / chi envelopes."""

    @property
    def label(self):
        return f"H^{self.dim}"

    def _log_base(self, r):
        return log_sinh(r)

    def _dlog_base(self, r):
        return 1.0 / np.tanh(r)

    def laplace_scale_limit(self):
        r""":math:`1/(d-1)`: :math:`e^{-r/s}\sinh(r)^{d-1} \sim 2^{1-d} e^{-(1/s - (d-1)) r}` as :math:`r\to\infty`."""
        return 1.0 / (self.dim - 1) if self.dim > 1 else math.inf

    def uniform_inverse_cdf(self, u, radius):
        if self.dim == 1:
            return radius * u
        if self.dim == 2:  # CDF sinh^2(r/2)/sinh^2(R/2), solved in log space
            with np.errstate(divide="ignore"):
                return 2.0 * asinh_exp(0.5 * np.log(u) + float(log_sinh(radius / 2)))
        return None

    def envelopes(self, profile, scale, log_z):
        d, s = self.dim, scale
        out = {}
        if profile == "laplace":
            lam = 1.0 / s - (d - 1)

            def gamma_tilted(n, rng):
                r = rng.gamma(d, 1.0 / lam, n)
                return r, (d - 1) * log_expm1_ratio(-2.0 * r)

            out["gamma_tilted"] = (log_z - (math.lgamma(d) - d * math.log(lam)), gamma_tilted)
        if profile == "gaussian":
            mu = (d - 1) * s * s

            def shifted_normal(n, rng):
                r = mu + s * rng.standard_normal(n)
                with np.errstate(divide="ignore", invalid="ignore"):
                    log_acc = (d - 1) * np.log(-np.expm1(-2.0 * np.maximum(r, 0.0)))
                return r, np.where(r >= 0, log_acc, -np.inf) if d > 1 else np.where(r >= 0, 0.0, -np.inf)

            log_env = (1 - d) * math.log(2.0) + 0.5 * ((d - 1) * s) ** 2 + math.log(s * math.sqrt(2 * math.pi))
            out["shifted_normal"] = (log_z - log_env, shifted_normal)
            if (d - 1) * s * s < 3.0:
                s_t = (1.0 / s**2 - (d - 1) / 3.0) ** -0.5

                def chi_tilted(n, rng):
                    r = s_t * np.sqrt(rng.chisquare(d, n))
                    return r, (d - 1) * (log_sinh_over_x(r) - r * r / 6.0)

                log_env = (d / 2 - 1) * math.log(2.0) + math.lgamma(d / 2) + d * math.log(s_t)
                out["chi_tilted"] = (log_z - log_env, chi_tilted)
        return out


    @property
    def model_curvature(self):
        """-1 (:math:`H^d`); 0 when ``dim = 1`` (:math:`H^1` is isometric to the real line)."""
        return -1.0 if self.dim > 1 else 0.0

    def radius_tail_bound(self, profile, scale, tail):
        r"""Stochastic domination by a law with known tails.

        :math:`\sinh^{d-1}r = (e^r r)^{d-1}\,[(1 - e^{-2r})/(2r)]^{d-1}` with a decreasing bracket, so the radius is
        dominated in likelihood ratio by :math:`\Gamma(d, \text{rate } 1/s - (d-1))` (Laplace) or by the strongly
        log-concave :math:`r^{d-1}e^{-r^2/(2s^2) + (d-1)r}` (Gaussian).
        """
        d = self.dim
        if profile == "laplace":
            return gamma_tail_quantile(d, 1.0 / (1.0 / scale - (d - 1)), tail)
        return log_concave_gaussian_tail_quantile(d - 1, d - 1, scale, tail)


@dataclass(frozen=True)
class ComplexProjectiveVolume(RadialVolume):
    r"""Complex projective space :math:`\mathbb{C}P^{d/2}` (holomorphic curvature 4; Kendall shapes):
    :math:`J(r) = \sin^{d-1}(r)\cos(r)` on :math:`[0, \pi/2]`, ``d`` even."""

    name: str = "CP"
    upper = math.pi / 2.0
    below_euclidean = True

    def __post_init__(self):
        super().__post_init__()
        if self.dim < 2 or self.dim % 2:
            raise InvalidParameterError(
                f"dim must be an even integer >= 2 for the Kendall shape space (dim = 2k - 4 for k >= 3 landmarks); "
                f"got dim={self.dim}",
                param="dim",
            )

    @property
    def label(self):
        return self.name if self.name != "CP" else f"CP^{self.dim // 2}"

    def _log_jacobian_inside(self, r):  # cos(pi/2) rounds to 6e-17 > 0, like sin(pi) on the sphere
        return (self.dim - 1) * np.log(np.sin(r)) + np.log(np.cos(r))

    def _dlog_jacobian_inside(self, r):
        return (self.dim - 1) * np.cos(r) / np.sin(r) - np.tan(r)

    @property
    def model_curvature(self):
        r"""4 for :math:`\mathbb{C}P^1 = S^2(1/2)` (``dim = 2``, :math:`J = \sin r\cos r = \sin(2r)/2`);
        ``None`` above (curvature between 1 and 4, not constant)."""
        return 4.0 if self.dim == 2 else None

    def uniform_inverse_cdf(self, u, radius):  # CDF sin^d(r)/sin^d(R)
        return np.arcsin(np.minimum(u ** (1.0 / self.dim) * math.sin(radius), 1.0))

    def log_euclidean_ratio(self, r):
        r""":math:`\log(J(r)/r^{d-1}) = (d-1)\log\mathrm{sinc}(r) + \log\cos r \le 0` on :math:`[0, \pi/2]`."""
        with np.errstate(divide="ignore", invalid="ignore"):
            log_acc = (self.dim - 1) * log_sinc(r) + np.log(np.cos(np.minimum(r, np.pi / 2)))
        return np.where(r <= np.pi / 2, log_acc, -np.inf)
