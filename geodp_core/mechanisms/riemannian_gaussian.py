r"""Riemannian Gaussian mechanism (Jiang et al., NeurIPS 2023; SPEC §5.2) — :math:`\mu`-GDP.

Release :math:`Y` with density with respect to the Riemannian volume

.. math::
    p_\eta(y) = \frac{1}{Z(\sigma)} \exp\Big(-\frac{\mathrm{dist}(\eta, y)^2}{2\sigma^2}\Big).

Calibration (target -> :math:`\mu` by :func:`geodp_core.privacy.gdp_budget`, then :math:`\mu` -> :math:`\sigma`):

* :math:`S^d, H^d, \mathbb{R}^d`: exact GDP accounting,
  :func:`~geodp_core.mechanisms.gaussian_gdp.riemannian_gaussian_sigma_for_mu`
  (deterministic quadrature of the privacy profile; :math:`\sigma = \Delta/\mu` on :math:`\mathbb{R}^d`);
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
  :math:`\sigma = \Delta/\mu` and labelled "no formal guarantee".

Samplers, densities and the Metropolis–Hastings option are shared with the Riemannian
Laplace mechanism (:class:`~geodp_core.mechanisms.riemannian_laplace.IsotropicDistanceMechanism`).
Derivation: ``docs/derivations/riemannian_gaussian.md``.
"""

import functools
import math

import numpy as np

from geodp_core.mechanisms.base import LABEL_EXACT, LABEL_NO_GUARANTEE
from geodp_core.mechanisms.gaussian_gdp import riemannian_gaussian_calibration
from geodp_core.mechanisms.kendall_gdp import (
    KENDALL_EXACT_MAX_K,
    kendall_gaussian_calibration,
)
from geodp_core.mechanisms.riemannian_laplace import (
    IsotropicDistanceMechanism,
    diameter_capped_sensitivity,
    noise_geometry,
)
from geodp_core.privacy import GDP, PureDP, gdp_budget, pure_dp_budget

__all__ = ["RiemannianGaussian"]


@functools.lru_cache(maxsize=512)
def _exact_sigma(space, dim, mu, sensitivity):
    """Cached ``(sigma, mu achieved)``: achieved μ from the exact quadrature, in [0.99 μ, μ] (about one
    quadrature per new parameter set, :func:`riemannian_gaussian_calibration`)."""
    sigma, mu_achieved, _ = riemannian_gaussian_calibration(space, dim, mu, sensitivity)
    return sigma, mu_achieved


