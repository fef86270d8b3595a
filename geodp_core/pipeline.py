r"""One scenario, one pipeline: prepare the data once, evaluate a mechanism once.

:func:`prepare` is the ONE place where a :class:`~geodp_core.scenario.Scenario`'s data are generated
(or loaded, or taken from an upload), clipped to the public ball :math:`B(m_0, r)` and summarised:

.. math::
    \hat\eta = \arg\min_{m} \sum_i \mathrm{dist}(m, x_i)^2, \qquad
    \Delta = \Delta(n, r, \kappa_{\max}) \quad\text{(public: from } n, r \text{ and the curvature bound only).}

:func:`evaluate` is the ONE place where a mechanism is calibrated to a target (public options only:
footpoint and anchor = the public centre :math:`m_0`) and sampled, with one error policy: it never raises,
so one mechanism's failure never hides another's. Every page and study goes through these two functions.

Randomness: the data use the first child of ``SeedSequence(scenario.seed)``; callers pass the release
generator explicitly.
"""

import math
from dataclasses import dataclass

import numpy as np

from geodp_core._validation import check_int, check_rng
from geodp_core.constraints import MAX_RECORD_COORDINATES, WIDGET_RANGES, largest_count
from geodp_core.data import (
    DESCRIPTOR_SIZES,
    clip_to_ball,
    data_kind,
    data_kinds,
    descriptor_public_center,
)
from geodp_core.exceptions import GeoDPError, InvalidParameterError, UnavailableError
from geodp_core.mechanisms import get_mechanism, mechanism_spec
from geodp_core.privacy import Guarantee
from geodp_core.summaries import p_mean, p_mean_sensitivity

__all__ = [
    "Outcome",
    "Prepared",
    "data_stream",
    "evaluate",
    "mean_and_standard_error",
    "prepare",
    "public_center",
    "public_options",
    "public_reference",
    "resample",
    "scenario_options",
    "summarise",
    "typical_spread_distance",
    "SPREAD_WARNING_FRACTION",
    "SPREAD_FIT_FRACTION",
    "SpreadCheck",
    "spread_check",
]

#: Parameters of core errors that mean "the public ball centre cannot be used" (reported as center_offset).
_CENTER_PARAMS = ("tangent_vec", "base_point", "center", "mean_direction", "mean_directions", "centers",
                  "footpoint", "anchor")
#: Parameters of core errors that mean "the uploaded points cannot be used" (reported as upload).
_UPLOAD_PARAMS = ("points", "data", "x", "upload", "file")
#: Real datasets a scenario can name (loaded, not generated; ``n`` and ``spread`` do not apply), as declared in
#: :mod:`geodp_core.data.kinds`.
REAL_DATASETS = tuple(code for code, kind in data_kinds().items() if kind.source == "dataset")


def typical_spread_distance(scenario):
    r"""How far the scenario's generator puts a record from its centre, for a hint when most records are clipped.

    Von Mises–Fisher and wrapped-normal data (spread :math:`s` the std per direction, intrinsic dimension
    :math:`d`): about :math:`s\sqrt d`; landmark noise on Kendall shapes (std :math:`s` per coordinate of :math:`k`
    planar landmarks): about :math:`s\sqrt{2k}`. ``None`` for the other generators and real data.
    """
    spread_distance = data_kind(scenario.data).spread_distance
    return None if spread_distance is None else spread_distance(scenario)


#: Before a run, the app warns when the typical distance of a record from the centre exceeds this fraction of the
#: public radius r. With :math:`s\sqrt d = 0.8\,r` a share :math:`P(\chi^2_d > d/0.64)` of normal-like records
#: lies beyond r (21 % at d = 2, 11 % at d = 10); at :math:`s\sqrt d = r`, 37 % to 50 %.
SPREAD_WARNING_FRACTION = 0.8
#: The spread offered by the one-click fix puts the typical distance at this fraction of r
#: (:math:`P(\chi^2_d > 4d)`: 1.8 % of the records beyond r at d = 2, far fewer in higher dimension).
SPREAD_FIT_FRACTION = 0.5


