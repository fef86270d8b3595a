r"""Riemannian Laplace mechanism (Reimherr, Bharath, Soto 2021; docs/specification.md §5.1) — :math:`\varepsilon`-DP.

Release :math:`Y` with density with respect to the Riemannian volume

.. math::
    p_\eta(y) = \frac{1}{Z(\sigma)} \exp\Big(-\frac{\mathrm{dist}(\eta, y)}{\sigma}\Big),
    \qquad \sigma = \frac{\Delta}{\varepsilon} \text{ (homogeneous spaces)},
    \quad \frac{2\Delta}{\varepsilon} \text{ otherwise}.

This module also holds :class:`IsotropicDistanceMechanism`, the shared machinery of
the mechanisms whose density is a function of :math:`\mathrm{dist}(\eta, y)`
(Riemannian Laplace here, Riemannian Gaussian in ``riemannian_gaussian.py``):
exact samplers, densities, normalisers, expected distances and the
Metropolis–Hastings fallback. Exact samplers (no MCMC):

* every isotropic space, i.e. every manifold that declares its radial volume density
  (``manifold.radial_volume``: :math:`S^d, H^d, \mathbb{R}^d`, the Kendall shape space
  :math:`\Sigma^k_2 = \mathbb{C}P^{k-2}`, or any space added later; its isometries fix a point and act
  transitively on unit tangent vectors, so the law of :math:`\mathrm{Exp}_\eta^{-1} Y` is rotation
  invariant): radius from :class:`~geodp_core.geometry.radial.RadialLaw` (Kendall:
  :math:`J(r) = \sin^{2k-5}r\cos r` on :math:`[0, \pi/2]`), direction uniform in the unit sphere of
  :math:`T_\eta M`, :math:`Y = \mathrm{Exp}_\eta(r u)` (``manifold.exp_polar``);
* SPD(m) log-Euclidean / log-Cholesky (flat, globally isometric to :math:`\mathbb{R}^d`
  through the chart): the Euclidean law in an orthonormal frame of :math:`T_\eta M`
  (Laplace: radius :math:`\Gamma(d, \sigma)`, i.e. the K-norm Laplace), then :math:`\mathrm{Exp}_\eta`;
* SPD(m) affine-invariant: the polar sampler of :mod:`geodp_core.geometry.spd_polar`.

Derivation: ``docs/derivations/riemannian_laplace.md``.
"""

import functools
import math

import numpy as np
from scipy import integrate, special

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry.functions import log_sphere_area
from geodp_core.geometry.radial import get_radial_law
from geodp_core.geometry.spd_polar import sample_eigen_logs, sample_spd_polar, spd_laplace_scale_limit
from geodp_core.mechanisms.base import (
    LABEL_APPROXIMATE,
    LABEL_EXACT,
    TAIL_PROBABILITY,
    Availability,
    Mechanism,
    gamma_tail_quantile,
    log_concave_gaussian_tail_quantile,
)
from geodp_core.mechanisms.mcmc import riemannian_metropolis_hastings
from geodp_core.mechanisms.registry import Card, MechanismSpec, register_mechanism
from geodp_core.privacy import PureDP, pure_dp_budget

__all__ = [
    "SAMPLERS",
    "IsotropicDistanceMechanism",
    "RiemannianLaplace",
    "diameter_capped_sensitivity",
    "noise_geometry",
]

SAMPLERS = ("exact", "mh")
DEFAULT_BURN_IN = 200
DEFAULT_N_STEPS = 300
_MC_EXPECTATION_SAMPLES = 1 << 17
_MC_EXPECTATION_SEED = 20240601


def noise_geometry(manifold):
    """How isotropic noise is sampled exactly on ``manifold`` (asked of the manifold).

    Returns
    -------
    tuple
        ``("radial", volume)`` with the manifold's :class:`~geodp_core.geometry.radial_volume.RadialVolume` (every
        isotropic space: constant curvature, the Kendall shape space, a flat SPD metric seen through its isometric
        chart, or any space that declares its radial volume density), ``("spd_polar", None)`` where the manifold
        declares an exact eigenvalue-polar sampler (SPD(m >= 2) affine-invariant), or ``(None, reason)``.
    """
    volume = manifold.radial_volume
    if volume is not None:
        return "radial", volume
    if manifold.eigen_polar_noise:
        return "spd_polar", None
    return None, f"no exact sampler of distance-isotropic noise is implemented on {manifold.label}"


