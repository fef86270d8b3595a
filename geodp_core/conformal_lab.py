"""The Conformal lab's study: a Scenario's data through the one pipeline, then the conformal mechanism
step by step beside the Riemannian Laplace mechanism at the same total ε.

:func:`run_conformal_lab` takes a :class:`~geodp_core.scenario.Scenario` (manifold S² or H², data, n, spread,
public ball radius, total ε, seed) and a frozen :class:`LabSettings` (budget split, mesh, bandwidth, Helmholtz
υ, smoothing, Laplacian, sampler, meshed domain, releases). Data are made by :func:`geodp_core.pipeline.prepare`
(the same words give the same data as on the Explorer) and both mechanisms are run by
:func:`geodp_core.pipeline.evaluate`. No Streamlit here.

The study's shape (``Settings`` with declared constraints, ``run``, ``figures``) is
:mod:`geodp_core.studies.conformal`, which calls this module.
"""

from dataclasses import asdict, dataclass

import numpy as np

from geodp_core import pipeline
from geodp_core._validation import check_option
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import MANIFOLD_NAMES, get_manifold, manifold_class
from geodp_core.geometry.base import unicode_powers
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import PureDP
from geodp_core.scenario import Scenario
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["DATA_KINDS", "LAB_NEEDS", "LabRun", "LabSettings", "lab_spaces", "run_conformal_lab",
           "spaces_not_offered"]

#: The lab's synthetic data on each surface it draws (its own choice of generators; :func:`lab_spaces`).
DATA_KINDS = {
    "sphere": {"vmf": "von Mises–Fisher (one cluster)", "vmf_mixture": "vMF mixture (heterogeneous density)"},
    "hyperbolic": {"wrapped_normal": "wrapped normal (one cluster)",
                   "wrapped_normal_mixture": "wrapped-normal mixture (heterogeneous density)"},
}


def _surface(code):
    """The member of size 2 of the family ``code`` (S², H², ...), or ``None`` when its sizes exclude 2."""
    low, high = manifold_class(code).size_range
    return get_manifold(code, 2) if low <= 2 <= high else None


def lab_spaces():
    """Codes of the spaces the lab draws, in menu order: the families whose member of size 2 has a public
    triangle mesh (its ``mesh_kind``): the FEM Laplacian and the pictures of f, φ and ρ* need one."""
    return tuple(code for code in MANIFOLD_NAMES if _surface(code) is not None and _surface(code).mesh_kind is not None)


#: What the lab needs of a space, in plain words (the page says it once, before :func:`spaces_not_offered`).
LAB_NEEDS = ("The lab draws a surface with a public triangle mesh: it computes the conformal factor with the "
             "finite-element Laplacian of the mesh and draws f, φ and ρ* on it.")


def spaces_not_offered():
    """``{space label: reason}`` for every other registered space, in plain words, from what the space and the
    conformal mechanism declare (at the space's default size).

    Each has no public triangle mesh (:data:`LAB_NEEDS`); the reason gives its dimension and whether the conformal
    mechanism still runs there (on a public point set: the Explorer offers it) or, with the mechanism's own reason,
    not at all (e.g. no public discretisation of that space is implemented).
    """
    from geodp_core.mechanisms import mechanism_class

    out = {}
    for code in MANIFOLD_NAMES:
        if code in lab_spaces():
            continue
        manifold = get_manifold(code)
        ok, why = mechanism_class("conformal").availability(manifold)
        reason = f"dimension {manifold.dim}, no public triangle mesh; "
        if ok:
            reason += "the conformal mechanism runs there on a public point set (compare it on the Explorer)"
        else:
            reason += f"the conformal mechanism is not available there: {unicode_powers(why)}"
        out[manifold.chooser_label] = reason
    return out


@dataclass(frozen=True)
class LabSettings(StudySettings):
    """The Conformal lab's own (public) settings; the data and the total ε come from the Scenario.

    Each field declares its valid range (:func:`geodp_core.studies.settings.setting`), checked on construction.
    """

    eps_phi_share: float = setting(0.3, low=0.0, high=1.0, low_closed=False, high_closed=False,
                                   doc="share of ε spent on the density (ε_φ = share · ε)")
    mesh_size: int = setting(600, low=20, high=20_000, integer=True, doc="vertices of the public mesh")
    bandwidth: float = setting(0.5, low=0.0, low_closed=False, doc="kernel bandwidth of the density estimate")
    upsilon: float = setting(1.0, low=0.0, low_closed=False, doc="density clipping level υ")
    smoothing_time: float = setting(0.05, low=0.0, doc="heat smoothing time of the density")
    laplacian: str = setting("fem", choices=("fem", "knn_data"), doc="Laplacian of the Helmholtz solve")
    sampler: str = setting("continuous", choices=("continuous", "vertex"), doc="release sampler")
    domain_radius: float = setting(2.0, low=0.0, low_closed=False, doc="radius of the public domain")
    n_releases: int = setting(100, low=1, high=10_000, integer=True, doc="releases drawn")

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
