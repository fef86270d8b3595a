"""Exponential-wrapped Laplace and Gaussian mechanisms on Hadamard spaces (docs/specification.md §5.4).

With a PUBLIC footpoint :math:`p_0` (never computed from the data),

.. math::
    u = \\mathrm{Log}_{p_0}(\\eta) + z,\\qquad \\tilde\\eta = \\mathrm{Exp}_{p_0}(u),

with :math:`z` in an orthonormal frame of :math:`T_{p_0}M`:

* EWL: density :math:`\\propto \\exp(-|z|/\\sigma)` (radius :math:`\\mathrm{Gamma}(d, \\sigma)`,
  uniform direction), :math:`\\varepsilon`-DP at :math:`\\sigma = \\Delta/\\varepsilon`;
* EWG: :math:`z \\sim N(0, \\sigma^2 I_d)`, exactly :math:`(\\Delta/\\sigma)`-GDP, hence the
  analytic :math:`(\\varepsilon,\\delta)` calibration, RDP and zCDP.

Valid because on a Hadamard space :math:`\\mathrm{Exp}_{p_0}` does not decrease distances,
so :math:`\\mathrm{Log}_{p_0}` is 1-Lipschitz and the tangent summary has L2 sensitivity
at most :math:`\\Delta`; the release is a post-processing (by the bijection
:math:`\\mathrm{Exp}_{p_0}`) of the Euclidean Laplace / Gaussian mechanism in :math:`T_{p_0}M`.
An optional two-stage footpoint spends part of the budget on a coarse private mean used
as :math:`p_0`. See ``docs/derivations/exponential_wrapped.md``.
"""

import math

import numpy as np
from scipy import special

from geodp_core._validation import check_real
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.functions import log_sphere_area
from geodp_core.mechanisms.base import (
    LABEL_EXACT,
    REFUSAL_TAIL,
    TAIL_PROBABILITY,
    Availability,
    Mechanism,
    chi_tail_quantile,
    gamma_tail_quantile,
)
from geodp_core.mechanisms.registry import Card, MechanismSpec, register_mechanism
from geodp_core.mechanisms.tangent_gaussian import (
    chi_mean,
    exp_frame_noise,
    gaussian_frame_log_density,
    gaussian_frame_noise,
    gaussian_sigma_for_target,
)
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    compose,
    implies,
    pure_dp_budget,
)

__all__ = ["ExponentialWrappedLaplace", "ExponentialWrappedGaussian", "split_target"]

TWO_STAGE = "two_stage"
DEFAULT_FOOTPOINT_FRACTION = 0.2
_CHUNK = 65_536
_NUDGE = 1e-12
_MAX_NUDGES = 10_000


def split_target(target, fraction):
    """Split ``target`` into two guarantees whose composition is ``target``.

    The first part receives the share ``fraction`` of the budget, in the quantity
    that adds up under composition:

    ========================  ===========================================================
    target                    (first, second)
    ========================  ===========================================================
    PureDP(eps)               PureDP(f eps), PureDP((1-f) eps)
    ApproxDP(eps, delta)      ApproxDP(f eps, f delta), ApproxDP((1-f) eps, (1-f) delta)
    GDP(mu)                   GDP(sqrt(f) mu), GDP(sqrt(1-f) mu)   (mu² adds)
    RDP(alpha, eps)           RDP(alpha, f eps), RDP(alpha, (1-f) eps)
    ZCDP(rho)                 ZCDP(f rho), ZCDP((1-f) rho)
    ========================  ===========================================================

    Parameters
    ----------
    target : Guarantee
    fraction : float
        :math:`f \\in (0, 1)`.

    Returns
    -------
    tuple of Guarantee
    """
    f = check_real(fraction, "fraction", low=0.0, high=1.0)
    g = 1.0 - f
    if isinstance(target, PureDP):
        return PureDP(f * target.eps), PureDP(g * target.eps)
    if isinstance(target, ApproxDP):
        return ApproxDP(f * target.eps, f * target.delta), ApproxDP(g * target.eps, g * target.delta)
    if isinstance(target, GDP):
        return GDP(math.sqrt(f) * target.mu), GDP(math.sqrt(g) * target.mu)
    if isinstance(target, RDP):
        return RDP(target.alpha, f * target.eps), RDP(target.alpha, g * target.eps)
    if isinstance(target, ZCDP):
        return ZCDP(f * target.rho), ZCDP(g * target.rho)
    raise InvalidParameterError(f"target must be a guarantee; got {type(target).__name__}", param="target")


