r"""Riemannian Gaussian mechanism (Jiang et al., NeurIPS 2023; docs/specification.md §5.2) — :math:`\mu`-GDP.

Release :math:`Y` with density with respect to the Riemannian volume

.. math::
    p_\eta(y) = \frac{1}{Z(\sigma)} \exp\Big(-\frac{\mathrm{dist}(\eta, y)^2}{2\sigma^2}\Big).

Calibration (target -> :math:`\mu` by :func:`geodp_core.privacy.gdp_budget`, then :math:`\mu` -> :math:`\sigma`),
chosen by what the manifold declares (its radial volume, diameter, homogeneity), never by its name:

* a space whose radial volume is that of a simply connected space of constant curvature
  (:attr:`~geodp_core.geometry.radial_volume.RadialVolume.model_curvature`: :math:`S^d, H^d, \mathbb{R}^d`, a
  sphere of any curvature :math:`\kappa`): exact GDP accounting,
  :func:`~geodp_core.mechanisms.gaussian_gdp.riemannian_gaussian_calibration`
  (deterministic quadrature of the privacy profile; :math:`\sigma = \Delta/\mu` on :math:`\mathbb{R}^d`;
  :math:`\mu_\kappa(\sigma, \Delta) = \mu_1(\sqrt\kappa\sigma, \sqrt\kappa\Delta)`);
* SPD(m) log-Euclidean / log-Cholesky: the chart is a global isometry onto a Euclidean
  space, so this is the Gaussian mechanism there: :math:`\sigma = \Delta/\mu` exactly;
* Kendall shape space :math:`\Sigma^k_2 = \mathbb{C}P^{k-2}` (two-point homogeneous, curvature in [1, 4]):
  exact sampler and exact GDP accounting. Triangles (:math:`k = 3`, :math:`\Sigma^3_2 \cong S^2(1/2)`):
  :math:`\mu(\sigma, \Delta) = \mu_{S^2}(2\sigma, 2\Delta)` by the sphere's quadrature; :math:`k \ge 4`:
  :func:`~geodp_core.mechanisms.kendall_gdp.kendall_gaussian_calibration` (quadrature of the privacy profile
  with :math:`\cos d(\eta', y) = |\cos r\cos\Delta + \sin r\sin\Delta\,\langle w, u\rangle|`; validated for
  every :math:`k \le 100` the app offers, ``KENDALL_EXACT_MAX_K``). Pure-DP targets (and :math:`k > 100`): the
  bounded-diameter bound (diameter :math:`D = \pi/2`): with :math:`d_1 = d(\eta, y)`,
  :math:`d_2 = d(\eta', y) \le \min(d_1 + \Delta, D)`, :math:`\sup (d_2^2 - d_1^2) = \Delta(2D - \Delta)`
  (attained), so the mechanism is :math:`\varepsilon`-DP with :math:`\varepsilon = \Delta(\pi - \Delta)/(2\sigma^2)`;
* SPD(m) affine-invariant: exact sampler, but no exact GDP accounting is known for this
  non-constant-curvature space (the privacy loss depends on the direction of
  :math:`\eta' - \eta`, not only on :math:`\Delta`): calibrated with the flat heuristic
  :math:`\sigma = \Delta/\mu` and labelled "no formal guarantee";
* any other isotropic space (a radial volume the exact reductions do not cover, e.g. the rotation group
  :math:`SO(3)`): on a bounded homogeneous space the bounded-diameter :math:`\varepsilon`-DP bound above
  (valid, looser, stated in the notes) for every target; on an unbounded one the calibration is refused.

Samplers, densities and the Metropolis–Hastings option are shared with the Riemannian
Laplace mechanism (:class:`~geodp_core.mechanisms.riemannian_laplace.IsotropicDistanceMechanism`).
Derivation: ``docs/derivations/riemannian_gaussian.md``.
"""

import functools
import math

import numpy as np

