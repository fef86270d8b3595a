"""Tangent Gaussian mechanism (Utpala et al.; docs/specification.md §5.3).

On SPD(m) with the log-Euclidean metric the release is

.. math::
    \\tilde\\eta = \\exp\\big(\\log \\eta + Z\\big),\\qquad
    Z = \\sum_k z_k E_k,\\quad z \\sim N(0, \\sigma^2 I_d),

with :math:`(E_k)` a Frobenius-orthonormal basis of the symmetric matrices (the
isometric vectorisation: off-diagonal entries weighted by :math:`\\sqrt2`). The
matrix logarithm is an isometry from (SPD, log-Euclidean) onto the symmetric
matrices, so this is exactly the Gaussian mechanism with L2 sensitivity
:math:`\\Delta` and the guarantee is exact. The same holds on every *flat*
Hadamard space of the project (:math:`\\mathbb{R}^d`, SPD log-Cholesky), where
:math:`\\mathrm{Exp}_\\eta` of frame noise is Gaussian noise in a global isometric chart.

On the other manifolds the conformal paper's baseline
:math:`\\mathrm{Exp}_\\eta(N(0, \\sigma^2 I))` in the tangent frame at the data-dependent
mean is offered for comparison with the same :math:`\\sigma`, labelled
"no formal guarantee". See ``docs/derivations/tangent_gaussian.md``.
"""

import math

import numpy as np
from scipy import special

from geodp_core._validation import check_option
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.mechanisms.base import (
    LABEL_EXACT,
    LABEL_NO_GUARANTEE,
    TAIL_PROBABILITY,
    Mechanism,
    chi_tail_quantile,
)
from geodp_core.mechanisms.registry import Card, MechanismSpec, register_mechanism
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    analytic_gaussian_sigma,
    classical_gaussian_sigma,
    gdp_delta,
    implies,
)

__all__ = ["TangentGaussian", "gaussian_sigma_for_target", "chi_mean", "is_flat_hadamard", "exp_frame_noise",
           "gaussian_frame_noise", "gaussian_frame_log_density"]

CALIBRATION_METHODS = ("analytic", "classical")
_NUDGE = 1e-12
_MAX_NUDGES = 10_000


def chi_mean(dim):
    """Mean of the chi distribution with ``dim`` degrees of freedom.

    .. math::
        \\mathbb{E}\\,|z| = \\sqrt2\\,\\frac{\\Gamma((d+1)/2)}{\\Gamma(d/2)},\\qquad z \\sim N(0, I_d).
    """
    return float(np.sqrt(2.0) * np.exp(special.gammaln((dim + 1) / 2.0) - special.gammaln(dim / 2.0)))


def gaussian_frame_noise(dim, sigma, size, rng):
    r"""``(size, dim)`` frame coordinates of :math:`z \sim N(0, \sigma^2 I_d)` (tangent Gaussian noise)."""
    return sigma * rng.standard_normal((size, dim))


def gaussian_frame_log_density(squared_norm, sigma, dim):
    r"""Normalised log density of :math:`N(0, \sigma^2 I_d)` at a point of squared norm ``squared_norm``:
    :math:`-\tfrac d2\log(2\pi\sigma^2) - |z|^2/(2\sigma^2)`."""
    return -0.5 * dim * np.log(2.0 * np.pi * sigma**2) - squared_norm / (2.0 * sigma**2)