def _shrink(target, factor):
    """``target`` with its budget parameters (eps, delta, mu, rho) multiplied by ``factor`` (< 1)."""
    if isinstance(target, PureDP):
        return PureDP(target.eps * factor)
    if isinstance(target, ApproxDP):
        return ApproxDP(target.eps * factor, target.delta * factor)
    if isinstance(target, GDP):
        return GDP(target.mu * factor)
    if isinstance(target, RDP):
        return RDP(target.alpha, target.eps * factor)
    return ZCDP(target.rho * factor)


def public_footpoint(manifold, center, radius, data, noise_seed):
    """The footpoint a scenario passes: its PUBLIC ball centre :math:`m_0` (never the data)."""
    return {"footpoint": center}


class _ExponentialWrapped(Mechanism):
    """Shared machinery: public footpoint, Log/Exp push-forward, two-stage footpoint."""

    source = ("Exponential-wrapped mechanisms: differential privacy on Hadamard manifolds made practical "
              "(ICLR 2026)")
    _law = ""  # "laplace" or "gaussian"

    @classmethod
    def availability(cls, manifold):
        if manifold.is_hadamard:
            return Availability(True, "")
        return Availability(
            False,
            f"{manifold.label} is not a Hadamard space (positive curvature): Exp at the footpoint is not "
            "injective (it wraps around at distance π), Log is not globally defined (cut locus) and not "
            "1-Lipschitz, so the tangent-space noise has no sensitivity bound and no guarantee",
        )

    # ------------------------------------------------------------ calibration
    def _stage(self, target, sensitivity):
        """``(sigma, achieved, native, note)`` for one stage meeting ``target`` (implemented per law)."""
        raise NotImplementedError

    def _calibrate(self, target, sensitivity, footpoint=None, footpoint_budget_fraction=None,
                   first_stage_footpoint=None, **options):
        if options:
            raise InvalidParameterError(
                f"unknown option(s) {', '.join(sorted(options))} for {self.name}; valid options: footpoint, "
                "footpoint_budget_fraction, first_stage_footpoint",
                param=sorted(options)[0],
            )
        sens_note = ("Log_p0 is 1-Lipschitz on the Hadamard space " + self.manifold.label
                     + " (Exp_p0 does not decrease distances), so the tangent summary Log_p0(η) has L2 "
                     "sensitivity ≤ Δ; the release Exp_p0(u) is post-processing")
        if isinstance(footpoint, str) and footpoint == TWO_STAGE:
            return self._calibrate_two_stage(target, sensitivity, footpoint_budget_fraction,
                                             first_stage_footpoint, sens_note)
        for name, value in (("footpoint_budget_fraction", footpoint_budget_fraction),
                            ("first_stage_footpoint", first_stage_footpoint)):
            if value is not None:
                raise InvalidParameterError(
                    f"{name} applies only with footpoint='two_stage'; got {name}={value!r} with a fixed footpoint",
                    param=name,
                )
        p0 = self._public_point(footpoint, "footpoint")
        sigma, achieved, native, note = self._stage(target, sensitivity)
        notes = [note, sens_note, "the footpoint p0 is a PUBLIC input (never computed from the data)"]
        return self._make_calibration(target, achieved, native, sensitivity, noise={"sigma": sigma},
                                      label=LABEL_EXACT, notes=notes, options={"footpoint": p0})

    def _public_point(self, value, name):
        if value is None:
            return np.asarray(self.manifold.default_center(), dtype=float)
        if isinstance(value, str):
            raise InvalidParameterError(
                f"{name} must be a point of {self.manifold.label} (PUBLIC, not from the data), None for the "
                f"default centre{', or ' + repr(TWO_STAGE) if name == 'footpoint' else ''}; got {value!r}",
                param=name,
            )
        return self.manifold.validate_points(value, name, single=True)

    def _calibrate_two_stage(self, target, sensitivity, fraction, first_footpoint, sens_note):
        fraction = DEFAULT_FOOTPOINT_FRACTION if fraction is None else fraction
        fraction = check_real(fraction, "footpoint_budget_fraction", low=0.0, high=1.0)
        p0 = self._public_point(first_footpoint, "first_stage_footpoint")
        first_target, second_target = split_target(target, fraction)
        for _ in range(_MAX_NUDGES):
            s1, a1, n1, note1 = self._stage(first_target, sensitivity)
            s2, a2, n2, note2 = self._stage(second_target, sensitivity)
            achieved = compose([a1, a2])
            if implies(achieved, target):
                break
            # Rounding in the split: shrink both stage budgets by a relative 1e-12 and retry.
            first_target = _shrink(first_target, 1.0 - _NUDGE)
            second_target = _shrink(second_target, 1.0 - _NUDGE)
        else:  # pragma: no cover
            raise AssertionError("two-stage composition could not be verified on the safe side")
        native = compose([n1, n2])
        share = {"pure_dp": "of ε", "approx_dp": "of ε and of δ", "gdp": "of μ²",
                 "rdp": "of ε at the target α", "zcdp": "of ρ"}[target.notion]
        rule = {"pure_dp": "ε adds", "approx_dp": "ε and δ add", "gdp": "μ adds in quadrature",
                "rdp": "ε adds at the same α", "zcdp": "ρ adds"}[target.notion]
        notes = [
            f"two-stage footpoint: stage 1 releases a coarse private mean p1 with {self.name} at the PUBLIC "
            f"footpoint p0 using the share {fraction:g} {share}: {a1.describe()}, σ1={s1:.4g}; stage 2 "
            f"uses p1 as footpoint with the rest: {a2.describe()}, σ2={s2:.4g}",
            f"adaptive composition ({rule}) gives "
            f"{achieved.describe()}, which implies the target {target.describe()}",
            f"stage 1: {note1}", f"stage 2: {note2}",
            sens_note + " (for every footpoint, in particular the stage-1 release)",
        ]
        return self._make_calibration(
            target, achieved, native, sensitivity,
            noise={"sigma": s2, "sigma_first_stage": s1}, label=LABEL_EXACT, notes=notes,
            options={"footpoint": TWO_STAGE, "first_stage_footpoint": p0, "footpoint_budget_fraction": fraction},
        )

    # --------------------------------------------------------------- sampling
    def _noise_coords(self, sigma, size, rng):
        """``(size, d)`` frame coordinates of the tangent noise (implemented per law)."""
        raise NotImplementedError

    def _wrap(self, footpoints, center, coords):
        """:math:`\\mathrm{Exp}_{p}(\\mathrm{Log}_{p}\\eta + z)` with ``z`` given by frame coordinates."""
        manifold = self.manifold
        base = manifold.to_frame(footpoints, manifold.log(footpoints, center, check=False))
        return exp_frame_noise(manifold, footpoints, base + coords)  # range: decided publicly (release_reach)

    def _sample(self, center, calibration, size, rng):
        sigma = calibration.noise["sigma"]
        footpoint = calibration.options["footpoint"]
        if not isinstance(footpoint, str):
            return self._wrap(footpoint, center, self._noise_coords(sigma, size, rng))
        p0 = calibration.options["first_stage_footpoint"]
        sigma1 = calibration.noise["sigma_first_stage"]
        chunks = []
        for start in range(0, size, _CHUNK):  # chunks bound the memory of the batched frames
            n = min(_CHUNK, size - start)
            first = self._wrap(p0, center, self._noise_coords(sigma1, n, rng))
            second = self._wrap(first, center, self._noise_coords(sigma, n, rng))
            chunks.append(second)
        return np.concatenate(chunks, axis=0)

    def _noise_quantile(self, sigma, tail):
        """Tail quantile of the noise norm :math:`|z|` (implemented per law)."""
        raise NotImplementedError

    def release_reach(self, calibration, tail=TAIL_PROBABILITY):
        r"""Public ``(a, b)`` with :math:`\mathrm{dist}(o, Y) \le a\,\mathrm{dist}(o, \eta) + b` w.p. :math:`\ge 1 - 10^{-15}`.

        :math:`Y = \mathrm{Exp}_p(\mathrm{Log}_p\eta + z)`: :math:`\mathrm{dist}(o, Y) \le \mathrm{dist}(o, p) + |\mathrm{Log}_p\eta| + |z|
        \le 2\,\mathrm{dist}(o, p) + \mathrm{dist}(o, \eta) + |z|`, so ``(1, 2 dist(o, p0) + q)``; two-stage (first
        footpoint :math:`f` public, the second the first-stage release): ``(3, 4 dist(o, f) + 2 q_1 + q_2)`` (tails 1e-15/2).
        """
        manifold = self.manifold
        origin = manifold.default_center()
        sigma = calibration.noise["sigma"]
        footpoint = calibration.options["footpoint"]
        if not isinstance(footpoint, str):
            offset = float(manifold.dist(origin, footpoint, check=False))
            return (1.0, 2.0 * offset + self._noise_quantile(sigma, tail))
        offset = float(manifold.dist(origin, calibration.options["first_stage_footpoint"], check=False))
        q1 = self._noise_quantile(calibration.noise["sigma_first_stage"], 0.5 * tail)
        q2 = self._noise_quantile(sigma, 0.5 * tail)
        return (3.0, 4.0 * offset + 2.0 * q1 + q2)

    def best_case_reach(self, calibration, tail=REFUSAL_TAIL):
        r"""Public reach from the most favourable summary, the footpoint :math:`\eta = p`:
        :math:`\mathrm{dist}(o, Y) \le \mathrm{dist}(o, p) + |z|`; two-stage (:math:`\eta = f`, the first release
        :math:`Y_1` within :math:`q_1` of :math:`f`): :math:`\mathrm{dist}(o, f) + 2q_1 + q_2`. (The bound of
        :meth:`release_reach` from the origin counts :math:`\mathrm{dist}(o, p)` twice: right for a summary at
        :math:`o`, too pessimistic as a refusal rule when the public footpoint is far from the origin.)"""
        manifold = self.manifold
        origin = manifold.default_center()
        footpoint = calibration.options["footpoint"]
        if not isinstance(footpoint, str):
            offset = float(manifold.dist(origin, footpoint, check=False))
            return offset + self._noise_quantile(calibration.noise["sigma"], tail)
        offset = float(manifold.dist(origin, calibration.options["first_stage_footpoint"], check=False))
        q1 = self._noise_quantile(calibration.noise["sigma_first_stage"], 0.5 * tail)
        return offset + 2.0 * q1 + self._noise_quantile(calibration.noise["sigma"], 0.5 * tail)

    # ---------------------------------------------------------------- density
    def _log_noise_density(self, coords, sigma):
        raise NotImplementedError

    def log_density(self, center, points, calibration):
        """Normalised log density of the release w.r.t. the Riemannian volume (fixed footpoint).

        .. math::
            \\log g(q) = \\log h\\big(\\mathrm{Log}_{p_0} q - \\mathrm{Log}_{p_0}\\eta\\big)
            - \\log J_{p_0}(\\mathrm{Log}_{p_0} q),

        :math:`h` the tangent noise density (in frame coordinates) and
        :math:`J_{p_0}(u) = |\\det d(\\mathrm{Exp}_{p_0})_u|`. The two-stage release is a
        mixture over the stage-1 footpoint without closed form (``NotImplementedError``).
        """
        center = self.manifold.validate_points(center, "center", single=True)
        points = self.manifold.validate_points(points, "points")
        self._check_calibration(calibration)
        p0 = calibration.options["footpoint"]
        if isinstance(p0, str):
            raise NotImplementedError(
                f"{self.name} with footpoint='two_stage': the release law is a mixture over the private "
                "stage-1 footpoint and has no closed-form density"
            )
        manifold = self.manifold
        tangent = manifold.log(p0, points, check=False)
        diff = manifold.to_frame(p0, tangent) - manifold.to_frame(p0, manifold.log(p0, center, check=False))
        return (self._log_noise_density(diff, calibration.noise["sigma"])
                - manifold.log_volume_jacobian(p0, tangent))

    # ----------------------------------------------------------------- utility
    def _mean_noise_norm(self, sigma):
        raise NotImplementedError

    def utility_bound(self, calibration, center=None):
        """Bound on :math:`\\mathbb{E}\\,\\mathrm{dist}(\\tilde\\eta, \\eta)` (docs/specification.md §5.4).

        .. math::
            \\mathbb{E}\\,\\mathrm{dist}(\\tilde\\eta, \\eta) \\le \\mathbb{E}|z| + 2\\,\\mathrm{dist}(p_0, \\eta),

        from :math:`\\mathrm{dist}(\\tilde\\eta, \\eta) \\le \\mathrm{dist}(\\tilde\\eta, p_0) + \\mathrm{dist}(p_0, \\eta)
        = |\\mathrm{Log}_{p_0}\\eta + z| + \\mathrm{dist}(p_0, \\eta)`; :math:`\\mathbb{E}|z| = \\sigma d` (EWL),
        :math:`\\sigma\\sqrt2\\,\\Gamma((d+1)/2)/\\Gamma(d/2)` (EWG). Two-stage footpoint (derived here,
        not in the paper): :math:`\\mathbb{E}|z_2| + 2\\,\\mathbb{E}|z_1| + 4\\,\\mathrm{dist}(p_0, \\eta)`.

        Parameters
        ----------
        calibration : Calibration
        center : array_like or None
            The summary :math:`\\eta`; ``None`` returns ``None`` (the bound depends on it).

        Returns
        -------
        float or None
        """
        self._check_calibration(calibration)
        if center is None:
            return None
        center = self.manifold.validate_points(center, "center", single=True)
        options = calibration.options
        if isinstance(options["footpoint"], str):
            gap = float(self.manifold.dist(options["first_stage_footpoint"], center, check=False))
            return (self._mean_noise_norm(calibration.noise["sigma"])
                    + 2.0 * self._mean_noise_norm(calibration.noise["sigma_first_stage"]) + 4.0 * gap)
        gap = float(self.manifold.dist(options["footpoint"], center, check=False))
        return self._mean_noise_norm(calibration.noise["sigma"]) + 2.0 * gap