from geodp_core.exceptions import UnavailableError
from geodp_core.geometry.base import unicode_powers
from geodp_core.mechanisms.base import LABEL_EXACT, LABEL_NO_GUARANTEE
from geodp_core.mechanisms.gaussian_gdp import exact_gdp_available, riemannian_gaussian_calibration
from geodp_core.mechanisms.kendall_gdp import (
    KENDALL_EXACT_MAX_K,
    complex_projective_landmarks,
    kendall_gaussian_calibration,
)
from geodp_core.mechanisms.registry import Card, MechanismSpec, register_mechanism
from geodp_core.mechanisms.riemannian_laplace import (
    IsotropicDistanceMechanism,
    diameter_capped_sensitivity,
    length_text,
    noise_geometry,
)
from geodp_core.privacy import GDP, PureDP, gdp_budget, pure_dp_budget

__all__ = ["RiemannianGaussian"]


@functools.lru_cache(maxsize=512)
def _exact_sigma(volume, mu, sensitivity):
    """Cached ``(sigma, mu achieved)``: achieved μ from the exact quadrature, in [0.99 μ, μ] (about one
    quadrature per new parameter set, :func:`riemannian_gaussian_calibration`)."""
    sigma, mu_achieved, _ = riemannian_gaussian_calibration(volume, None, mu, sensitivity)
    return sigma, mu_achieved


def _radius_text(curvature):
    """``1/2`` for κ = 4, else the radius 1/√κ to 6 digits."""
    from fractions import Fraction

    radius = 1.0 / math.sqrt(curvature)
    ratio = Fraction(radius).limit_denominator(12)
    return str(ratio) if abs(float(ratio) - radius) <= 1e-12 * radius else f"{radius:.6g}"