def exp_frame_noise(manifold, footpoints, coords):
    r""":math:`\mathrm{Exp}_p\big(\sum_k c_k e_k(p)\big)` for frame coordinates ``coords`` ``(size, d)`` at
    ``footpoints`` (one point, or one per row), unvalidated: the one tangent-noise path of the tangent and
    exponential-wrapped mechanisms.

    Where the space has a global isometric chart :math:`\psi` (:math:`\mathbb{R}^d`, the log-Euclidean and
    log-Cholesky SPD metrics) this is :math:`\psi^{-1}(\psi(p) + \sum_k c_k b_k)` with the chart's orthonormal
    basis :math:`b_k` (e.g. :math:`\exp(\log p + Z)`), equal to Exp of the frame vector (the chart is an
    isometry) without the differential of the chart; elsewhere :meth:`~geodp_core.geometry.base.Manifold.exp` of
    :meth:`~geodp_core.geometry.base.Manifold.from_frame`. Overflow is not checked (the range of the noise is
    decided publicly at calibration).
    """
    chart = manifold.isometric_chart()
    with np.errstate(over="ignore", invalid="ignore"):
        if chart is None:
            return manifold.exp(footpoints, manifold.from_frame(footpoints, coords), check=False)
        to_chart, from_chart, basis = chart
        return from_chart(to_chart(footpoints) + np.tensordot(coords, basis, axes=(-1, 0)))


def is_flat_hadamard(manifold):
    """Whether ``manifold`` is flat and Hadamard (an isometric global chart onto :math:`\\mathbb{R}^d`)."""
    return bool(manifold.is_hadamard and tuple(manifold.curvature_bounds) == (0.0, 0.0))


def _gaussian_guarantee(target, mu):
    """Guarantee, in the notion of ``target``, of a Gaussian mechanism with ratio ``mu = Delta/sigma``."""
    if isinstance(target, GDP):
        return GDP(mu)
    if isinstance(target, RDP):
        return RDP(target.alpha, target.alpha * mu**2 / 2.0)
    if isinstance(target, ZCDP):
        return ZCDP(mu**2 / 2.0)
    delta = float(gdp_delta(mu, target.eps))
    # Underflow: the exact delta is below the smallest float, hence below target.delta.
    return ApproxDP(target.eps, delta if delta > 0.0 else target.delta)