def length_text(length):
    """``π``, ``π/2``, ``2π/3`` for small rational multiples of π, else ``f"{length:.6g}"``."""
    from fractions import Fraction

    ratio = Fraction(length / math.pi).limit_denominator(12)
    if ratio > 0 and abs(float(ratio) * math.pi - length) <= 1e-12 * length:
        top = "" if ratio.numerator == 1 else str(ratio.numerator)
        return f"{top}π" + ("" if ratio.denominator == 1 else f"/{ratio.denominator}")
    return f"{length:.6g}"


def diameter_capped_sensitivity(manifold, sensitivity, notes):
    """``min(sensitivity, manifold.diameter)`` (on a bounded space every distance is at most its diameter); appends
    a note when capped."""
    diameter = manifold.diameter
    if not math.isfinite(diameter) or sensitivity <= diameter:
        return sensitivity
    name = length_text(diameter)
    notes.append(f"sensitivity {sensitivity:g} > {name} = diameter of {manifold.symbol}; using Δ = {name} "
                 f"(dist ≤ {name} always)")
    return float(diameter)


def _log_struve_l0(x):
    r""":math:`\log L_0(x)` (modified Struve function of order 0), vectorised and stable.

    :math:`x \le 30`: the power series :math:`L_0(x) = \sum_{k\ge0} (x/2)^{2k+1}/\Gamma(k+3/2)^2`
    (positive terms, 90 terms suffice); :math:`x > 30`: :math:`L_0(x) = I_0(x) - \frac2\pi(x^{-1} + x^{-3}
    + 9x^{-5} + \dots)` with the scaled Bessel function. Agrees with ``scipy.special.modstruve`` to
    ~1e-13 and is ~5x faster.
    """
    x = np.asarray(x, dtype=float)
    small = x <= 30.0
    xs = np.where(small, x, 0.0)
    quarter_sq = (0.5 * xs) ** 2
    term = 0.5 * xs / special.gamma(1.5) ** 2
    total = term.copy()
    for k in range(1, 90):
        term = term * quarter_sq / (k + 0.5) ** 2
        total += term
    with np.errstate(divide="ignore"):
        out_small = np.log(total)
    xl = np.where(small, 40.0, x)
    correction = (2.0 / np.pi) * (1.0 / xl + xl**-3 + 9.0 * xl**-5) * np.exp(-xl) / special.i0e(xl)
    out_large = xl + np.log(special.i0e(xl)) + np.log1p(-correction)
    return np.where(small, out_small, out_large)


class _SPD2RadiusLaw:
    r"""Law of :math:`\rho = \mathrm{dist}(\eta, Y) = |r|` on SPD(2) affine-invariant.

    The eigen-log vector :math:`r \in \mathbb{R}^2` has density
    :math:`\propto g(|r|)\sinh(|r_1 - r_2|/2)`; in polar coordinates
    :math:`r = \rho(\cos\varphi, \sin\varphi)`, :math:`|r_1 - r_2|/2 = (\rho/\sqrt2)|\cos(\varphi + \pi/4)|` and
    :math:`\int_0^{2\pi}\sinh(a|\cos\psi|)\,d\psi = 2\pi L_0(a)` (modified Struve function), so

    .. math:: p(\rho) \propto g(\rho)\, \rho\, L_0(\rho/\sqrt2), \qquad \rho > 0.

    The Riemannian volume is :math:`K_2\, 2\sinh(|r_1-r_2|/2)\,dr\,dU` (``dU`` Haar probability on
    :math:`O(2)`, :math:`K_2 = \pi/\sqrt2`; see the derivation doc), so the normaliser of
    :math:`g(\mathrm{dist})` is :math:`Z = K_2 \cdot 2 \cdot 2\pi \int_0^\infty g(\rho)\rho L_0(\rho/\sqrt2)\,d\rho`.
    Integrals: 20-point Gauss–Legendre on 256 panels of the effective support (the neglected
    tail is below :math:`e^{-60}` of the peak).
    """

    _GL_X, _GL_W = np.polynomial.legendre.leggauss(20)

    def __init__(self, profile, scale):
        self.profile, self.scale = profile, scale
        s = scale
        if profile == "laplace":
            rate = 1.0 / s - 1.0 / math.sqrt(2.0)  # > 0 below the normalisability limit sqrt(2)
            self.end = 80.0 / rate + 20.0 * s
        else:
            self.end = 14.0 * s + 2.0 * s * s
        self.panels = np.linspace(0.0, self.end, 257)
        nodes = self._nodes(self.panels[:-1], self.panels[1:])
        self._log_peak = float(np.max(self.log_unnormalised(nodes)))
        masses = self._integrate(self.panels[:-1], self.panels[1:])
        self._cum = np.concatenate([[0.0], np.cumsum(masses)])
        self.log_integral = math.log(self._cum[-1]) + self._log_peak

    def log_unnormalised(self, rho):
        rho = np.asarray(rho, dtype=float)
        log_g = -rho / self.scale if self.profile == "laplace" else -0.5 * (rho / self.scale) ** 2
        with np.errstate(divide="ignore"):
            return log_g + np.log(rho) + _log_struve_l0(rho / math.sqrt(2.0))

    def _nodes(self, a, b):
        return 0.5 * (a + b)[:, None] + 0.5 * (b - a)[:, None] * self._GL_X

    def _integrate(self, a, b, power=0):
        r"""Vectorised :math:`\int_a^b \rho^{power} e^{\ell(\rho) - \ell_{max}} d\rho` per interval."""
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        nodes = self._nodes(a, b)
        values = np.exp(self.log_unnormalised(nodes) - self._log_peak) * nodes**power
        return 0.5 * (b - a) * (values @ self._GL_W)

    def cdf(self, rho):
        """CDF of the radius (vectorised: panel masses plus one Gauss–Legendre rule per point)."""
        rho = np.clip(np.asarray(rho, dtype=float), 0.0, self.end)
        idx = np.clip(np.searchsorted(self.panels, rho, side="right") - 1, 0, len(self.panels) - 2)
        flat_idx, flat_rho = idx.ravel(), rho.ravel()
        partial = self._integrate(self.panels[flat_idx], flat_rho)
        return ((self._cum[flat_idx] + partial) / self._cum[-1]).reshape(rho.shape)

    def mean(self):
        r""":math:`\mathbb{E}\rho`."""
        return float(np.sum(self._integrate(self.panels[:-1], self.panels[1:], power=1)) / self._cum[-1])