@register_mechanism
class ExponentialWrappedLaplace(_ExponentialWrapped):
    """Exponential-wrapped Laplace (EWL): :math:`\\varepsilon`-DP on Hadamard spaces.

    Tangent noise density :math:`h(z) \\propto \\exp(-|z|/\\sigma)` in :math:`T_{p_0}M`
    (the Euclidean K-norm Laplace of the L2 norm): radius :math:`\\mathrm{Gamma}(d, \\sigma)`,
    direction uniform on the unit sphere. :math:`\\sigma = \\Delta/\\varepsilon`; other targets
    through :func:`~geodp_core.privacy.pure_dp_budget`.

    Notes
    -----
    Options of :meth:`calibrate`:

    footpoint : array_like, None or "two_stage"
        PUBLIC footpoint :math:`p_0` (e.g. the public ball centre :math:`m_0`); default
        ``manifold.default_center()`` (identity / origin). ``"two_stage"``: a private coarse mean
        released first (see ``footpoint_budget_fraction``, ``first_stage_footpoint``).
    footpoint_budget_fraction : float in (0, 1)
        Two-stage only: share of the budget for stage 1 (default 0.2).
    first_stage_footpoint : array_like or None
        Two-stage only: PUBLIC footpoint of stage 1 (default ``manifold.default_center()``).
    """

    spec = MechanismSpec(
        name="ew_laplace",
        title="Exponential-wrapped Laplace",
        color="#ff7f0e",
        notions=("pure_dp", "approx_dp", "gdp", "rdp", "zcdp"),
        card=Card(
            title="Exponential-wrapped Laplace (EWL)",
            notion="ε-DP",
            idea=(
                "Move the problem to ONE fixed tangent space: take Log at a PUBLIC footpoint p₀, add Euclidean K-norm "
                "Laplace noise there, and wrap back with Exp. On a Hadamard space Log at p₀ is 1-Lipschitz, so the "
                "tangent summary has sensitivity at most Δ and the release is post-processing."
            ),
            formula=(
                r"\begin{gathered}\tilde\eta = \mathrm{Exp}_{p_0}\big(\mathrm{Log}_{p_0}\eta + z\big),\quad "
                r"p(z) \propto e^{-|z|/\sigma},\quad \sigma = \Delta/\varepsilon \\ "
                r"\mathbb{E}\,\mathrm{dist} \le \sigma d + 2\,\mathrm{dist}(p_0, \eta)\end{gathered}"
            ),
            guarantee=("ε-DP, exact. Optional two-stage footpoint: spend ε₀ on a coarse private mean used as p₀ and "
                       "compose."),
            assumptions=(
                "Hadamard space only (complete, simply connected, curvature ≤ 0): Hᵈ, SPD (all three metrics), ℝᵈ. "
                "Unavailable on the sphere (Exp is not injective). The footpoint must never be computed from the data."
            ),
            sampler="Exact: radius Gamma(d, σ), uniform direction in the tangent space at p₀, then Exp at p₀. No MCMC.",
            source="Exponential-wrapped mechanisms: differential privacy on Hadamard manifolds made practical (ICLR 2026).",
        ),
        try_it=dict(manifold="hyperbolic", data="uniform_ball", spread=1.0, radius=1.0, notion="pure_dp",
                    mechanisms=("ew_laplace", "riemannian_laplace")),
        public_options=public_footpoint,
        options={"footpoint": "a PUBLIC point: the public ball centre m₀ (never computed from the data)"},
        audit_variants=("data_footpoint",),
        audit_controls=("data_footpoint",),
    )
    native_notion = "pure_dp"
    _law = "laplace"

    def _stage(self, target, sensitivity):
        budget = pure_dp_budget(target)
        sigma = sensitivity / budget.value
        for _ in range(_MAX_NUDGES):  # safe side: Δ/σ ≤ ε as evaluated
            if sensitivity / sigma <= budget.value:
                break
            sigma *= 1.0 + _NUDGE
        note = (f"EWL is ε-DP at σ = Δ/ε (Laplace K-norm mechanism in T_p0 M); ε = {budget.value:.6g}: "
                f"{budget.note}")
        return float(sigma), budget.achieved, PureDP(budget.value), note

    def _noise_coords(self, sigma, size, rng):
        radius = rng.gamma(shape=self.manifold.dim, scale=sigma, size=size)
        direction = rng.standard_normal((size, self.manifold.dim))
        direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
        return radius[:, None] * direction

    def _noise_quantile(self, sigma, tail):
        return gamma_tail_quantile(self.manifold.dim, sigma, tail)

    def _log_noise_density(self, coords, sigma):
        d = self.manifold.dim
        log_norm = d * np.log(sigma) + special.gammaln(d) + log_sphere_area(d)  # sigma^d Gamma(d) |S^{d-1}|
        return -np.linalg.norm(coords, axis=-1) / sigma - log_norm

    def _mean_noise_norm(self, sigma):
        return sigma * self.manifold.dim