@dataclass(frozen=True)
class SpreadCheck:
    """The data spread against the public radius, from public inputs only (the scenario's controls).

    ``typical`` is the typical distance of a record from the centre (``formula`` in symbols, e.g. ``s·√d``, with
    ``size`` the d or k it uses), ``too_wide`` whether it exceeds ``SPREAD_WARNING_FRACTION · radius``, ``fit`` the
    spread (on the control's 0.01 grid) that puts it at ``SPREAD_FIT_FRACTION · radius``.
    """

    spread: float
    typical: float
    radius: float
    formula: str
    too_wide: bool
    fit: float

    @property
    def beyond(self):
        """Whether the typical record lies beyond the public radius (most records clipped)."""
        return self.typical > self.radius

    def message(self):
        """The warning, in words and symbols, generated from the numbers."""
        where = "beyond" if self.beyond else "close to"
        share = "most" if self.beyond else "a large share"
        under_root = round((self.typical / self.spread) ** 2)
        return (f"Expected spread {self.formula} = {self.spread:g}·√{under_root} = {self.typical:.2g} rad, {where} "
                f"the public radius r = {self.radius:g}: {share} of the records will be moved onto the ball's edge "
                "before the run (the releases then measure the clipping, and a high-dimensional picture looks "
                "tighter than the data are).")


def spread_check(scenario):
    """:class:`SpreadCheck` of ``scenario`` (``None`` for data without a typical distance: real data, uploads,
    uniform balls and Wishart matrices)."""
    typical = typical_spread_distance(scenario)
    if typical is None or not scenario.spread > 0:
        return None
    factor = typical / scenario.spread
    low = WIDGET_RANGES["spread"][0]
    fit = max(low, math.floor(100.0 * SPREAD_FIT_FRACTION * scenario.radius / factor + 1e-9) / 100.0)
    return SpreadCheck(spread=float(scenario.spread), typical=float(typical), radius=float(scenario.radius),
                       formula=data_kind(scenario.data).spread_formula, fit=fit,
                       too_wide=bool(typical > SPREAD_WARNING_FRACTION * scenario.radius))


def mean_and_standard_error(values):
    """Mean and standard error of the mean (``nan`` when undefined) of a sample of distances."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return float("nan"), float("nan")
    se = float(np.std(values, ddof=1) / np.sqrt(values.size)) if values.size > 1 else float("nan")
    return float(np.mean(values)), se


@dataclass(frozen=True)
class Prepared:
    """A scenario's data and their summary, computed once (:func:`prepare`).

    ``center`` and ``sensitivity`` are public (from the scenario only); ``data``, ``n_clipped`` and
    ``true_mean`` are private: shown to the data owner, never part of a release.
    """

    scenario: object
    manifold: object
    center: np.ndarray
    data: np.ndarray
    n_clipped: int
    true_mean: np.ndarray
    sensitivity: float
    data_note: str = ""


@dataclass
class Outcome:
    """What one mechanism did: ``status`` is ``"ok"``, ``"unavailable"`` (with ``reason``) or ``"error"``."""

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


def _check_scenario(scenario):
    from geodp_core.scenario import Scenario  # the scenario module imports this package's data

    if not isinstance(scenario, Scenario):
        raise InvalidParameterError(
            f"scenario must be a geodp_core.scenario.Scenario (e.g. Scenario() or Scenario.from_json(text)); got "
            f"{type(scenario).__name__}", param="scenario")
    return scenario


def _check_prepared(prepared):
    if not isinstance(prepared, Prepared):
        raise InvalidParameterError(
            f"prepared must be the Prepared returned by prepare(scenario); got {type(prepared).__name__}",
            param="prepared")
    return prepared


def _check_draws(n_releases, rng):
    return check_int(n_releases, "n_releases", low=1, high=10_000_000), check_rng(rng)


def data_stream(scenario):
    """The data's random stream: the first child of ``SeedSequence(scenario.seed)``."""
    return np.random.SeedSequence(scenario.seed).spawn(1)[0]


def _renamed(exc, param):
    """A copy of an InvalidParameterError naming ``param`` (same class and message)."""
    try:
        return type(exc)(str(exc), param=param)
    except TypeError:
        return InvalidParameterError(str(exc), param=param)


def public_reference(scenario, manifold=None):
    """The public point :math:`o` the centre offset starts from: the manifold's canonical point, or for image
    covariance descriptors the public reference :math:`cI` of :func:`~geodp_core.data.descriptor_public_center`
    (fixed by the descriptor's definition, never computed from the data)."""
    manifold = manifold or scenario.build_manifold()
    if scenario.data in DESCRIPTOR_SIZES:
        return descriptor_public_center(manifold.m)
    return manifold.default_center()


def public_center(scenario, manifold=None):
    """The PUBLIC ball centre :math:`m_0 = \\mathrm{Exp}_o(\\text{center\\_offset})` (never from data), with
    :math:`o` = :func:`public_reference`."""
    manifold = manifold or scenario.build_manifold()
    base = public_reference(scenario, manifold)
    if not scenario.center_offset:
        return base
    try:
        return manifold.exp(base, manifold.from_frame(base, np.asarray(scenario.center_offset, dtype=float)))
    except InvalidParameterError as exc:
        raise _renamed(exc, "center_offset") from exc


