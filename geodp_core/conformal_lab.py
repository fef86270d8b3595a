"""The Conformal lab's study: a Scenario's data through the one pipeline, then the conformal mechanism
step by step beside the Riemannian Laplace mechanism at the same total ε.

:func:`run_conformal_lab` takes a :class:`~geodp_core.scenario.Scenario` (manifold S² or H², data, n, spread,
public ball radius, total ε, seed) and a frozen :class:`LabSettings` (budget split, mesh, bandwidth, Helmholtz
υ, smoothing, Laplacian, sampler, meshed domain, releases). Data are made by :func:`geodp_core.pipeline.prepare`
(the same words give the same data as on the Explorer) and both mechanisms are run by
:func:`geodp_core.pipeline.evaluate`. No Streamlit here.
"""

from dataclasses import asdict, dataclass

import numpy as np

from geodp_core import pipeline
from geodp_core._validation import check_int, check_option, check_real
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import PureDP
from geodp_core.scenario import Scenario

__all__ = ["DATA_KINDS", "LabRun", "LabSettings", "run_conformal_lab"]

DATA_KINDS = {
    "sphere": {"vmf": "von Mises–Fisher (one cluster)", "vmf_mixture": "vMF mixture (heterogeneous density)"},
    "hyperbolic": {"wrapped_normal": "wrapped normal (one cluster)",
                   "wrapped_normal_mixture": "wrapped-normal mixture (heterogeneous density)"},
}


@dataclass(frozen=True)
class LabSettings:
    """The Conformal lab's own (public) settings; the data and the total ε come from the Scenario."""

    eps_phi_share: float = 0.3
    mesh_size: int = 600
    bandwidth: float = 0.5
    upsilon: float = 1.0
    smoothing_time: float = 0.05
    laplacian: str = "fem"
    sampler: str = "continuous"
    domain_radius: float = 2.0
    n_releases: int = 100

    def __post_init__(self):
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        set_("eps_phi_share", check_real(self.eps_phi_share, "eps_phi_share", low=0.0, high=1.0))
        set_("mesh_size", check_int(self.mesh_size, "mesh_size", low=20, high=20_000))
        set_("n_releases", check_int(self.n_releases, "n_releases", low=1, high=10_000))
        set_("laplacian", check_option(self.laplacian, "laplacian", ("fem", "knn_data")))
        set_("sampler", check_option(self.sampler, "sampler", ("continuous", "vertex")))
        for name in ("bandwidth", "upsilon", "domain_radius"):
            set_(name, check_real(getattr(self, name), name, low=0.0))
        set_("smoothing_time", check_real(self.smoothing_time, "smoothing_time", low=0.0, low_closed=True))

    def to_dict(self):
        return asdict(self)


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


def run_conformal_lab(scenario, settings=LabSettings()):
    """Data (pipeline) -> conformal calibration and releases, plus Riemannian Laplace at the same total ε.

    Parameters
    ----------
    scenario : Scenario
        ``manifold`` "sphere" or "hyperbolic" with ``dim = 2``; its ``eps`` is the total ε-DP budget.
    settings : LabSettings

    Raises
    ------
    InvalidParameterError
        For data that cannot be prepared, or a conformal mechanism that cannot be calibrated here (the reason
        names the control); the Riemannian Laplace comparison never raises (its reason is kept).
    """
    if not isinstance(scenario, Scenario):
        raise InvalidParameterError(
            f"scenario must be a geodp_core.scenario.Scenario; got {type(scenario).__name__}", param="scenario")
    if not isinstance(settings, LabSettings):
        raise InvalidParameterError(f"settings must be a LabSettings; got {type(settings).__name__}", param="settings")
    if scenario.manifold not in DATA_KINDS or scenario.dim != 2:
        raise InvalidParameterError(
            f"the Conformal lab draws S² or H²; got {scenario.manifold} of dimension {scenario.dim}", param="manifold"
        )
    check_option(scenario.data, "data", tuple(DATA_KINDS[scenario.manifold]))
    prepared = pipeline.prepare(scenario)
    total = float(scenario.eps)
    target = PureDP(total)
    options = dict(eps_phi=settings.eps_phi_share * total, bandwidth=settings.bandwidth, mesh_size=settings.mesh_size,
                   upsilon=settings.upsilon, smoothing_time=settings.smoothing_time, laplacian=settings.laplacian,
                   sampler=settings.sampler)
    if not prepared.manifold.is_compact:  # a meshed public ball (H²); a compact surface (S²) is meshed whole
        options.update(domain_radius=settings.domain_radius)
    streams = np.random.SeedSequence(int(scenario.seed)).spawn(4)  # [0] is the data's (pipeline.data_stream)
    outcome = pipeline.evaluate(prepared, "conformal", target, settings.n_releases, np.random.default_rng(streams[2]),
                                **options)
    if outcome.status != "ok":
        error = UnavailableError if outcome.status == "unavailable" else InvalidParameterError
        raise error(outcome.reason, param="conformal")
    rl = pipeline.evaluate(prepared, "riemannian_laplace", target, settings.n_releases,
                           np.random.default_rng(streams[3]))
    mechanism = get_mechanism("conformal", prepared.manifold)
    calibration = outcome.calibration
    ok = rl.status == "ok"
    return LabRun(
        space=scenario.manifold, data=prepared.data, n_clipped=prepared.n_clipped, public_center=prepared.center,
        ball_radius=float(scenario.radius), true_mean=prepared.true_mean, sensitivity=prepared.sensitivity,
        calibration=calibration, rho_from_mean=calibration.options["fields"].rho_star(prepared.true_mean),
        releases=outcome.releases, distances=outcome.distances, utility_bound=mechanism.utility_bound(calibration),
        paper_bound=mechanism.paper_theorem_v2(calibration),
        rl_calibration=rl.calibration if ok else None, rl_releases=rl.releases if ok else None,
        rl_distances=rl.distances if ok else None, rl_reason="" if ok else rl.reason,
    )