@functools.lru_cache(maxsize=64)
def _spd2_radius_law(profile, scale):
    return _SPD2RadiusLaw(profile, scale)


@functools.lru_cache(maxsize=64)
def _spd_polar_mc_mean(m, profile, scale):
    rng = np.random.default_rng(_MC_EXPECTATION_SEED)
    radii = np.linalg.norm(sample_eigen_logs(m, profile, scale, _MC_EXPECTATION_SAMPLES, rng), axis=1)
    return float(radii.mean()), float(radii.std(ddof=1) / math.sqrt(radii.size))


class IsotropicDistanceMechanism(Mechanism):
    r"""Shared machinery of mechanisms with density :math:`\propto g(\mathrm{dist}(\eta, y))`.

    Subclasses set :attr:`profile` (``"laplace"``: :math:`g(r) = e^{-r/\sigma}`, or
    ``"gaussian"``: :math:`g(r) = e^{-r^2/(2\sigma^2)}`) and implement ``_calibrate``
    (which should finish with :meth:`_finish_calibration`).
    """

    profile = None
    #: :class:`~geodp_core.mechanisms.mcmc.MCMCResult` of the last ``sampler="mh"`` draw (diagnostics).
    last_mcmc = None

    # ------------------------------------------------------------ availability
    @classmethod
    def availability(cls, manifold):
        kind, reason = noise_geometry(manifold)
        if kind is None:
            return Availability(False, reason)
        return Availability(True, "")

    # ----------------------------------------------------------------- helpers
    def _log_profile(self, dist, sigma):
        dist = np.asarray(dist, dtype=float)
        if self.profile == "laplace":
            return -dist / sigma
        return -0.5 * (dist / sigma) ** 2

    def _radial_law(self, sigma):
        kind, volume = noise_geometry(self.manifold)
        if kind != "radial":
            return None
        return get_radial_law(volume, None, self.profile, sigma)

    def _check_noise_scale(self, sigma):
        """Raise :class:`UnavailableError` when the noise law with scale ``sigma`` cannot be built here."""
        if not 1e-8 <= sigma <= 1e8:
            raise UnavailableError(
                f"the calibrated noise scale σ = {sigma:.6g} is outside the range [1e-8, 1e8] supported by the "
                "exact samplers; change the budget or the sensitivity",
                param="sensitivity",
            )
        kind, _ = noise_geometry(self.manifold)
        try:
            if kind == "radial":
                self._radial_law(sigma)
            else:
                # data-independent pilot run: raises if the exact eigen-log sampler is hopeless here
                sample_eigen_logs(self.manifold.m, self.profile, sigma, 1, np.random.default_rng(0))
        except UnavailableError as exc:
            raise UnavailableError(
                f"the exact {self.profile} sampler is unavailable at the calibrated σ = {sigma:.6g} on "
                f"{self.manifold.label}: {exc}",
                param="target",
            ) from exc
        limit = self.manifold.overflow_radius if kind == "radial" else None
        if limit is not None:
            tail = 1.0 - float(self._radial_law(sigma).cdf(np.array([limit]))[0])
            if tail > 1e-12:
                raise UnavailableError(
                    f"at σ = {sigma:.6g} the noise radius exceeds {limit:g} with probability {tail:.3g}: the "
                    f"exponential map on {self.manifold.label} overflows double precision there (coordinates ~ e^r); "
                    "use a larger budget or a smaller sensitivity",
                    param="target",
                )

    def _precision_notes(self, sigma):
        """Caveat when many releases are so far away that double precision blurs the geometry
        (``manifold.precision_radius``, e.g. 30 on the hyperboloid)."""
        kind, _ = noise_geometry(self.manifold)
        reach = self.manifold.precision_radius
        if kind != "radial" or reach is None:
            return []
        tail = 1.0 - float(self._radial_law(sigma).cdf(np.array([reach]))[0])
        if tail <= 1e-3:
            return []
        return [f"{100 * tail:.2g}% of the releases lie more than {reach:g} from η: the coordinates of "
                f"{self.manifold.symbol} (~e^r) then carry few significant digits of the position (the law is sampled "
                "exactly, the floating-point point is only approximately that draw)"]

    def _parse_sampler_options(self, sampler="exact", n_steps=None, burn_in=None, proposal_scale=None, **unknown):
        if unknown:
            name = sorted(unknown)[0]
            raise InvalidParameterError(
                f"{name} is not an option of {self.name}; valid options: sampler, n_steps, burn_in, proposal_scale",
                param=name,
            )
        sampler = check_option(sampler, "sampler", SAMPLERS)
        if sampler == "exact":
            for key, value in (("n_steps", n_steps), ("burn_in", burn_in), ("proposal_scale", proposal_scale)):
                if value is not None:
                    raise InvalidParameterError(
                        f"{key} only applies to sampler='mh'; got {key}={value!r} with sampler='exact'", param=key
                    )
            return {"sampler": "exact"}
        n_steps = DEFAULT_N_STEPS if n_steps is None else check_int(n_steps, "n_steps", low=1, high=100_000)
        burn_in = DEFAULT_BURN_IN if burn_in is None else check_int(burn_in, "burn_in", low=0, high=100_000)
        if proposal_scale is not None:
            proposal_scale = check_real(proposal_scale, "proposal_scale", low=0.0)
        return {"sampler": "mh", "n_steps": n_steps, "burn_in": burn_in, "proposal_scale": proposal_scale}

    def _finish_calibration(self, target, achieved, native, sensitivity, sigma, label, notes, options):
        """Attach sampler notes/label and build the :class:`Calibration`."""
        notes = list(notes) + self._precision_notes(sigma)
        if options["sampler"] == "mh":
            label = LABEL_APPROXIMATE
            notes.append(
                f"sampled by random-walk Metropolis–Hastings (wrapped-Gaussian proposal), one chain per release, "
                f"chain length burn-in {options['burn_in']} + {options['n_steps']} steps: the guarantee holds for "
                "the exact law, the released law is only approximately it (approximate sampler)"
            )
        else:
            notes.append(self._exact_sampler_note())
        return self._make_calibration(
            target, achieved, native, sensitivity, noise={"sigma": float(sigma)}, label=label, notes=notes,
            options=options,
        )

    def _exact_sampler_note(self):
        kind, space = noise_geometry(self.manifold)
        if kind == "spd_polar":
            return ("exact sampler: polar coordinates Y = η^½ U diag(e^r) Uᵀ η^½, U Haar on O(m), eigen-logs r "
                    "by rejection (Said et al. 2017 volume density ∏ sinh(|r_i - r_j|/2))")
        if self.manifold.radial_volume.is_flat and self.manifold.metric is not None:
            return (f"exact sampler: flat metric ({self.manifold.metric_label}), {self.profile} noise in an orthonormal "
                    "frame of T_η M pushed by Exp_η (an isometry from the tangent space)")
        return (f"exact sampler: radius from the {self.profile} radial law ∝ g(r) J(r) on {self.manifold.label} "
                "(rejection with valid envelopes), direction uniform in T_η M, Y = Exp_η(r u)")

    # ---------------------------------------------------------------- sampling
    def _sample(self, center, calibration, size, rng):
        sigma = calibration.noise["sigma"]
        if calibration.options.get("sampler") == "mh":
            return self._sample_mh(center, calibration, size, rng)
        kind, _ = noise_geometry(self.manifold)
        if kind == "spd_polar":
            return sample_spd_polar(center, self.profile, sigma, size, rng)
        radii = self._radial_law(sigma).sample(size, rng)
        # direction uniform on the unit sphere of T_η M: normalised standard normal coordinates in the orthonormal
        # frame at η (the draws of random_unit_tangent), mapped with the radius by the manifold's unvalidated
        # polar exponential (closed forms: cos r η + sin r u on spheres, cosh r η + sinh r u on H^d).
        coords = rng.standard_normal((size, self.manifold.dim))
        coords /= np.sqrt(np.einsum("ij,ij->i", coords, coords))[:, None]
        with np.errstate(over="ignore", invalid="ignore"):
            return self.manifold.exp_polar(center, radii, coords, check=False)

    # ------------------------------------------------------- coupled releases
    def coupling_reason(self, calibration):
        r"""``None`` when the exact radial sampler applies (a space with a radial volume, ``sampler="exact"``).

        Elsewhere the reason in plain words: SPD(m) affine-invariant (the law of the eigen-log direction changes
        with the scale, so no single uniform direction serves every budget) and the Metropolis–Hastings option
        (approximate, not a push-forward of uniforms).
        """
        kind, _ = noise_geometry(self.manifold)
        if calibration.options.get("sampler") == "mh":
            return (f"{self.title} with the Metropolis–Hastings sampler has no coupled releases: that sampler is "
                    "approximate")
        if kind != "radial":
            return (f"{self.title} on {self.manifold.label} has no coupled releases: the direction of its noise "
                    "depends on the noise scale there")
        return None

    def _sample_coupled(self, center, calibrations, size, rng):
        r"""Quantile coupling: one uniform :math:`U_i` and one unit direction :math:`u_i` per release, shared by
        every calibration; release :math:`i` at scale :math:`\sigma` is
        :math:`\mathrm{Exp}_\eta(F_\sigma^{-1}(U_i)\,u_i)`.

        Each budget's releases are i.i.d. with exactly the mechanism's law at that budget
        (:math:`F_\sigma^{-1}(U)` has CDF :math:`F_\sigma`, the direction is uniform and independent of it), and
        as :math:`\sigma` decreases every radius decreases (the laws :math:`\propto g_\sigma(r)J(r)` have a
        monotone likelihood ratio in :math:`r`, so :math:`F_{\sigma'} \ge F_\sigma` for :math:`\sigma' < \sigma`).
        Derivation: ``docs/derivations/exact_samplers.md``.
        """
        quantiles = rng.random(size)
        coords = rng.standard_normal((size, self.manifold.dim))
        coords /= np.sqrt(np.einsum("ij,ij->i", coords, coords))[:, None]
        out = []
        for calibration in calibrations:
            radii = self._radial_law(calibration.noise["sigma"]).ppf(quantiles)
            with np.errstate(over="ignore", invalid="ignore"):
                out.append(self.manifold.exp_polar(center, radii, coords, check=False))
        return np.stack(out)

    def release_reach(self, calibration, tail=TAIL_PROBABILITY):
        r"""``(1, q)``: :math:`\mathrm{dist}(\eta, Y) \le q` with probability :math:`\ge 1 - 10^{-15}` (public).

        Radial laws :math:`\propto g(r)J(r)`: the volume's
        :meth:`~geodp_core.geometry.radial_volume.RadialVolume.radius_tail_bound` (flat, :math:`\Gamma(d, \sigma)`
        (Laplace) or :math:`\sigma\chi_d` (Gaussian); :math:`H^d`, dominated by
        :math:`\Gamma(d, \text{rate } 1/\sigma - (d-1))` or the strongly log-concave
        :math:`r^{d-1}e^{-r^2/(2\sigma^2) + (d-1)r}`; ``None`` on a bounded range); SPD(m) affine polar, radius :math:`|r|`, the same with
        :math:`r^{m-1+P}e^{C|r|}`, :math:`P = m(m-1)/2` pairs, :math:`C = \sqrt{Pm}/2 \ge \max_{|\omega|=1}\sum_{i<j}|\omega_i-\omega_j|/2`.
        """
        sigma = calibration.noise["sigma"]
        kind, volume = noise_geometry(self.manifold)
        laplace = self.profile == "laplace"
        if kind == "radial":
            q = volume.radius_tail_bound(self.profile, sigma, tail)
            return None if q is None else (1.0, q)
        if kind == "spd_polar":
            m = self.manifold.m
            pairs = m * (m - 1) // 2
            drift = 0.5 * math.sqrt(pairs * m)
            if laplace:
                rate = 1.0 / sigma - drift
                q = gamma_tail_quantile(m + pairs, 1.0 / rate, tail) if rate > 0 else math.inf
            else:
                q = log_concave_gaussian_tail_quantile(m - 1 + pairs, drift, sigma, tail)
            return (1.0, q)
        return None

    def default_proposal_scale(self, sigma):
        r"""Initial Metropolis proposal scale: :math:`2.38\,s_c/\sqrt d` with :math:`s_c` the
        per-coordinate standard deviation of the Euclidean law (:math:`\sigma\sqrt{d+1}` Laplace,
        :math:`\sigma` Gaussian), capped at the diameter on a bounded space (:math:`\pi` on the sphere,
        :math:`\pi/2` on the Kendall space); adapted during burn-in."""
        d = self.manifold.dim
        per_coord = sigma * math.sqrt(d + 1.0) if self.profile == "laplace" else sigma
        return min(2.38 * per_coord / math.sqrt(d), float(self.manifold.diameter))

    def _sample_mh(self, center, calibration, size, rng):
        sigma = calibration.noise["sigma"]
        options = calibration.options
        manifold = self.manifold
        scale = options["proposal_scale"] or self.default_proposal_scale(sigma)

        def log_target(points):
            return self._log_profile(manifold.dist(center, points, check=False), sigma)

        result = riemannian_metropolis_hastings(
            manifold, log_target, center, size, options["n_steps"], scale, rng, burn_in=options["burn_in"]
        )
        self.last_mcmc = result
        return result.samples

    # ----------------------------------------------------------------- density
    def log_normaliser(self, calibration):
        r""":math:`\log Z(\sigma) = \log\int_M g(\mathrm{dist}(\eta, y))\,d\mathrm{vol}(y)` (independent of :math:`\eta`).

        Geodesic polar coordinates: :math:`Z = |S^{d-1}|\int g(r)J(r)\,dr` on constant-curvature
        and flat spaces (SPD(1) included) and the Kendall shape space; SPD(2) affine-invariant: the Struve-function radial law
        (see ``_SPD2RadiusLaw``); SPD(m >= 3) affine-invariant is not implemented.

        Raises
        ------
        NotImplementedError
            On SPD(m) affine-invariant with ``m >= 3``.
        """
        self._check_calibration(calibration)
        sigma = calibration.noise["sigma"]
        kind, _ = noise_geometry(self.manifold)
        if kind == "radial":
            return float(self._radial_law(sigma).log_normaliser() + log_sphere_area(self.manifold.dim))
        m = self.manifold.m
        if m == 2:
            k2 = math.pi / math.sqrt(2.0)
            return float(math.log(k2 * 2.0 * 2.0 * math.pi) + _spd2_radius_law(self.profile, sigma).log_integral)
        raise NotImplementedError(
            f"the normalising constant of the {self.profile} law on SPD({m}) affine-invariant (m >= 3) is not "
            "implemented; use log_density(..., normalised=False)"
        )

    def log_density(self, center, points, calibration, normalised=False):
        r"""Log density of the release law w.r.t. the Riemannian volume.

        .. math:: \log p_\eta(y) = \log g(\mathrm{dist}(\eta, y)) - [\log Z(\sigma)]

        Parameters
        ----------
        center : array_like
            The summary :math:`\eta` (one point).
        points : array_like
            Points of the manifold, shape ``(..., *point_shape)``.
        calibration : Calibration
        normalised : bool, default False
            Subtract :meth:`log_normaliser` (unnormalised by default, as in the base class).

        Returns
        -------
        ndarray, shape ``points.shape[:-k]``
        """
        center = self.manifold.validate_points(center, "center", single=True)
        points = self.manifold.validate_points(points, "points")
        self._check_calibration(calibration)
        if not isinstance(normalised, (bool, np.bool_)):
            raise InvalidParameterError(f"normalised must be True or False; got {normalised!r}", param="normalised")
        out = self._log_profile(self.manifold.dist(center, points, check=False), calibration.noise["sigma"])
        if normalised:
            out = out - self.log_normaliser(calibration)
        return out

    def distance_cdf(self, calibration, radius):
        r"""CDF of :math:`\mathrm{dist}(\eta, Y)` under the exact release law (deterministic quadrature).

        Available on constant-curvature and flat spaces and on SPD(m) affine-invariant for ``m <= 2``.
        """
        self._check_calibration(calibration)
        sigma = calibration.noise["sigma"]
        kind, _ = noise_geometry(self.manifold)
        if kind == "radial":
            return self._radial_law(sigma).cdf(radius)
        if self.manifold.m == 2:
            return _spd2_radius_law(self.profile, sigma).cdf(radius)
        raise NotImplementedError(f"distance_cdf is not implemented on {self.manifold.label} (m >= 3)")

    def expected_distance(self, calibration):
        r""":math:`\mathbb{E}\,\mathrm{dist}(\eta, Y)` under the exact release law.

        Constant-curvature and flat spaces: :math:`\int_0^{r_{\max}} (1 - F(r))\,dr` by adaptive
        quadrature of the radial CDF (closed forms in flat space: :math:`d\sigma` for Laplace,
        :math:`\sigma\sqrt2\,\Gamma(\frac{d+1}{2})/\Gamma(\frac d2)` for Gaussian). SPD(m)
        affine-invariant: ``m <= 2`` by quadrature of the radial law; ``m >= 3`` a Monte Carlo
        estimate from the exact sampler with :math:`2^{17}` draws and a fixed seed (relative
        standard error about 0.2%; no closed form for the normaliser).

        Returns
        -------
        float
        """
        self._check_calibration(calibration)
        sigma = calibration.noise["sigma"]
        kind, volume = noise_geometry(self.manifold)
        d = self.manifold.dim
        if kind == "radial":
            if volume.is_flat:
                if self.profile == "laplace":
                    return d * sigma
                return sigma * math.sqrt(2.0) * math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2))
            law = self._radial_law(sigma)
            upper = law.upper
            if not np.isfinite(upper):
                # the radial density decays at least exponentially beyond the mode
                upper = law.mode + 200.0 * sigma * (1.0 + d)
                while 1.0 - float(law.cdf(np.array([upper]))[0]) > 0.0:
                    upper *= 2.0
            points = [law.mode] if 0.0 < law.mode < upper else None
            value, _ = integrate.quad(
                lambda r: 1.0 - float(law.cdf(np.array([r]))[0]), 0.0, upper, points=points, epsabs=1e-13,
                epsrel=1e-10, limit=200,
            )
            return float(value)
        m = self.manifold.m
        if m == 2:
            return float(_spd2_radius_law(self.profile, sigma).mean())
        return _spd_polar_mc_mean(m, self.profile, sigma)[0]