def _make_data(scenario, manifold, center, rng, points=None):
    """Generate (or load, or take) the private dataset as its data kind declares; returns ``(points, note)``."""
    return data_kind(scenario.data).make(scenario, manifold, center, rng, points)


def prepare(scenario, points=None):
    """Data, public centre, clipping, true mean and public sensitivity of a scenario.

    Parameters
    ----------
    scenario : Scenario
    points : array_like, optional
        Uploaded points when ``scenario.data == "upload"``.

    Returns
    -------
    Prepared

    Raises
    ------
    InvalidParameterError
        Naming the scenario control at fault: ``upload`` for uploaded points that cannot be used (e.g. a
        point at the cut locus of the public centre), ``center_offset`` for a centre that cannot be used.
    """
    _check_scenario(scenario)
    manifold = scenario.build_manifold()
    if points is not None:
        _check_upload_cost(manifold, points)
    center = public_center(scenario, manifold)
    rng = np.random.default_rng(data_stream(scenario))
    try:
        raw, note = _make_data(scenario, manifold, center, rng, points)
        prepared = summarise(manifold, raw, center, scenario.radius, note, scenario)
    except InvalidParameterError as exc:
        param = getattr(exc, "param", None)
        if scenario.data == "upload" and param in _UPLOAD_PARAMS:
            raise _renamed(exc, "upload") from exc
        if param in _CENTER_PARAMS:
            raise _renamed(exc, "center_offset") from exc
        raise
    if not np.all(np.isfinite(prepared.data)):
        raise InvalidParameterError(
            "the data could not be represented in double precision around this public centre; move the centre "
            "closer to the canonical point", param="center_offset" if scenario.center_offset else "spread",
        )
    return prepared


def _check_upload_cost(manifold, points):
    """Uploaded records × coordinates within :data:`~geodp_core.constraints.MAX_RECORD_COORDINATES` (as generated data)."""
    coordinates = math.prod(manifold.point_shape)
    try:
        records = len(points) if points is not None and not np.isscalar(points) else 0
    except TypeError:
        records = 0  # not a sequence: validate_points names it
    if records * coordinates > MAX_RECORD_COORDINATES:
        raise InvalidParameterError(
            f"the upload has {records} records of {coordinates} coordinates on {manifold.label}, above the limit of "
            f"{MAX_RECORD_COORDINATES:,} coordinates; upload at most {largest_count(MAX_RECORD_COORDINATES, coordinates)} "
            "records",
            param="upload",
        )


def summarise(manifold, points, center, radius, note="", scenario=None, p=None):
    r"""Clip ``points`` to the PUBLIC ball :math:`B(m_0, r)`, take their Fréchet :math:`p`-mean and its public sensitivity.

    The one place a dataset is clipped and summarised (:func:`prepare` calls it on a scenario's data; the
    audit on its neighbouring datasets). The summary is :math:`\operatorname{argmin}_y \sum_i d(y, x_i)^p`
    (``p`` from the scenario, else 2: the Fréchet mean) and :math:`\Delta` =
    :func:`~geodp_core.summaries.p_mean_sensitivity` (the Fréchet-mean bound at ``p = 2``) capped at the
    manifold's diameter (``manifold.diameter``: no two points are farther apart), which depends on
    ``n``, ``r``, ``p`` and the curvature bound only: the heat-diffusion paper's Algorithm 3 (p-mean, its
    sensitivity, then any mechanism calibrated to it).

    Returns
    -------
    Prepared
    """
    if scenario is not None:
        _check_scenario(scenario)
    if p is None:
        p = 2.0 if scenario is None else scenario.p
    data, n_clipped = clip_to_ball(manifold, points, center, radius)
    if not np.all(np.isfinite(data)):
        return Prepared(scenario, manifold, center, data, int(n_clipped), None, float("nan"), note)
    true_mean = p_mean(manifold, data, p)
    # capped at the diameter (a bound above it says nothing: no two points are farther apart); every
    # mechanism's calibration notes the cap
    sensitivity = min(float(p_mean_sensitivity(len(data), radius, p, manifold.sensitivity_curvature)),
                      float(manifold.diameter))
    return Prepared(scenario, manifold, center, data, int(n_clipped), true_mean, sensitivity, note)


def public_options(name, manifold, center, radius, data, noise_seed):
    r"""Public calibration options of mechanism ``name``, as its spec declares them
    (:attr:`~geodp_core.mechanisms.registry.MechanismSpec.public_options`): footpoint and anchor = the PUBLIC
    centre, never the data; the conformal mechanism's public domain, and its records read only through the
    density it sanitises inside its own budget, with its own noise seed. ``{}`` for a mechanism without options.
    """
    build = mechanism_spec(name).public_options
    return {} if build is None else build(manifold, center, radius, data, noise_seed)