@register_mechanism
class RiemannianGaussian(IsotropicDistanceMechanism):
    r"""Riemannian Gaussian mechanism: density :math:`\propto \exp(-\mathrm{dist}(\eta, y)^2/(2\sigma^2))`.

    :math:`\mu`-GDP with the exact :math:`\mu(\sigma, \Delta)` of the GDP-on-manifolds paper
    (Theorem 4.1: on homogeneous spaces one neighbouring pair at distance :math:`\Delta`
    determines the privacy profile) on :math:`S^d`, :math:`H^d`, :math:`\mathbb{R}^d`, the flat
    SPD metrics and the Kendall shape spaces; the bounded-diameter :math:`\varepsilon`-DP bound on any other
    bounded homogeneous isotropic space. A pure-DP target is unavailable on the constant-curvature spaces
    (Gaussian noise has unbounded privacy loss there in general).

    Calibration options
    -------------------
    sampler : {"exact", "mh"}, default "exact"
        ``"mh"`` uses :func:`~geodp_core.mechanisms.mcmc.riemannian_metropolis_hastings`
        (label "approximate sampler"); then ``burn_in``, ``n_steps``, ``proposal_scale`` apply.
    """

    spec = MechanismSpec(
        name="riemannian_gaussian",
        title="Riemannian Gaussian",
        color="#1f77b4",
        notions=("pure_dp", "approx_dp", "gdp", "rdp", "zcdp"),
        card=Card(
            title="Riemannian Gaussian (RG)",
            notion="μ-GDP",
            idea=(
                "A Gaussian in the geodesic distance. Its privacy is measured by the whole privacy profile δ(ε); on "
                "spaces of constant curvature one pair of neighbouring means at distance Δ determines it, and μ is "
                "the smallest value whose Gaussian profile δ_μ dominates it."
            ),
            formula=(
                r"\begin{gathered}p_\eta(y) \propto \exp\!\Big(-\frac{\mathrm{dist}(\eta, y)^2}{2\sigma^2}\Big) \\ "
                r"\delta(\varepsilon) = \int_A p_{\eta_1} - e^{\varepsilon}\!\int_A p_{\eta_2} \le \delta_\mu(\varepsilon)"
                r"\ \ \forall \varepsilon \ge 0\end{gathered}"
            ),
            guarantee=(
                "μ-GDP, exact on Sᵈ, Hᵈ, ℝᵈ (μ(σ, Δ) computed by deterministic quadrature in geodesic polar "
                "coordinates — not the paper's Monte Carlo — and σ found by a monotone root search, verified on the "
                "safe side) and on the flat SPD metrics (μ = Δ/σ). (ε, δ), RDP and zCDP targets through GDP "
                "conversions; a pure ε-DP target is unavailable (unbounded privacy loss). On affine-invariant SPD "
                "no exact accounting is known: labelled 'no formal guarantee'."
            ),
            assumptions=(
                "A homogeneous space (the normaliser does not depend on η) and the public ball of the Fréchet-mean "
                "sensitivity. On Hᵈ, μ(σ) does not tend to 0 as σ grows: very small μ targets are unreachable."
            ),
            sampler="Exact: radial law ∝ exp(−r²/(2σ²)) J(r) by rejection, uniform direction, Exp_η (as RL).",
            source=("Jiang, Chang, Liu, Ding, Kong & Jiang (2023), Gaussian differential privacy on Riemannian "
                    "manifolds, NeurIPS."),
        ),
        try_it=dict(notion="gdp", mu=1.0, mechanisms=("riemannian_gaussian", "riemannian_laplace")),
    )
    native_notion = "gdp"
    source = ("Jiang, Chang, Liu, Ding, Kong & Jiang (2023), Gaussian differential privacy on Riemannian "
              "manifolds, NeurIPS")
    profile = "gaussian"

    def _calibrate(self, target, sensitivity, **options):
        options = self._parse_sampler_options(**options)
        kind, volume = noise_geometry(self.manifold)
        if kind == "radial":
            landmarks = complex_projective_landmarks(volume)
            if landmarks is not None:  # Kendall shapes: the CP^n quadrature
                if isinstance(target, PureDP):  # the GDP route refuses pure DP; the loss is bounded here
                    return self._calibrate_bounded_diameter(target, sensitivity, options)
                if exact_gdp_available(volume):  # CP^1 = S²(1/2)
                    return self._calibrate_exact_model(target, sensitivity, options, volume)
                if landmarks <= KENDALL_EXACT_MAX_K:
                    return self._calibrate_kendall(target, sensitivity, options, landmarks)
                return self._calibrate_bounded_diameter(target, sensitivity, options)
            if exact_gdp_available(volume):
                return self._calibrate_exact_model(target, sensitivity, options, volume)
            if self.manifold.is_compact and self.manifold.is_homogeneous:
                return self._calibrate_bounded_diameter(target, sensitivity, options)
            raise UnavailableError(
                f"no GDP accounting of the Riemannian Gaussian is available on {self.manifold.label}: it is not a "
                "simply connected space of constant curvature (the exact reduction's law of cosines) and it is "
                "unbounded (no bounded-diameter ε-DP bound); use the Riemannian Laplace or the exponential-wrapped "
                "Gaussian",
                param="manifold",
            )
        budget = gdp_budget(target)
        mu = budget.value
        notes = [f"target met through μ-GDP: {budget.note}"]
        label = LABEL_NO_GUARANTEE  # eigenvalue-polar sampler (SPD affine-invariant): no accounting known
        sigma = sensitivity / mu
        mu_achieved = sensitivity / sigma
        notes.insert(0, (
            f"NO formal guarantee: on {self.manifold.label} (curvature in [-1/2, 0], not constant) the privacy "
            "profile of the Riemannian Gaussian depends on the direction of η' relative to η, and no exact or "
            "upper-bounding GDP accounting is known; σ = Δ/μ is the flat (Euclidean) heuristic, which "
            "underestimates μ in negative curvature (on H^d the exact μ exceeds Δ/σ). The sampler is exact. "
            "For a proved guarantee use the log-Euclidean metric or the exponential-wrapped Gaussian"
        ))
        return self._finish_gdp(target, budget, mu_achieved, sensitivity, sigma, label, notes, options)

    def _calibrate_exact_model(self, target, sensitivity, options, volume):
        r"""Exact GDP accounting on a simply connected space of constant curvature
        (:mod:`~geodp_core.mechanisms.gaussian_gdp`; a sphere of curvature :math:`\kappa` through the unit sphere)."""
        budget = gdp_budget(target)
        mu = budget.value
        notes = [f"target met through μ-GDP: {budget.note}"]
        effective = diameter_capped_sensitivity(self.manifold, sensitivity, notes)
        sigma, mu_achieved = _exact_sigma(volume, mu, effective)
        kappa = volume.model_curvature
        projective = getattr(volume, "projective_curvature", None)
        if kappa is None and projective is not None:
            root = math.sqrt(projective)
            notes.insert(0, (
                f"exact GDP accounting on {self.manifold.label}, the real projective space S^{volume.dim}"
                f"({_radius_text(projective)})/±1 of curvature κ = {projective:g}: a release y and the neighbour η' "
                "lifted to the sphere give d(η', y) = min(d̃, π/√κ − d̃) with d̃ from the sphere's law of cosines, so "
                "{L > ε} and {L < −ε} are unions of the sphere's polar events (for η' and its antipode); "
                f"μ(σ, Δ) = {mu_achieved:.6g} by deterministic quadrature with distances scaled by √κ = {root:g} "
                "(GDP-on-manifolds paper Thm. 4.1: one pair at distance Δ determines the profile on a two-point "
                "homogeneous space), σ chosen so that 0.99 μ ≤ μ(σ, Δ) ≤ μ"
            ))
        elif kappa == 0.0 and volume.is_flat and self.manifold.metric is not None:  # a flat metric through its chart
            notes.insert(0, (
                f"the {self.manifold.metric_label} chart is an isometry onto a Euclidean space, so this is the "
                "Gaussian mechanism there: μ = Δ/σ exactly"
            ))
        elif kappa == 0.0:
            notes.insert(0, "Euclidean Gaussian mechanism: μ = Δ/σ exactly (σ = Δ/μ)")
        elif kappa > 0.0 and kappa != 1.0:
            root = math.sqrt(kappa)
            sphere = unicode_powers(f"S^{volume.dim}")
            notes.insert(0, (
                f"exact GDP accounting on {self.manifold.label} ≅ {sphere}({_radius_text(kappa)}), the sphere of "
                f"curvature κ = {kappa:g}: multiplying distances by √κ = {root:g} maps it onto the unit sphere "
                f"{sphere} with (√κ σ, √κ Δ), a bijection that preserves the privacy loss (d₂² − d₁²)/(2σ²), so "
                f"μ(σ, Δ) = μ_{sphere}(√κ σ, √κ Δ) = {mu_achieved:.6g} by the sphere's deterministic quadrature "
                "(GDP-on-manifolds paper Thm. 4.1), σ chosen so that 0.99 μ ≤ μ(σ, Δ) ≤ μ"
            ))
        else:
            notes.insert(0, (
                f"exact GDP accounting on {self.manifold.label}: μ(σ, Δ) = {mu_achieved:.6g} from the privacy "
                "profile by deterministic quadrature in geodesic polar coordinates (GDP-on-manifolds paper "
                "Thm. 4.1), σ chosen so that 0.99 μ ≤ μ(σ, Δ) ≤ μ (at most 1% of the budget unused), "
                "verified by that quadrature"
            ))
        return self._finish_gdp(target, budget, mu_achieved, sensitivity, sigma, LABEL_EXACT, notes, options)

    def _finish_gdp(self, target, budget, mu_achieved, sensitivity, sigma, label, notes, options):
        """Check the noise scale and finish a calibration achieved through μ-GDP (the target's notion when not GDP)."""
        self._check_noise_scale(sigma)
        achieved = GDP(mu_achieved) if isinstance(target, GDP) else budget.achieved
        if not isinstance(target, GDP):
            notes.append(f"achieved μ = {mu_achieved:.6g} ≤ μ = {budget.value:.6g}: the conversion to the target notion "
                         "is monotone")
        return self._finish_calibration(target, achieved, GDP(mu_achieved), sensitivity, sigma, label, notes, options)

    def _calibrate_bounded_diameter(self, target, sensitivity, options):
        r"""ε-DP calibration on a homogeneous space of finite diameter :math:`D` (Kendall: :math:`\pi/2`).

        The log-density ratio is :math:`(d_2^2 - d_1^2)/(2\sigma^2)` with :math:`d_1 = d(\eta, y)`,
        :math:`d_2 = d(\eta', y) \le \min(d_1 + \Delta, D)` (the normaliser does not depend on the centre), and
        :math:`\sup_{0 \le d_1 \le D} [\min(d_1 + \Delta, D)^2 - d_1^2] = \Delta(2D - \Delta)`, so the mechanism is
        :math:`\varepsilon`-DP with :math:`\varepsilon = \Delta(2D - \Delta)/(2\sigma^2)`.
        """
        budget = pure_dp_budget(target)
        eps = budget.value
        notes = [f"target met through ε-DP: {budget.note}"]
        effective = diameter_capped_sensitivity(self.manifold, sensitivity, notes)
        diameter = float(self.manifold.diameter)
        spread = effective * (2.0 * diameter - effective)  # sup of d(η', y)² − d(η, y)²
        sigma = math.sqrt(spread / (2.0 * eps))
        while spread / (2.0 * sigma**2) > eps:  # safe side in floating point
            sigma = float(np.nextafter(sigma, np.inf))
        two_d = length_text(2.0 * diameter)
        if complex_projective_landmarks(self.manifold.radial_volume) is not None:
            scope = ("used for ε-DP targets and above 20 landmarks; μ-GDP targets with at most 20 landmarks "
                     "get the exact GDP accounting of this two-point homogeneous space (GDP paper Thm. 4.1)")
        else:
            scope = (f"no exact GDP accounting is implemented on {self.manifold.label} (not a simply connected "
                     "space of constant curvature), so this ε-DP bound is its guarantee for every target notion")
        notes.insert(0, (
            f"ε-DP by the bounded-diameter argument on {self.manifold.label} (diameter D = "
            f"{length_text(diameter)}, homogeneous: the normaliser does not depend on η): d(η',y)² − d(η,y)² ≤ "
            f"Δ(2D − Δ) (attained), so ε = Δ({two_d} − Δ)/(2σ²) and σ = √(Δ({two_d} − Δ)/(2ε)). A valid but loose "
            f"bound, {scope}"
        ))
        self._check_noise_scale(sigma)
        return self._finish_calibration(
            target, budget.achieved, PureDP(spread / (2.0 * sigma**2)), sensitivity, sigma, LABEL_EXACT, notes,
            options,
        )

    def _calibrate_kendall(self, target, sensitivity, options, landmarks):
        r"""Exact GDP accounting on :math:`\Sigma^k_2`, :math:`k \ge 4` (:mod:`geodp_core.mechanisms.kendall_gdp`)."""
        budget = gdp_budget(target)
        mu = budget.value
        notes = [f"target met through μ-GDP: {budget.note}"]
        effective = diameter_capped_sensitivity(self.manifold, sensitivity, notes)
        sigma, mu_achieved = kendall_gaussian_calibration(landmarks, mu, effective)
        notes.insert(0, (
            f"exact GDP accounting on {self.manifold.label} = CP^{landmarks - 2} (two-point homogeneous, so one "
            f"pair at distance Δ gives the privacy profile, GDP-on-manifolds paper Thm. 4.1): μ(σ, Δ) = "
            f"{mu_achieved:.6g} by deterministic quadrature (cos d(η', y) = |cos r cos Δ + sin r sin Δ ⟨w, u⟩|, "
            "arcs in closed form, ρ and r by Gauss–Legendre) with a 1e-5 relative safety margin, σ chosen so "
            "that 0.99 μ ≤ μ(σ, Δ) ≤ μ"
        ))
        return self._finish_gdp(target, budget, mu_achieved, sensitivity, sigma, LABEL_EXACT, notes, options)