@register_mechanism
class RiemannianLaplace(IsotropicDistanceMechanism):
    r"""Riemannian Laplace mechanism: density :math:`\propto \exp(-\mathrm{dist}(\eta, y)/\sigma)`.

    :math:`\varepsilon`-DP with :math:`\sigma = \Delta/\varepsilon` on homogeneous spaces (the
    normaliser does not depend on :math:`\eta`) and :math:`2\Delta/\varepsilon` otherwise
    (Reimherr et al. 2021; restated in the conformal paper, Def. IV.3). The target guarantee is met through
    :func:`geodp_core.privacy.pure_dp_budget` (native for pure DP, valid conversions for
    (ε, δ), GDP, RDP and zCDP targets).

    The law exists only if :math:`Z(\sigma) < \infty`: on :math:`H^d` this needs
    :math:`\sigma < 1/(d-1)`, i.e. :math:`\varepsilon > (d-1)\Delta`; on SPD(m) affine-invariant
    :math:`\sigma < 1/c_m`, :math:`c_m = \sqrt{m(m^2-1)/12}`. Below these budgets calibration
    raises :class:`~geodp_core.exceptions.UnavailableError`.

    Calibration options
    -------------------
    sampler : {"exact", "mh"}, default "exact"
        ``"mh"`` uses :func:`~geodp_core.mechanisms.mcmc.riemannian_metropolis_hastings`
        (label "approximate sampler"); then ``burn_in`` (default 200), ``n_steps`` (default 300)
        and ``proposal_scale`` (default :meth:`default_proposal_scale`) apply.
    """

    spec = MechanismSpec(
        name="riemannian_laplace",
        title="Riemannian Laplace",
        color="#d62728",
        notions=("pure_dp", "approx_dp", "gdp", "rdp", "zcdp"),
        card=Card(
            title="Riemannian Laplace (RL)",
            notion="ε-DP",
            idea=(
                "Replace the absolute difference of the Euclidean Laplace mechanism by the geodesic distance: the "
                "release is drawn from a density that decays exponentially with the distance to the private Fréchet "
                "mean. The triangle inequality bounds the privacy loss by Δ/σ."
            ),
            formula=(
                r"\begin{gathered}p_\eta(y) \propto \exp\!\Big(-\frac{\mathrm{dist}(\eta, y)}{\sigma}\Big) \\ "
                r"\sigma = \frac{\Delta}{\varepsilon}\ \text{(homogeneous spaces)},\quad \frac{2\Delta}{\varepsilon}\ "
                r"\text{otherwise}\end{gathered}"
            ),
            guarantee=(
                "ε-DP, exact. Other targets through valid conversions of ε-DP: (ε, δ)-DP trivially, μ-GDP with "
                "μ = -2Φ⁻¹(1/(1+e^ε)), RDP by the randomized-response curve, zCDP with ρ = ε²/2."
            ),
            assumptions=(
                "Data in a PUBLIC geodesic ball B(m₀, r) with r < r* (π/4 on the unit sphere, ∞ on Hadamard spaces), "
                "so that the Fréchet mean is unique and Δ = 2r(2-h)/(nh) holds. The law must be normalisable: on Hᵈ "
                "only for σ < 1/(d-1), i.e. ε > (d-1)Δ; on affine-invariant SPD(m) only for σ below a constant — "
                "below these budgets the mechanism is shown as unavailable."
            ),
            sampler=(
                "Exact, no MCMC: radius from the radial law ∝ exp(−r/σ) J(r) by rejection (sphere: Gamma(d, σ) "
                "proposal accepted with prob. (sin r / r)ᵈ⁻¹; Hᵈ: Gamma with rate 1/σ − (d−1)), direction uniform in "
                "the tangent space at η, release Exp_η(r u). SPD affine: polar coordinates (Said et al. 2017). A Riemannian "
                "Metropolis–Hastings sampler is available as the labelled 'approximate sampler' baseline."
            ),
            source="Reimherr, Bharath & Soto (2021), Differential privacy over Riemannian manifolds, NeurIPS.",
        ),
        try_it=dict(notion="pure_dp", eps=1.0, mechanisms=("riemannian_laplace",)),
        audit_controls=("understated_noise",),
    )
    native_notion = "pure_dp"
    source = "Reimherr, Bharath & Soto (2021), Differential privacy over Riemannian manifolds, NeurIPS"
    profile = "laplace"

    def scale_limit(self):
        r"""Supremum of the normalisable scales :math:`\sigma` (``inf`` when every scale works)."""
        kind, volume = noise_geometry(self.manifold)
        if kind == "radial":
            return volume.laplace_scale_limit()
        return spd_laplace_scale_limit(self.manifold.m)

    def _calibrate(self, target, sensitivity, **options):
        options = self._parse_sampler_options(**options)
        budget = pure_dp_budget(target)
        eps = budget.value
        notes = [f"target met through ε-DP: {budget.note}"]
        effective = diameter_capped_sensitivity(self.manifold, sensitivity, notes)
        factor = 1.0 if self.manifold.is_homogeneous else 2.0
        sigma = factor * effective / eps
        while factor * effective / sigma > eps:  # safe side in floating point
            sigma = np.nextafter(sigma, np.inf)
        limit = self.scale_limit()
        if sigma >= limit:
            if self.manifold.radial_volume is not None:
                why = (f"on {self.manifold.label} exp(−r/σ) J(r) (J the radial volume density, sinhᵈ⁻¹(r) on H^d) is "
                       f"integrable only for σ < {limit:.6g} (1/(d-1) on H^d)")
            else:
                why = (f"on {self.manifold.label} exp(-|r|/σ) ∏ sinh(|r_i - r_j|/2) is integrable only for "
                       f"σ < 1/c_m = {limit:.6g}")
            raise UnavailableError(
                f"the Riemannian Laplace law is not normalisable at σ = Δ/ε = {sigma:.6g}: {why}; an ε-DP "
                f"release needs ε > {'' if factor == 1 else '2·'}{1.0 / limit:.6g}·Δ = {factor * effective / limit:.6g} for "
                f"Δ = {effective:g} "
                f"(got ε = {eps:.6g}); use a larger budget or the Riemannian Gaussian / exponential-wrapped Laplace",
                param="target",
            )
        self._check_noise_scale(sigma)
        notes.insert(0, f"σ = {'' if factor == 1 else '2'}Δ/ε on a {'homogeneous' if factor == 1 else 'non-homogeneous'} "
                        "space: the privacy loss |dist(η',y) - dist(η,y)|/σ ≤ Δ/σ by the triangle inequality, "
                        "and the normaliser does not depend on η (Reimherr et al. 2021; conformal paper Def. IV.3)")
        return self._finish_calibration(
            target, budget.achieved, PureDP(factor * effective / sigma), sensitivity, sigma, LABEL_EXACT, notes, options
        )