def gaussian_sigma_for_target(target, sensitivity, method="analytic"):
    """Noise scale of the Gaussian mechanism :math:`N(f(D), \\sigma^2 I)` meeting ``target``.

    For L2 sensitivity :math:`\\Delta` the Gaussian mechanism is exactly
    :math:`\\mu`-GDP with :math:`\\mu = \\Delta/\\sigma` (Dong, Roth & Su 2022), hence

    ========================  =============================================================
    target                    :math:`\\sigma`
    ========================  =============================================================
    ApproxDP(eps, delta)      analytic (Balle & Wang 2018): smallest :math:`\\sigma` with
                              :math:`\\Phi(\\tfrac{\\Delta}{2\\sigma}-\\tfrac{\\varepsilon\\sigma}{\\Delta})
                              - e^{\\varepsilon}\\Phi(-\\tfrac{\\Delta}{2\\sigma}-\\tfrac{\\varepsilon\\sigma}{\\Delta})
                              \\le\\delta`; or classical :math:`\\Delta\\sqrt{2\\ln(1.25/\\delta)}/\\varepsilon`
                              (``method="classical"``, only for :math:`\\varepsilon < 1`)
    GDP(mu)                   :math:`\\Delta/\\mu`
    RDP(alpha, eps)           :math:`\\Delta\\sqrt{\\alpha/(2\\varepsilon)}`
    ZCDP(rho)                 :math:`\\Delta/\\sqrt{2\\rho}`
    PureDP(eps)               unavailable (unbounded privacy loss)
    ========================  =============================================================

    The returned :math:`\\sigma` is verified on the safe side: it is increased by
    relative steps of :math:`10^{-12}` until the achieved guarantee (computed
    from :math:`\\mu = \\Delta/\\sigma` as evaluated) implies the target.

    Parameters
    ----------
    target : Guarantee
    sensitivity : float
        L2 sensitivity :math:`\\Delta > 0` (already validated).
    method : {"analytic", "classical"}
        Only used for an ``ApproxDP`` target.

    Returns
    -------
    sigma : float
    achieved : Guarantee
        In the notion of ``target``; implies it.
    note : str
        The theorem used.

    Raises
    ------
    UnavailableError
        For a pure-DP target, or ``method="classical"`` with :math:`\\varepsilon \\notin (0, 1)`.
    """
    method = check_option(method, "calibration", CALIBRATION_METHODS)
    delta_s = float(sensitivity)
    if isinstance(target, PureDP):
        raise UnavailableError(
            f"Gaussian noise cannot meet the pure target {target.describe()}: its privacy loss is "
            "unbounded, so no σ gives ε-DP with δ = 0; choose an (ε, δ), GDP, RDP or zCDP target",
            param="target",
        )
    if isinstance(target, ApproxDP):
        if method == "classical":
            try:
                sigma = classical_gaussian_sigma(target.eps, target.delta, delta_s)
            except InvalidParameterError as exc:
                raise UnavailableError(
                    f"calibration='classical' needs a target ε in (0, 1) (Dwork & Roth 2014, Thm. A.1: "
                    f"the classical σ is not DP in general for larger ε); got ε={target.eps:g}; "
                    "use calibration='analytic'",
                    param="target",
                ) from exc
            note = ("classical Gaussian calibration σ = Δ sqrt(2 ln(1.25/δ))/ε (Dwork & Roth 2014, Thm. A.1; "
                    "the tangent-Gaussian paper's choice, valid for ε < 1); the achieved δ is the exact "
                    "privacy profile δ_μ(ε) of μ = Δ/σ (Balle & Wang 2018), at most the target δ")
        else:
            sigma = analytic_gaussian_sigma(target.eps, target.delta, delta_s)
            note = ("analytic Gaussian calibration (Balle & Wang 2018, Thm. 8): smallest σ with "
                    "Φ(Δ/(2σ) - εσ/Δ) - e^ε Φ(-Δ/(2σ) - εσ/Δ) ≤ δ")
    elif isinstance(target, GDP):
        sigma = delta_s / target.mu
        note = "the Gaussian mechanism is exactly (Δ/σ)-GDP (Dong, Roth & Su 2022); σ = Δ/μ"
    elif isinstance(target, RDP):
        sigma = delta_s * math.sqrt(target.alpha / (2.0 * target.eps))
        note = ("the Gaussian mechanism is (α, αΔ²/(2σ²))-RDP (Mironov 2017); "
                "σ = Δ sqrt(α/(2ε))")
    elif isinstance(target, ZCDP):
        sigma = delta_s / math.sqrt(2.0 * target.rho)
        note = "the Gaussian mechanism is (Δ²/(2σ²))-zCDP (Bun & Steinke 2016, Prop. 1.6); σ = Δ/sqrt(2ρ)"
    else:  # pragma: no cover - calibrate() validated the type
        raise InvalidParameterError(f"target must be a guarantee; got {type(target).__name__}", param="target")
    for _ in range(_MAX_NUDGES):
        achieved = _gaussian_guarantee(target, delta_s / sigma)
        if implies(achieved, target):
            return float(sigma), achieved, note
        sigma *= 1.0 + _NUDGE
    raise AssertionError("Gaussian calibration could not be verified on the safe side")  # pragma: no cover


