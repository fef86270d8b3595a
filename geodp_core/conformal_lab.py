"""The Conformal lab's computation: data, public ball, mean, conformal calibration and releases.

One function of plain values (so the app can cache it): data -> public ball -> Fréchet mean and its
sensitivity -> density-aware conformal calibration and releases, beside the Riemannian Laplace mechanism
at the same total ε. No Streamlit here.
"""

from dataclasses import dataclass

import numpy as np

from geodp_core.data import (
    clip_to_ball,
    sample_vmf_mixture,
    sample_von_mises_fisher,
    sample_wrapped_normal,
    sample_wrapped_normal_mixture,
    vmf_kappa_from_std,
)
from geodp_core.exceptions import UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import PureDP
from geodp_core.summaries import frechet_mean, frechet_mean_sensitivity

__all__ = ["DATA_KINDS", "LabRun", "run_conformal_lab"]

DATA_KINDS = {
    "sphere": {"vmf": "von Mises–Fisher (one cluster)", "vmf_mixture": "vMF mixture (heterogeneous density)"},
    "hyperbolic": {"wrapped_normal": "wrapped normal (one cluster)",
                   "wrapped_normal_mixture": "wrapped-normal mixture (heterogeneous density)"},
}


@dataclass(frozen=True)
class LabRun:
    """Everything the Conformal lab page shows (plain arrays and core records)."""

    space: str
    data: np.ndarray
    n_clipped: int
    public_center: np.ndarray
    ball_radius: float
    true_mean: np.ndarray
    sensitivity: float
    calibration: object
    rho_from_mean: np.ndarray
    releases: np.ndarray
    distances: np.ndarray
    utility_bound: float
    paper_bound: object
    rl_calibration: object
    rl_releases: object
    rl_distances: object
    rl_reason: str

    @property
    def fields(self):
        return self.calibration.options["fields"]

    @property
    def manifold(self):
        return get_manifold(self.space, 2)


def _layout(manifold, center, radius, k):
    """Public mixture centres on a circle of radius 0.6 r around the public centre."""
    angles = 2.0 * np.pi * np.arange(k) / k
    coords = 0.6 * radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return manifold.exp(center, manifold.from_frame(center, coords))


def _make_data(manifold, kind, n, spread, center, radius, rng):
    if kind == "vmf":
        return sample_von_mises_fisher(center, vmf_kappa_from_std(spread), n, rng)
    if kind == "vmf_mixture":
        kappas = [vmf_kappa_from_std(s) for s in (spread, spread / 3.0, 2.0 * spread)]
        return sample_vmf_mixture(_layout(manifold, center, radius, 3), kappas, [0.6, 0.3, 0.1], n, rng)
    if kind == "wrapped_normal":
        return sample_wrapped_normal(manifold, center, spread, n, rng)
    centers = np.concatenate([center[None], _layout(manifold, center, radius, 2)])
    return sample_wrapped_normal_mixture(manifold, centers, [spread, spread / 3.0, 1.5 * spread],
                                         [0.6, 0.25, 0.15], n, rng)


def run_conformal_lab(space, data_kind, n, spread, ball_radius, eps_total, eps_phi, mesh_size, bandwidth, upsilon,
                      smoothing_time, laplacian, sampler, domain_radius, n_releases, seed):
    """Data -> public ball -> Fréchet mean and Δ -> conformal calibration and releases, plus the
    Riemannian Laplace releases at the same total ε (ε-DP target).

    Raises the core's ``ValueError`` subclasses on bad inputs (the page shows them).
    """
    manifold = get_manifold(space, 2)
    center = manifold.default_center()
    streams = np.random.SeedSequence(int(seed)).spawn(4)
    raw = _make_data(manifold, data_kind, n, spread, center, ball_radius, np.random.default_rng(streams[0]))
    data, n_clipped = clip_to_ball(manifold, raw, center, ball_radius)
    true_mean = frechet_mean(manifold, data)
    sensitivity = float(frechet_mean_sensitivity(len(data), ball_radius, manifold.curvature_bounds[1]))
    target = PureDP(eps_total)
    options = dict(data=data, seed=np.random.default_rng(streams[1]), eps_phi=eps_phi, bandwidth=bandwidth,
                   mesh_size=mesh_size, upsilon=upsilon, smoothing_time=smoothing_time, laplacian=laplacian,
                   sampler=sampler, radius=ball_radius)
    if space == "hyperbolic":
        options.update(domain_radius=domain_radius, ball_center=center)
    mechanism = get_mechanism("conformal", manifold)
    calibration = mechanism.calibrate(target, sensitivity, **options)
    releases = mechanism.sample(true_mean, calibration, n_releases, np.random.default_rng(streams[2]))
    rl = get_mechanism("riemannian_laplace", manifold)
    rl_calibration = rl_releases = rl_distances = None
    rl_reason = ""
    try:
        rl_calibration = rl.calibrate(target, sensitivity)
        rl_releases = rl.sample(true_mean, rl_calibration, n_releases, np.random.default_rng(streams[3]))
        rl_distances = manifold.dist(true_mean, rl_releases)
    except UnavailableError as exc:
        rl_reason = str(exc)
    return LabRun(
        space=space, data=data, n_clipped=int(n_clipped), public_center=center, ball_radius=float(ball_radius),
        true_mean=true_mean, sensitivity=sensitivity, calibration=calibration,
        rho_from_mean=calibration.options["fields"].rho_star(true_mean), releases=releases,
        distances=manifold.dist(true_mean, releases), utility_bound=mechanism.utility_bound(calibration),
        paper_bound=mechanism.paper_theorem_v2(calibration),
        rl_calibration=rl_calibration, rl_releases=rl_releases, rl_distances=rl_distances, rl_reason=rl_reason,
    )