@register_mechanism
class ExponentialWrappedGaussian(_ExponentialWrapped):
    """Exponential-wrapped Gaussian (EWG): :math:`(\\Delta/\\sigma)`-GDP on Hadamard spaces.

    Tangent noise :math:`z \\sim N(0, \\sigma^2 I_d)` in an orthonormal frame of :math:`T_{p_0}M`.
    (ε, δ): analytic calibration (Balle & Wang 2018); GDP: :math:`\\sigma = \\Delta/\\mu`;
    RDP: :math:`\\sigma = \\Delta\\sqrt{\\alpha/(2\\varepsilon)}`; zCDP: :math:`\\sigma = \\Delta/\\sqrt{2\\rho}`;
    pure DP unavailable. On SPD log-Euclidean with :math:`p_0 = I` it is the tangent Gaussian
    mechanism of Utpala et al.

    Calibration options: as :class:`ExponentialWrappedLaplace`.
    """

    spec = MechanismSpec(
        name="ew_gaussian",
        title="Exponential-wrapped Gaussian",
        color="#2ca02c",
        notions=("approx_dp", "gdp", "rdp", "zcdp"),
        card=Card(
            title="Exponential-wrapped Gaussian (EWG)",
            notion="μ-GDP / (ε, δ) / RDP / zCDP",
            idea="As EWL with Gaussian noise in the tangent space at p₀: the Euclidean Gaussian mechanism, wrapped by Exp at p₀.",
            formula=(
                r"\begin{gathered}\tilde\eta = \mathrm{Exp}_{p_0}\big(\mathrm{Log}_{p_0}\eta + z\big),\quad "
                r"z \sim N(0, \sigma^2 I_d) \\ "
                r"\mu = \Delta/\sigma,\quad \varepsilon_{\mathrm{RDP}}(\alpha) = \frac{\alpha\Delta^2}{2\sigma^2}\end{gathered}"
            ),
            guarantee=(
                "Exactly (Δ/σ)-GDP, hence the analytic (ε, δ) calibration, (α, αΔ²/(2σ²))-RDP and Δ²/(2σ²)-zCDP. "
                "Utility: E dist ≤ σ√2 Γ((d+1)/2)/Γ(d/2) + 2 dist(p₀, η)."
            ),
            assumptions="Hadamard space only; PUBLIC footpoint (default: the public ball centre).",
            sampler="Exact: Gaussian coordinates in an orthonormal frame of the tangent space at p₀, then Exp at p₀.",
            source="Exponential-wrapped mechanisms: differential privacy on Hadamard manifolds made practical (ICLR 2026).",
        ),
        try_it=dict(manifold="hyperbolic", data="uniform_ball", spread=1.0, radius=1.0, notion="gdp",
                    mechanisms=("ew_gaussian", "riemannian_gaussian")),
        public_options=public_footpoint,
        options={"footpoint": "a PUBLIC point: the public ball centre m₀ (never computed from the data)"},
        audit_variants=("data_footpoint",),
        audit_controls=("data_footpoint",),
    )
    native_notion = "gdp"
    _law = "gaussian"

    def _stage(self, target, sensitivity):
        sigma, achieved, note = gaussian_sigma_for_target(target, sensitivity, "analytic")
        return sigma, achieved, GDP(sensitivity / sigma), note

    def _noise_coords(self, sigma, size, rng):
        return gaussian_frame_noise(self.manifold.dim, sigma, size, rng)

    def _noise_quantile(self, sigma, tail):
        return chi_tail_quantile(self.manifold.dim, sigma, tail)

    def _log_noise_density(self, coords, sigma):
        return gaussian_frame_log_density(np.sum(coords * coords, axis=-1), sigma, self.manifold.dim)

    def _mean_noise_norm(self, sigma):
        return sigma * chi_mean(self.manifold.dim)