@register_mechanism
class TangentGaussian(Mechanism):
    """Tangent Gaussian mechanism (Utpala et al.), exact on flat Hadamard spaces.

    Release :math:`\\mathrm{Exp}_\\eta(v)`, :math:`v = \\sum_k z_k e_k(\\eta)`,
    :math:`z \\sim N(0, \\sigma^2 I_d)` in an orthonormal frame of :math:`T_\\eta M`.

    * SPD log-Euclidean (the paper's setting): :math:`\\exp(\\log\\eta + Z)`, the Gaussian
      mechanism in the isometric chart :math:`\\log`; exact guarantee. Likewise on
      :math:`\\mathbb{R}^d` and SPD log-Cholesky (flat: a global isometric chart).
    * Elsewhere (sphere, hyperbolic, SPD affine-invariant): the conformal paper's
      baseline, with the same :math:`\\sigma`, labelled ``"no formal guarantee"`` — there is
      no proof: the tangent space moves with the data, the frame at :math:`\\eta` and at
      :math:`\\eta'` are not comparable, the volume distortion of :math:`\\mathrm{Exp}` differs
      between the two, and on the sphere :math:`\\mathrm{Exp}` is not injective.

    Notes
    -----
    Options of :meth:`calibrate`:

    calibration : {"analytic", "classical"}
        For an ``ApproxDP`` target: analytic Gaussian calibration (default, exact and smaller)
        or the paper's classical :math:`\\Delta\\sqrt{2\\ln(1.25/\\delta)}/\\varepsilon` (refused for
        :math:`\\varepsilon \\ge 1`). Ignored (with a note) for the other targets.
    """

    spec = MechanismSpec(
        name="tangent_gaussian",
        title="Tangent Gaussian",
        color="#8c564b",
        notions=("approx_dp", "gdp", "rdp", "zcdp"),
        card=Card(
            title="Tangent Gaussian (TG)",
            notion="(ε, δ)-DP / μ-GDP",
            idea=(
                "On SPD matrices with the log-Euclidean metric the matrix logarithm is an isometry onto a Euclidean "
                "space: add ordinary Gaussian noise to log η (isometric vectorisation, off-diagonals × √2) and map "
                "back with exp."
            ),
            formula=(
                r"\begin{gathered}\tilde\eta = \exp\big(\log \eta + Z\big),\quad Z \sim N(0, \sigma^2 I_d) \\ "
                r"\sigma = \Delta/\mu\ \ \text{or the analytic } (\varepsilon,\delta) \text{ calibration}\end{gathered}"
            ),
            guarantee=(
                "Exact on flat spaces (SPD log-Euclidean, log-Cholesky, ℝᵈ): it is the Euclidean Gaussian mechanism. "
                "(ε, δ) by the analytic calibration of Balle & Wang (2018); the paper's classical "
                "Δ√(2 ln(1.25/δ))/ε only as its baseline (valid for ε < 1). On the sphere, Hᵈ and affine SPD it is the "
                "conformal paper's baseline at the data-dependent mean: 'no formal guarantee'."
            ),
            assumptions="A flat metric for the guarantee; the sensitivity in the Riemannian distance (= L2 in the chart).",
            sampler="Exact: Gaussian coordinates in an orthonormal frame, pushed by Exp_η.",
            source=("Utpala, Vepakomma & Miolane (2023), Differentially private Fréchet mean on the manifold of SPD "
                    "matrices with log-Euclidean metric, TMLR."),
        ),
        try_it=dict(manifold="spd", dim=2, metric="log_euclidean", data="wishart", radius=1.0,
                    notion="approx_dp", eps=0.5, mechanisms=("tangent_gaussian", "riemannian_gaussian")),
        audit_variants=("tangent_at_mean",),
    )
    native_notion = "gdp"
    source = ("Utpala, Vepakomma & Miolane, Differentially private Fréchet mean on the manifold of "
              "symmetric positive definite (SPD) matrices with log-Euclidean metric (arXiv:2208.04245); "
              "the conformal paper's tangent-Gaussian baseline")

    def _calibrate(self, target, sensitivity, calibration="analytic", **options):
        if options:
            raise InvalidParameterError(
                f"unknown option(s) {', '.join(sorted(options))} for {self.name}; valid option: calibration",
                param=sorted(options)[0],
            )
        calibration = check_option(calibration, "calibration", CALIBRATION_METHODS)
        sigma, achieved, note = gaussian_sigma_for_target(target, sensitivity, calibration)
        notes = [note]
        if calibration == "classical" and not isinstance(target, ApproxDP):
            notes.append("calibration='classical' concerns (ε, δ) targets only; σ uses the exact formula "
                         "for this target")
        if is_flat_hadamard(self.manifold):
            label = LABEL_EXACT
            notes.append(
                f"{self.manifold.label} is flat: Exp_η of N(0, σ² I) in an orthonormal frame is the Gaussian "
                "mechanism in a global isometric chart (log-Euclidean: exp(log η + Z), Z in the isometric "
                "vectorisation, off-diagonals × sqrt 2), whose L2 sensitivity equals the Riemannian Δ"
            )
        else:
            label = LABEL_NO_GUARANTEE
            reason = (f"Exp is not injective on the compact {self.manifold.symbol} (noise wraps around) and "
                      if self.manifold.is_compact else "")
            notes.append(
                f"NO FORMAL GUARANTEE on {self.manifold.label}: this is the conformal paper's baseline "
                "Exp_η(N(0, σ² I)) in the tangent space at the data-dependent mean, with σ calibrated as if "
                f"Euclidean; the achieved value is nominal. No proof exists: {reason}the tangent space moves "
                "with the data, so the noise laws for η and η' live in different tangent spaces with "
                "different volume distortions of Exp"
            )
        return self._make_calibration(
            target, achieved, GDP(sensitivity / sigma), sensitivity,
            noise={"sigma": sigma}, label=label, notes=notes, options={"calibration": calibration},
        )

    def _sample(self, center, calibration, size, rng):
        coords = gaussian_frame_noise(self.manifold.dim, calibration.noise["sigma"], size, rng)
        return exp_frame_noise(self.manifold, center, coords)

    def release_reach(self, calibration, tail=TAIL_PROBABILITY):
        r"""``(1, q)``, ``q`` the 1e-15 tail quantile of :math:`\sigma\chi_d` (the flat chart is an isometry)."""
        return (1.0, chi_tail_quantile(self.manifold.dim, calibration.noise["sigma"], tail))

    def log_density(self, center, points, calibration):
        """Normalised log density of the release w.r.t. the Riemannian volume (Hadamard spaces).

        .. math::
            \\log g(y) = -\\frac{d}{2}\\log(2\\pi\\sigma^2) - \\frac{\\mathrm{dist}(\\eta, y)^2}{2\\sigma^2}
            - \\log J_\\eta(\\mathrm{Log}_\\eta y),

        :math:`J_\\eta` the Jacobian of :math:`\\mathrm{Exp}_\\eta` (identically 1 on flat spaces).
        Not available on the sphere (``Exp`` is not injective: the law is a sum over preimages).
        """
        if not self.manifold.is_hadamard:
            raise NotImplementedError(
                f"{self.name} on {self.manifold.label}: Exp is not injective, the release density is an "
                "infinite sum over preimages (not implemented)"
            )
        center = self.manifold.validate_points(center, "center", single=True)
        points = self.manifold.validate_points(points, "points")
        self._check_calibration(calibration)
        sigma = calibration.noise["sigma"]
        tangent = self.manifold.log(center, points, check=False)
        sq = self.manifold.norm(center, tangent) ** 2
        return (gaussian_frame_log_density(sq, sigma, self.manifold.dim)
                - self.manifold.log_volume_jacobian(center, tangent))

    def utility_bound(self, calibration, center=None):
        """:math:`\\mathbb{E}\\,\\mathrm{dist}(\\tilde\\eta, \\eta) \\le \\sigma\\sqrt2\\,\\Gamma((d+1)/2)/\\Gamma(d/2)`.

        :math:`\\mathrm{dist}(\\mathrm{Exp}_\\eta v, \\eta) \\le |v|` on every manifold, with equality on
        Hadamard spaces (there the bound is the exact expected distance); :math:`|v|/\\sigma`
        is chi-distributed with :math:`d` degrees of freedom. ``center`` is not needed.
        """
        self._check_calibration(calibration)
        return calibration.noise["sigma"] * chi_mean(self.manifold.dim)