def scenario_options(name, prepared):
    """:func:`public_options` for a prepared scenario; the density-sanitisation noise has its own stream."""
    noise_seed = np.random.SeedSequence([prepared.scenario.seed, 7919]).generate_state(1)[0]
    return public_options(name, prepared.manifold, prepared.center, prepared.scenario.radius, prepared.data,
                          noise_seed)


def _internal(title, exc):
    return f"internal error in {title} ({type(exc).__name__}); the other mechanisms are unaffected"


def _failure(name, title, exc, calibration=None, stage=""):
    """The outcome of a failed stage: a clear message for a ValueError, a short note for anything else."""
    if isinstance(exc, UnavailableError):
        return Outcome(name, title, "unavailable", str(exc), calibration)
    if isinstance(exc, (GeoDPError, ValueError)):
        return Outcome(name, title, "error", f"{stage}{exc}", calibration)
    return Outcome(name, title, "error", _internal(title, exc), calibration)


def evaluate(prepared, mechanism_name, target, n_releases, rng, **options):
    """Calibrate one mechanism to ``target`` and draw ``n_releases`` releases around the true mean.

    Parameters
    ----------
    prepared : Prepared
    mechanism_name : str
        Registry name.
    target : Guarantee
        The ONE target every mechanism is calibrated to.
    n_releases : int
    rng : numpy.random.Generator
    **options
        Public calibration options overriding :func:`scenario_options`.

    Returns
    -------
    Outcome
        A mechanism's failure never raises: a ``ValueError`` (or geodp_core error) becomes the reason
        (``"unavailable"`` for an :class:`~geodp_core.exceptions.UnavailableError`), any other exception a short
        internal-error note.

    Raises
    ------
    InvalidParameterError
        When an argument of this call is itself invalid (``prepared`` not from :func:`prepare`, ``target`` not
        a guarantee, ``n_releases`` outside [1, 1e7], ``rng`` not a generator or seed): named, before any work.
    """
    _check_prepared(prepared)
    if not isinstance(target, Guarantee):
        raise InvalidParameterError(
            f"target must be a guarantee (PureDP, ApproxDP, GDP, RDP or ZCDP); got {type(target).__name__}",
            param="target")
    n_releases, rng = _check_draws(n_releases, rng)
    name, title = mechanism_name, mechanism_name
    try:
        mechanism = get_mechanism(name, prepared.manifold)
        title = mechanism.title or name
        ok, reason = mechanism.available()
        if not ok:
            return Outcome(name, title, "unavailable", reason)
        public_ball = (prepared.center, prepared.scenario.radius)  # contains the summary: range decided publicly
        calibration = mechanism.calibrate(target, prepared.sensitivity,
                                          **{"public_ball": public_ball, **scenario_options(name, prepared), **options})
    except Exception as exc:  # noqa: BLE001 - one error policy, isolated to this mechanism
        return _failure(name, title, exc)
    outcome = Outcome(name, title, "ok", "", calibration)
    outcome = resample(prepared, outcome, n_releases, rng)
    if outcome.status == "ok":
        try:
            outcome.utility_bound = mechanism.utility_bound(calibration, center=prepared.true_mean)
        except Exception:  # noqa: BLE001 - a bound we cannot evaluate is simply not shown
            outcome.utility_bound = None
    return outcome


def resample(prepared, outcome, n_releases, rng):
    """New releases for a calibrated outcome (same data, mean and calibration); a sampler's failure never raises
    (it becomes the outcome's reason); invalid arguments raise :class:`InvalidParameterError` naming them."""
    _check_prepared(prepared)
    if not isinstance(outcome, Outcome):
        raise InvalidParameterError(f"outcome must be an Outcome returned by evaluate(...); got "
                                    f"{type(outcome).__name__}", param="outcome")
    n_releases, rng = _check_draws(n_releases, rng)
    if outcome.calibration is None:
        return outcome
    try:
        mechanism = get_mechanism(outcome.name, prepared.manifold)
        releases = mechanism.sample(prepared.true_mean, outcome.calibration, n_releases, rng)
        distances = prepared.manifold.dist(prepared.true_mean, releases)
    except Exception as exc:  # noqa: BLE001
        return _failure(outcome.name, outcome.title, exc, outcome.calibration, stage="sampling failed: ")
    return Outcome(outcome.name, outcome.title, "ok", "", outcome.calibration, releases, distances,
                   outcome.utility_bound)
