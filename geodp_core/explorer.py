"""Run one :class:`~geodp_core.scenario.Scenario`: data, true mean, calibrations, releases.

This is the single computation behind the Explorer page (and the Python snippet
it offers for download). Pure: the same scenario (and upload) gives the same
result; randomness comes from ``scenario.seed`` through independent streams.
"""

from dataclasses import dataclass, field, replace

import numpy as np

from geodp_core.data import clip_to_ball, load_dataset
from geodp_core.data import generators as gen
from geodp_core.exceptions import GeoDPError, InvalidParameterError, UnavailableError
from geodp_core.mechanisms import get_mechanism
from geodp_core.summaries import frechet_mean, frechet_mean_sensitivity

__all__ = [
    "MechanismOutcome",
    "ScenarioResult",
    "public_center",
    "make_data",
    "run_scenario",
    "mechanism_options",
    "resample_releases",
    "results_table",
    "mean_and_standard_error",
]


def mean_and_standard_error(values):
    """Mean and standard error of the mean (``nan`` when undefined) of a sample of distances."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return float("nan"), float("nan")
    se = float(np.std(values, ddof=1) / np.sqrt(values.size)) if values.size > 1 else float("nan")
    return float(np.mean(values)), se


@dataclass
class MechanismOutcome:
    """What one mechanism did in a scenario.

    ``status`` is ``"ok"``, ``"unavailable"`` (with ``reason``) or ``"error"`` (invalid options).
    """

    name: str
    title: str
    status: str
    reason: str = ""
    calibration: object = None
    releases: np.ndarray = None
    distances: np.ndarray = None
    utility_bound: float = None

    @property
    def label(self):
        return self.calibration.label if self.calibration is not None else "unavailable"

    @property
    def mean_distance(self):
        return mean_and_standard_error([] if self.distances is None else self.distances)[0]

    @property
    def standard_error(self):
        return mean_and_standard_error([] if self.distances is None else self.distances)[1]


@dataclass
class ScenarioResult:
    """Everything the Explorer shows for one scenario."""

    scenario: object
    manifold: object
    center: np.ndarray
    data: np.ndarray
    n_clipped: int
    true_mean: np.ndarray
    sensitivity: float
    outcomes: list = field(default_factory=list)
    data_note: str = ""


def public_center(scenario, manifold=None):
    """The PUBLIC ball centre: ``Exp`` of ``center_offset`` at the canonical point (never from data)."""
    manifold = manifold or scenario.build_manifold()
    base = manifold.default_center()
    if not scenario.center_offset:
        return base
    return manifold.exp(base, manifold.from_frame(base, np.asarray(scenario.center_offset, dtype=float)))


def _mixture_layout(manifold, center, radius, n_components):
    """Public component centres spread on a circle of radius ``radius/2`` around the centre."""
    angles = 2 * np.pi * np.arange(n_components) / n_components
    coords = np.zeros((n_components, manifold.dim))
    coords[:, 0] = 0.5 * radius * np.cos(angles)
    if manifold.dim > 1:
        coords[:, 1] = 0.5 * radius * np.sin(angles)
    return manifold.exp(center, manifold.from_frame(center, coords))


def make_data(scenario, manifold, center, rng, points=None):
    """Generate (or take) the private dataset; returns ``(points, note)``."""
    kind, n, spread = scenario.data, scenario.n, scenario.spread
    if kind == "upload":
        if points is None:
            raise InvalidParameterError("data is 'upload' but no file was uploaded", param="upload")
        return manifold.validate_points(points, "upload"), "uploaded file"
    if kind in ("cities", "connectomes", "karate"):
        dataset = load_dataset(kind, **({"sub_block": scenario.dim} if kind == "connectomes" else {}))
        return np.asarray(dataset.points, dtype=float), dataset.description
    spread = max(spread, 1e-3)
    if kind == "vmf":
        return gen.sample_von_mises_fisher(center, gen.vmf_kappa_from_std(spread), n, rng), (
            f"von Mises–Fisher, kappa = 1/std² = {gen.vmf_kappa_from_std(spread):.3g}"
        )
    if kind == "vmf_mixture":
        means = _mixture_layout(manifold, center, scenario.radius, 3)
        kappas = [gen.vmf_kappa_from_std(s) for s in (spread, spread / 3.0, 2.0 * spread)]
        pts = gen.sample_vmf_mixture(means, kappas, [0.5, 0.3, 0.2], n, rng)
        return pts, "mixture of 3 vMF components (weights 0.5/0.3/0.2, heterogeneous spreads)"
    if kind == "uniform_ball":
        return gen.sample_uniform_ball(manifold, center, spread, n, rng), f"uniform in a geodesic ball of radius {spread:g}"
    if kind == "wrapped_normal":
        return gen.sample_wrapped_normal(manifold, center, spread, n, rng), f"wrapped normal, std {spread:g}"
    if kind == "wrapped_normal_mixture":
        centers = _mixture_layout(manifold, center, scenario.radius, 2)
        pts = gen.sample_wrapped_normal_mixture(manifold, centers, [spread, spread / 3.0], [0.7, 0.3], n, rng)
        return pts, "mixture of 2 wrapped normals (weights 0.7/0.3)"
    if kind == "wishart":
        m = manifold.m
        dof = m - 1.0 + 1.0 / spread**2
        pts = gen.sample_wishart(m, dof, center / dof, n, rng)
        return pts, f"Wishart, {dof:.3g} degrees of freedom, mean = the public centre"
    raise InvalidParameterError(f"unknown data kind {kind!r}", param="data")


def mechanism_options(name, manifold, center, points, scenario):
    """Public options each mechanism needs (footpoint, anchor = the PUBLIC centre; never the data)."""
    if name in ("ew_laplace", "ew_gaussian"):
        return {"footpoint": center}
    if name == "langevin":
        return {"anchor": center}
    if name == "conformal":
        # the density-sanitisation noise gets its own stream, independent of the data stream
        noise_seed = int(np.random.SeedSequence([scenario.seed, 7919]).generate_state(1)[0])
        options = {"data": points, "seed": noise_seed}
        if manifold.name == "hyperbolic":
            # PUBLIC meshed domain: a ball around the public centre that contains the public data ball
            options.update(domain_center=center, domain_radius=min(4.0, max(2.0, 1.25 * scenario.radius)),
                           radius=scenario.radius, ball_center=center)
        return options
    return {}


def run_scenario(scenario, points=None):
    """Compute data, the true Fréchet mean, and every selected mechanism's releases.

    Parameters
    ----------
    scenario : Scenario
    points : array_like, optional
        Uploaded points when ``scenario.data == "upload"``.

    Returns
    -------
    ScenarioResult
    """
    manifold = scenario.build_manifold()
    center = public_center(scenario, manifold)
    streams = np.random.SeedSequence(scenario.seed).spawn(1 + len(scenario.mechanisms))
    raw, note = make_data(scenario, manifold, center, np.random.default_rng(streams[0]), points)
    data, n_clipped = clip_to_ball(manifold, raw, center, scenario.radius)
    true_mean = frechet_mean(manifold, data)
    kappa = manifold.curvature_bounds[1]
    sensitivity = frechet_mean_sensitivity(len(data), scenario.radius, kappa)
    result = ScenarioResult(scenario, manifold, center, data, int(n_clipped), true_mean, float(sensitivity), data_note=note)
    target = scenario.target
    for name, stream in zip(scenario.mechanisms, streams[1:]):
        mechanism = get_mechanism(name, manifold)
        ok, reason = mechanism.available()
        if not ok:
            result.outcomes.append(MechanismOutcome(name, mechanism.title, "unavailable", reason))
            continue
        try:
            options = mechanism_options(name, manifold, center, data, scenario)
            calibration = mechanism.calibrate(target, sensitivity, **options)
        except UnavailableError as exc:
            result.outcomes.append(MechanismOutcome(name, mechanism.title, "unavailable", str(exc)))
            continue
        except InvalidParameterError as exc:
            result.outcomes.append(MechanismOutcome(name, mechanism.title, "error", str(exc)))
            continue
        rng = np.random.default_rng(stream)
        try:
            releases = mechanism.sample(true_mean, calibration, scenario.n_releases, rng)
        except (GeoDPError, ValueError, RuntimeError) as exc:  # one mechanism's failure never hides the others
            result.outcomes.append(MechanismOutcome(name, mechanism.title, "error", f"sampling failed: {exc}"))
            continue
        distances = manifold.dist(true_mean, releases)
        bound = mechanism.utility_bound(calibration, center=true_mean)
        result.outcomes.append(
            MechanismOutcome(name, mechanism.title, "ok", "", calibration, releases, distances, bound)
        )
    return result


def resample_releases(result, draw):
    """New release clouds for the same data, mean and calibrations (the "resample" button).

    ``draw`` indexes an independent random stream derived from the scenario seed, so
    resampling is reproducible and never recomputes the data.
    """
    scenario = result.scenario
    streams = np.random.SeedSequence([scenario.seed, 1 + int(draw)]).spawn(len(result.outcomes))
    outcomes = []
    for outcome, stream in zip(result.outcomes, streams):
        if outcome.status != "ok":
            outcomes.append(outcome)
            continue
        mechanism = get_mechanism(outcome.name, result.manifold)
        try:
            releases = mechanism.sample(
                result.true_mean, outcome.calibration, scenario.n_releases, np.random.default_rng(stream)
            )
        except (GeoDPError, ValueError, RuntimeError) as exc:
            outcomes.append(replace(outcome, status="error", reason=f"sampling failed: {exc}", releases=None,
                                    distances=None))
            continue
        distances = result.manifold.dist(result.true_mean, releases)
        outcomes.append(replace(outcome, releases=releases, distances=distances))
    return replace(result, outcomes=outcomes)


def results_table(result):
    """One row per release: mechanism, honesty label, distance to the true mean, coordinates."""
    rows = []
    for outcome in result.outcomes:
        if outcome.status != "ok":
            rows.append({"mechanism": outcome.name, "label": "unavailable", "reason": outcome.reason})
            continue
        flat = outcome.releases.reshape(len(outcome.releases), -1)
        for i, (dist, coords) in enumerate(zip(outcome.distances, flat)):
            row = {"mechanism": outcome.name, "label": outcome.label, "release": i, "distance_to_true_mean": float(dist)}
            row.update({f"x{j}": float(c) for j, c in enumerate(coords)})
            rows.append(row)
    return rows