class RiemannianGaussian(IsotropicDistanceMechanism):
    r"""Riemannian Gaussian mechanism: density :math:`\propto \exp(-\mathrm{dist}(\eta, y)^2/(2\sigma^2))`.

    :math:`\mu`-GDP with the exact :math:`\mu(\sigma, \Delta)` of the GDP-on-manifolds paper
    (Theorem 4.1: on homogeneous spaces one neighbouring pair at distance :math:`\Delta`
    determines the privacy profile) on :math:`S^d`, :math:`H^d`, :math:`\mathbb{R}^d` and the flat
    SPD metrics. A pure-DP target is unavailable (Gaussian noise has unbounded privacy loss).

    Calibration options
    -------------------
    sampler : {"exact", "mh"}, default "exact"
        ``"mh"`` uses :func:`~geodp_core.mechanisms.mcmc.riemannian_metropolis_hastings`
        (label "approximate sampler"); then ``burn_in``, ``n_steps``, ``proposal_scale`` apply.
    """

    name = "riemannian_gaussian"
    title = "Riemannian Gaussian"
    native_notion = "gdp"
    source = ("Jiang, Chang, Liu, Ding, Kong & Jiang (2023), Gaussian differential privacy on Riemannian "
              "manifolds, NeurIPS")
    profile = "gaussian"

    def _calibrate(self, target, sensitivity, **options):
        options = self._parse_sampler_options(**options)
        if self.manifold.name == "kendall":
            if isinstance(target, PureDP):  # the GDP route refuses pure DP; the loss is bounded here
                return self._calibrate_bounded_diameter(target, sensitivity, options)
            if self.manifold.k == 3:
                return self._calibrate_triangles(target, sensitivity, options)
            if self.manifold.k <= KENDALL_EXACT_MAX_K:
                return self._calibrate_kendall(target, sensitivity, options)
            return self._calibrate_bounded_diameter(target, sensitivity, options)
        budget = gdp_budget(target)
        mu = budget.value
        notes = [f"target met through μ-GDP: {budget.note}"]
        kind, space = noise_geometry(self.manifold)
        label = LABEL_EXACT
        if kind == "radial" and self.manifold.name != "spd":
            effective = sensitivity
            if space == "sphere" and sensitivity > math.pi:
                effective = math.pi
                notes.append(f"sensitivity {sensitivity:g} > π = diameter of the sphere; using Δ = π (dist ≤ π always)")
            sigma, mu_achieved = _exact_sigma(space, self.manifold.dim, mu, effective)
            if space == "euclidean" or (space == "hyperbolic" and self.manifold.dim == 1):
                notes.insert(0, "Euclidean Gaussian mechanism: μ = Δ/σ exactly (σ = Δ/μ)")
            else:
                notes.insert(0, (
                    f"exact GDP accounting on {self.manifold.label}: μ(σ, Δ) = {mu_achieved:.6g} from the privacy "
                    "profile by deterministic quadrature in geodesic polar coordinates (GDP-on-manifolds paper "
                    "Thm. 4.1), σ chosen so that 0.99 μ ≤ μ(σ, Δ) ≤ μ (at most 1% of the budget unused), "
                    "verified by that quadrature"
                ))
        elif kind == "radial":  # flat SPD metric
            sigma = sensitivity / mu
            while sensitivity / sigma > mu:
                sigma = float(np.nextafter(sigma, np.inf))
            mu_achieved = sensitivity / sigma
            notes.insert(0, (
                f"the {self.manifold.metric_label} chart is an isometry onto a Euclidean space, so this is the "
                "Gaussian mechanism there: μ = Δ/σ exactly"
            ))
        else:  # SPD affine-invariant
            label = LABEL_NO_GUARANTEE
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
        spread = effective * (2.0 * self.manifold.diameter - effective)  # sup of d(η', y)² − d(η, y)²
        sigma = math.sqrt(spread / (2.0 * eps))
        while spread / (2.0 * sigma**2) > eps:  # safe side in floating point
            sigma = float(np.nextafter(sigma, np.inf))
        notes.insert(0, (
            f"ε-DP by the bounded-diameter argument on {self.manifold.label} (diameter D = π/2, homogeneous: the "
            "normaliser does not depend on η): d(η',y)² − d(η,y)² ≤ Δ(2D − Δ) (attained), so ε = Δ(π − Δ)/(2σ²) and "
            "σ = √(Δ(π − Δ)/(2ε)). A valid "
            f"but loose bound, used for ε-DP targets and above {KENDALL_EXACT_MAX_K} landmarks; μ-GDP targets with at "
            f"most {KENDALL_EXACT_MAX_K} landmarks get the exact GDP accounting of this two-point homogeneous space "
            "(GDP paper Thm. 4.1)"
        ))
        self._check_noise_scale(sigma)
        return self._finish_calibration(
            target, budget.achieved, PureDP(spread / (2.0 * sigma**2)), sensitivity, sigma, LABEL_EXACT, notes,
            options,
        )

    def _calibrate_triangles(self, target, sensitivity, options):
        r"""Exact GDP accounting on :math:`\Sigma^3_2 \cong S^2(1/2)` through the unit sphere.

        The Hopf map is an isometry of :math:`\Sigma^3_2` onto the sphere of radius 1/2; composed with the
        dilation by 2 it is a bijection :math:`F` onto :math:`S^2` with :math:`d(Fx, Fy) = 2\,d(x, y)` and
        :math:`F_*\mathrm{vol} = \mathrm{vol}_{S^2}/4`. It maps this mechanism with :math:`(\sigma, \Delta)` to the
        Riemannian Gaussian on :math:`S^2` with :math:`(2\sigma, 2\Delta)` (same privacy loss
        :math:`(d_2^2 - d_1^2)/(2\sigma^2)`), and trade-off functions are invariant under a bijection, so
        :math:`\mu_{\Sigma^3_2}(\sigma, \Delta) = \mu_{S^2}(2\sigma, 2\Delta)` (the project's exact sphere quadrature).
        """
        budget = gdp_budget(target)
        mu = budget.value
        notes = [f"target met through μ-GDP: {budget.note}"]
        effective = diameter_capped_sensitivity(self.manifold, sensitivity, notes)
        sigma_sphere, mu_achieved = _exact_sigma("sphere", 2, mu, 2.0 * effective)
        sigma = 0.5 * sigma_sphere
        notes.insert(0, (
            f"exact GDP accounting on {self.manifold.label} ≅ S²(1/2): doubling distances (Hopf map) sends this "
            "mechanism with (σ, Δ) to the Riemannian Gaussian on the unit sphere S² with (2σ, 2Δ), a bijection that "
            f"preserves the privacy loss, so μ(σ, Δ) = μ_S²(2σ, 2Δ) = {mu_achieved:.6g} by the sphere's deterministic "
            "quadrature (GDP-on-manifolds paper Thm. 4.1), σ chosen so that 0.99 μ ≤ μ(σ, Δ) ≤ μ"
        ))
        return self._finish_gdp(target, budget, mu_achieved, sensitivity, sigma, LABEL_EXACT, notes, options)

    def _calibrate_kendall(self, target, sensitivity, options):
        r"""Exact GDP accounting on :math:`\Sigma^k_2`, :math:`k \ge 4` (:mod:`geodp_core.mechanisms.kendall_gdp`)."""
        budget = gdp_budget(target)
        mu = budget.value
        notes = [f"target met through μ-GDP: {budget.note}"]
        effective = diameter_capped_sensitivity(self.manifold, sensitivity, notes)
        sigma, mu_achieved = kendall_gaussian_calibration(self.manifold.k, mu, effective)
        notes.insert(0, (
            f"exact GDP accounting on {self.manifold.label} = CP^{self.manifold.k - 2} (two-point homogeneous, so one "
            f"pair at distance Δ gives the privacy profile, GDP-on-manifolds paper Thm. 4.1): μ(σ, Δ) = "
            f"{mu_achieved:.6g} by deterministic quadrature (cos d(η', y) = |cos r cos Δ + sin r sin Δ ⟨w, u⟩|, "
            "arcs in closed form, ρ and r by Gauss–Legendre) with a 1e-5 relative safety margin, σ chosen so "
            "that 0.99 μ ≤ μ(σ, Δ) ≤ μ"
        ))
        return self._finish_gdp(target, budget, mu_achieved, sensitivity, sigma, LABEL_EXACT, notes, options)
