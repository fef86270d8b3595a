r"""What curvature does to privacy: the same data scale, records and budget on :math:`S^d`, :math:`\mathbb{R}^d`
and :math:`H^d`, side by side, told in sentences generated from the measured numbers.

For each space the data are uniform in a geodesic ball of the same radius :math:`s` (the scenario's spread,
at most the public radius), clipped to the same public ball :math:`B(m_0, r)`, and ONE mechanism is calibrated
to the scenario's target through :func:`geodp_core.pipeline.prepare` / :func:`~geodp_core.pipeline.evaluate`.
Curvature acts in two ways (``docs/derivations/curvature_lesson.md``):

* **Sensitivity.** The Fréchet mean's sensitivity (Reimherr et al.)

  .. math::
      \Delta = \frac{2r\,(2 - h)}{n\,h},\qquad h = 2r\sqrt\kappa\cot(2r\sqrt\kappa)\ (\kappa > 0),\quad h = 1\ (\kappa \le 0),

  is :math:`2r/n` on flat and negatively curved spaces and larger on the sphere; the ratio
  :math:`(2 - h)/h` depends on the public radius only (1.03 at r = 0.1, 1.28 at 0.3, 7.28 at 0.7, unbounded as
  :math:`r \to \pi/4`).
* **Volume growth.** The same noise law spreads differently: the volume of a geodesic sphere of radius
  :math:`\rho` grows like :math:`\sin^{d-1}\rho`, :math:`\rho^{d-1}` or :math:`\sinh^{d-1}\rho`, so a law
  :math:`\propto e^{-\rho/\sigma}` puts more mass far away on :math:`H^d` (none at all once
  :math:`\sigma \ge 1/(d-1)`: it is not normalisable) and less on :math:`S^d`. The lesson measures it exactly: the
  median and 90 % quantile of the radius of that law at one common scale under each space's Jacobian.

Every sentence is generated from these numbers (:func:`lesson_sentences`): a comparison of mean release
distances is "larger"/"smaller" only when the interval estimate ± :data:`Z_SCORE` standard errors of the
difference excludes 0, "about the same" only when that whole interval lies within ± :data:`SAME_TOLERANCE` of the
reference, and otherwise "cannot be told apart"; surprising outcomes (a much larger Δ with hardly larger
distances) are explained from the volume numbers. :data:`READY_SETTINGS` are one-click settings where each sign of
curvature shows its effect plainly (verified by tests).

The study's shape (``Settings`` with declared constraints, ``run``, ``figures``) is
:mod:`geodp_core.studies.curvature`, which calls this module.
"""

import math
from dataclasses import dataclass, replace

import numpy as np

from geodp_core.constraints import MAX_RELEASE_COORDINATES, largest_count
from geodp_core.exceptions import GeoDPError, InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.base import unicode_powers
from geodp_core.pipeline import REAL_DATASETS, evaluate, prepare
from geodp_core.scenario import Scenario
from geodp_core.summaries import frechet_mean_sensitivity

__all__ = [
    "CURVATURE_SPACES",
    "Z_SCORE",
    "SAME_TOLERANCE",
    "VOLUME_TOLERANCE",
    "CurvatureRow",
    "VolumeRow",
    "Comparison",
    "CurvatureLesson",
    "ReadySetting",
    "READY_SETTINGS",
    "ready_scenario",
    "compare",
    "lesson_comparisons",
    "lesson_sentences",
    "curvature_lesson",
    "describe_noise",
]

#: The three model spaces compared, with their curvature.
CURVATURE_SPACES = (("sphere", "+1"), ("euclidean", "0"), ("hyperbolic", "−1"))
_LESSON_TAG = 303
#: Half-width of the interval estimates, in standard errors (two-sided coverage 99.7 % under normality).
Z_SCORE = 3.0
#: "About the same": the whole interval of the difference lies within this fraction of the reference value.
SAME_TOLERANCE = 0.10
#: Exact volume medians within this fraction of the flat one: the volume growth is not visible at this scale.
VOLUME_TOLERANCE = 0.02
#: Default releases per space (the intervals shrink like 1/√N).
DEFAULT_RELEASES = 2000


@dataclass(frozen=True)
class CurvatureRow:
    """One space of the lesson: ``status`` ``"ok"`` or ``"unavailable"`` (with ``reason``).

    ``curvature_sign`` is +1, 0 or −1; ``symbol`` the typeset name (``S²``); ``mean_distance`` and
    ``standard_error`` the mean release distance to the true mean and its standard error.
    """

    space: str
    label: str
    curvature: str
    sensitivity: float
    status: str
    reason: str
    noise: dict
    mean_distance: float
    standard_error: float
    distances: np.ndarray
    curvature_sign: int = 0
    symbol: str = ""


@dataclass(frozen=True)
class VolumeRow:
    r"""The radius of the law :math:`\propto e^{-\rho/\sigma} J(\rho)` on one space at the lesson's common scale:
    its median and 90 % quantile (exact), or ``available = False`` with the reason (not normalisable)."""

    symbol: str
    curvature_sign: int
    growth: str
    median: float
    q90: float
    available: bool
    reason: str = ""
    radii: np.ndarray = None
    density: np.ndarray = None


@dataclass(frozen=True)
class Comparison:
    """Mean release distance on ``subject`` against ``reference``: the difference, its standard error, the
    interval ± :data:`Z_SCORE` standard errors and the verdict ``"larger"``, ``"smaller"``, ``"about the same"``
    or ``"undecided"`` (see :func:`compare`)."""

    subject: str
    reference: str
    value: float
    value_se: float
    reference_value: float
    reference_se: float
    verdict: str

    @property
    def difference(self):
        return self.value - self.reference_value

    @property
    def standard_error(self):
        return float(math.hypot(self.value_se, self.reference_se))

    @property
    def interval(self):
        """``(low, high)`` of the difference ± :data:`Z_SCORE` standard errors."""
        return self.difference - Z_SCORE * self.standard_error, self.difference + Z_SCORE * self.standard_error

    @property
    def ratio(self):
        return self.value / self.reference_value if self.reference_value > 0 else math.inf


def compare(value, value_se, reference, reference_se, z=Z_SCORE, tolerance=SAME_TOLERANCE):
    r"""The verdict on ``value`` against ``reference`` (means with standard errors).

    With :math:`D = v - w`, :math:`s = \sqrt{s_v^2 + s_w^2}` and the interval :math:`[D - zs, D + zs]`:
    ``"larger"`` if it lies above 0, ``"smaller"`` if below 0, ``"about the same"`` if it lies within
    :math:`\pm\,\text{tolerance}\cdot|w|`, else ``"undecided"`` (the data cannot tell the two apart, nor show them
    close).
    """
    diff = float(value) - float(reference)
    half = float(z) * float(math.hypot(value_se, reference_se))
    if not all(map(math.isfinite, (diff, half))):
        raise InvalidParameterError(f"compare needs finite means and standard errors; got {value}, {value_se}, "
                                    f"{reference}, {reference_se}", param="value")
    if diff - half > 0:
        return "larger"
    if diff + half < 0:
        return "smaller"
    if max(abs(diff - half), abs(diff + half)) <= tolerance * abs(float(reference)):
        return "about the same"
    return "undecided"


@dataclass(frozen=True)
class ReadySetting:
    """A one-click setting where one sign of curvature shows its effect plainly: ``changes`` are scenario fields."""

    key: str
    title: str
    curvature_sign: int
    shows: str
    changes: tuple

    def scenario(self, scenario):
        """``scenario`` with this setting's fields (a synthetic ball on the sphere, the lesson's own inputs)."""
        return scenario.with_changes(manifold="sphere", metric="", data="uniform_ball", center_offset=(),
                                     data_class=None, p=2.0, **dict(self.changes))


#: Settings found and verified numerically (tests/test_curvature_lesson.py): positive curvature shows through the
#: sensitivity, zero curvature as "every space is flat at small scales", negative curvature through volume growth.
READY_SETTINGS = (
    ReadySetting("positive", "Sphere: a larger sensitivity", 1,
                 "At the public radius r = 0.7 one record moves the sphere's mean 7.28× as far as on flat space, "
                 "and the releases land about 7× as far.",
                 (("dim", 2), ("radius", 0.7), ("spread", 0.7), ("n", 100), ("notion", "pure_dp"), ("eps", 1.0),
                  ("mechanisms", ("riemannian_laplace",)))),
    ReadySetting("zero", "Flat: small scales look flat", 0,
                 "With a small public radius r = 0.1 and little noise, curvature is invisible: the three spaces give "
                 "about the same distances.",
                 (("dim", 3), ("radius", 0.1), ("spread", 0.1), ("n", 100), ("notion", "pure_dp"), ("eps", 1.0),
                  ("mechanisms", ("riemannian_laplace",)))),
    ReadySetting("negative", "Hyperbolic: volume growth", -1,
                 "In dimension 5 with much noise (ε = 0.1), flat and hyperbolic space share Δ, yet hyperbolic releases "
                 "land farther: the volume grows like sinh⁴ρ.",
                 (("dim", 5), ("radius", 0.7), ("spread", 0.7), ("n", 100), ("notion", "pure_dp"), ("eps", 0.1),
                  ("mechanisms", ("riemannian_laplace",)))),
)


def ready_scenario(scenario, key):
    """The scenario of the ready setting ``key`` (one of :data:`READY_SETTINGS`), built on ``scenario``."""
    by_key = {s.key: s for s in READY_SETTINGS}
    if key not in by_key:
        raise InvalidParameterError(f"ready setting must be one of {', '.join(by_key)}; got {key!r}", param="setting")
    return by_key[key].scenario(scenario)


@dataclass(frozen=True)
class CurvatureLesson:
    """Rows for :math:`S^d`, :math:`\\mathbb{R}^d`, :math:`H^d`, the common setting, the numbers and the sentences.

    ``sensitivity_ratio`` is Δ on the sphere over the flat Δ at ``radius``; ``other_radius`` /
    ``other_ratio`` the same ratio at another radius (it depends on r only); ``volume_scale`` σ of the volume
    rows; ``comparisons`` (sphere vs flat, hyperbolic vs flat) and ``sentences`` are derived from the rows.
    """

    rows: tuple
    mechanism: str
    mechanism_title: str
    dim: int
    radius: float
    spread: float
    n: int
    target: str
    sentence: str = ""
    n_releases: int = 0
    sensitivity_ratio: float = 1.0
    other_radius: float = 0.3
    other_ratio: float = 1.0
    requested_radius: float = float("nan")
    volume_scale: float = float("nan")
    volume: tuple = ()
    comparisons: tuple = ()
    sentences: tuple = ()


def _common_radius(radius, dim):
    """The public radius used on all three spaces: the scenario's, kept below the sphere's limit r* = π/4."""
    return float(min(radius, 0.95 * get_manifold("sphere", dim).ball_radius_limit))


def _growth(sign, dim):
    """How the volume of a geodesic sphere of radius ρ grows, in words/symbols (by the sign of the curvature)."""
    if dim == 1:
        return "1 (a curve: no growth)"
    base = {1: "sin", 0: "", -1: "sinh"}[sign]
    power = unicode_powers(f"^{dim - 1}") if dim > 2 else ""
    return f"{base}{power} ρ" if base else f"ρ{power}"


def _volume_rows(manifolds, signs, scale):
    """The radius law ∝ e^{−ρ/σ} J(ρ) at ``scale`` on each space: exact median and 90 % quantile."""
    out, laws = [], []
    for manifold in manifolds:
        try:
            laws.append(manifold.radial_law("laplace", scale))
        except GeoDPError:
            laws.append(None)
    top = max(float(law.ppf(0.995)) for law in laws if law is not None)
    grid = np.linspace(0.0, top, 121)
    for manifold, law, sign in zip(manifolds, laws, signs):
        growth = _growth(sign, manifold.dim)
        if law is not None:
            inside = grid <= law.upper
            density = np.zeros_like(grid)
            density[inside] = law.pdf(grid[inside])
            out.append(VolumeRow(manifold.symbol, sign, growth, float(law.ppf(0.5)), float(law.ppf(0.9)), True,
                                 radii=grid, density=density))
        else:
            limit = 1.0 / (manifold.dim - 1) if manifold.dim > 1 else math.inf
            out.append(VolumeRow(manifold.symbol, sign, growth, math.nan, math.nan, False,
                                 f"no such law on {manifold.symbol}: its volume grows like exp((d − 1)ρ) with "
                                 f"d − 1 = {manifold.dim - 1}, faster than exp(−ρ/σ) decays once σ ≥ 1/(d − 1) = "
                                 f"{limit:.3g}, so the law has infinite mass"))
    return tuple(out)


def curvature_lesson(scenario, mechanism=None, n_releases=DEFAULT_RELEASES):
    """The same data scale and budget on :math:`S^d`, :math:`\\mathbb{R}^d` and :math:`H^d`.

    Parameters
    ----------
    scenario : Scenario
        Its intrinsic dimension (``dim`` on S^d, H^d, R^d; m(m+1)/2 on SPD(m); 2k - 4 on Σᵏ₂), ``n``, ``radius``,
        ``spread``, target and seed
        are used; the data kind is replaced by a uniform geodesic ball of radius ``min(spread, radius)``.
    mechanism : str, optional
        Registry name (default: the scenario's first mechanism).
    n_releases : int
        Releases per space (at most 5000, and at most the release cost limit in this dimension).

    Returns
    -------
    CurvatureLesson
    """
    if not isinstance(scenario, Scenario):
        raise InvalidParameterError(f"scenario must be a Scenario; got {type(scenario).__name__}", param="scenario")
    name = mechanism or scenario.mechanisms[0]
    dim = scenario.build_manifold().dim  # intrinsic: SPD(m) m(m+1)/2, Kendall 2k - 4
    n_releases = int(min(max(int(n_releases), 10), 5000, largest_count(MAX_RELEASE_COORDINATES, 3 * (dim + 1))))
    radius = _common_radius(scenario.radius, dim)
    spread = float(min(scenario.spread, radius))
    n = scenario.n if scenario.data not in (*REAL_DATASETS, "upload") else 100  # their own n: a common one
    rows, manifolds, title = [], [], name
    for j, (space, curvature) in enumerate(CURVATURE_SPACES):
        sub = scenario.with_changes(manifold=space, dim=dim, metric="", data="uniform_ball", spread=spread,
                                    radius=radius, n=n, center_offset=(), mechanisms=(name,), data_class=None)
        prepared = prepare(sub)
        manifolds.append(prepared.manifold)
        rng = np.random.default_rng(np.random.SeedSequence(scenario.seed, spawn_key=(_LESSON_TAG, j)))
        outcome = evaluate(prepared, name, sub.target, n_releases, rng)
        title = outcome.title
        ok = outcome.status == "ok"
        noise = {k: float(v) for k, v in (outcome.calibration.noise.items() if ok else ())
                 if isinstance(v, (int, float)) and not isinstance(v, bool)}
        rows.append(CurvatureRow(
            space=space, label=prepared.manifold.label, curvature=curvature, sensitivity=prepared.sensitivity,
            status=outcome.status, reason=outcome.reason, noise=noise,
            mean_distance=outcome.mean_distance if ok else float("nan"),
            standard_error=outcome.standard_error if ok else float("nan"),
            distances=outcome.distances if ok else np.empty(0),
            curvature_sign=int(np.sign(float(curvature.replace("−", "-")))), symbol=prepared.manifold.symbol,
        ))
    flat = next(r for r in rows if r.curvature_sign == 0)
    sphere = next(r for r in rows if r.curvature_sign > 0)
    other = 0.3 if radius > 0.45 else 0.7
    other_ratio = frechet_mean_sensitivity(n, other, 1.0) / (2.0 * other / n)
    # the common scale of the volume rows: the Laplace scale whose flat mean radius d·σ is the flat releases' mean
    scale = flat.mean_distance / dim if flat.status == "ok" and flat.mean_distance > 0 else float("nan")
    volume = _volume_rows(manifolds, [r.curvature_sign for r in rows], scale) if math.isfinite(scale) else ()
    lesson = CurvatureLesson(
        rows=tuple(rows), mechanism=name, mechanism_title=title, dim=dim, radius=radius, spread=spread, n=n,
        target=scenario.target.describe(), n_releases=n_releases, requested_radius=float(scenario.radius),
        sensitivity_ratio=sphere.sensitivity / flat.sensitivity, other_radius=other, other_ratio=other_ratio,
        volume_scale=scale, volume=volume,
    )
    return explained(lesson)


def explained(lesson):
    """``lesson`` with its comparisons and sentences (re)generated from its numbers."""
    comparisons = lesson_comparisons(lesson.rows)
    lesson = replace(lesson, comparisons=comparisons)
    sentences = lesson_sentences(lesson)
    return replace(lesson, sentences=sentences, sentence=" ".join(sentences))


def lesson_comparisons(rows):
    """Mean release distance on each curved space against the flat one (available spaces only)."""
    flat = next(r for r in rows if r.curvature_sign == 0)
    out = []
    if flat.status != "ok":
        return ()
    for row in rows:
        if row is flat or row.status != "ok":
            continue
        verdict = compare(row.mean_distance, row.standard_error, flat.mean_distance, flat.standard_error)
        out.append(Comparison(row.symbol, flat.symbol, row.mean_distance, row.standard_error, flat.mean_distance,
                              flat.standard_error, verdict))
    return tuple(out)


_NOISE_SYMBOLS = {"sigma": "σ", "t": "diffusion time t", "rho": "ρ", "lam": "λ", "kappa": "κ", "tau": "τ",
                  "mu": "μ", "eps": "ε", "sigma_first_stage": "first-stage σ"}


def describe_noise(noise):
    """A calibration's numeric noise parameters in symbols (``{"sigma": 0.1}`` → ``"σ = 0.1"``), never code names."""
    return ", ".join(f"{_NOISE_SYMBOLS.get(k, k.replace('_', ' '))} = {v:.3g}" for k, v in noise.items())


def _pm(value, se):
    return f"{value:.3g} ± {Z_SCORE * se:.2g}"


def _sensitivity_sentences(lesson, sphere, flat, hyperbolic):
    ratio = lesson.sensitivity_ratio
    r = lesson.radius
    shared = math.isclose(flat.sensitivity, hyperbolic.sensitivity, rel_tol=1e-9)
    flat_words = f"{flat.symbol} or {hyperbolic.symbol}" if shared else flat.symbol
    if ratio < 1.0 + 1e-9:
        return (f"At the public radius r = {r:.3g} the mean's sensitivity is the same on the three spaces "
                f"(Δ = {flat.sensitivity:.3g} = 2r/n): in dimension 1 there is no curvature.",)
    capped = (f" (your r = {lesson.requested_radius:g} is brought inside the sphere's limit π/4 here)"
              if lesson.requested_radius > r + 1e-12 else "")
    text = (f"At the public radius r = {r:.3g}{capped}, one record can move the mean {ratio:.3g}× as far on {sphere.symbol} "
            f"as on {flat_words} (Δ = {sphere.sensitivity:.3g} against 2r/n = {flat.sensitivity:.3g}): on positive "
            "curvature geodesics converge.")
    more = "smaller" if lesson.other_radius < r else "larger"
    text += (f" This ratio is a property of the radius r, not of the space alone: at the {more} radius "
             f"r = {lesson.other_radius:g} it is {lesson.other_ratio:.3g}×; it tends to 1 as r → 0 and grows without "
             "bound as r approaches π/4.")
    if not shared:
        text += f" On {hyperbolic.symbol}, Δ = {hyperbolic.sensitivity:.3g}."
    return (text,)


def _distance_sentences(lesson, sphere, flat, hyperbolic):
    ok = [r for r in lesson.rows if r.status == "ok"]
    if flat.status != "ok" or len(ok) < 2:
        return ()
    listed = ", ".join(f"{_pm(r.mean_distance, r.standard_error)} rad on {r.symbol}" for r in ok)
    out = [f"{lesson.mechanism_title} releases land on average {listed} from the true mean (mean ± "
           f"{Z_SCORE:g} standard errors, {lesson.n_releases} releases each)."]
    by = {c.subject: c for c in lesson.comparisons}
    for row in (sphere, hyperbolic):
        c = by.get(row.symbol)
        if c is None:
            continue
        low, high = c.interval
        if c.verdict == "larger":
            text = f"On {row.symbol} they land farther than on {flat.symbol} ({c.ratio:.3g}× as far)"
        elif c.verdict == "smaller":
            text = f"On {row.symbol} they land closer than on {flat.symbol} ({c.ratio:.3g}× as far)"
        elif c.verdict == "about the same":
            text = (f"On {row.symbol} they land about as far as on {flat.symbol} (the difference, {low:.2g} to "
                    f"{high:.2g} rad, is within ±{SAME_TOLERANCE:.0%} of the flat value)")
        else:
            text = (f"{row.symbol} and {flat.symbol} cannot be told apart with {lesson.n_releases} releases (the "
                    f"difference, {low:.2g} to {high:.2g} rad, is neither clearly non-zero nor within "
                    f"±{SAME_TOLERANCE:.0%} of the flat value)")
        text += _why(lesson, row, c)
        out.append(text + ".")
    return tuple(out)


def _volume_by_sign(lesson):
    return {v.curvature_sign: v for v in lesson.volume}


def _why(lesson, row, c):
    """The explanation of a comparison from the numbers (sensitivity, volume growth)."""
    vol = _volume_by_sign(lesson)
    if row.curvature_sign > 0:
        ratio = lesson.sensitivity_ratio
        if ratio >= 1.5 and c.ratio < 0.5 * ratio:
            uniform = get_manifold("sphere", lesson.dim).uniform_mean_distance
            if row.mean_distance >= 0.8 * uniform:
                return (f", far less than the {ratio:.3g}× larger Δ suggests: the releases on {row.symbol} are close "
                        f"to uniform over the sphere (a uniform point lies π/2 ≈ {uniform:.3g} rad away on average, "
                        f"and the sphere's diameter is π), so more noise cannot push them farther")
            v, f = vol.get(1), vol.get(0)
            if _visible(v, f):
                return (f", less than the {ratio:.3g}× larger Δ suggests: the sphere's volume grows like {v.growth}, "
                        f"more slowly than {f.growth}, so its noise law keeps more mass near the centre (the same "
                        f"law's median radius is {v.median / f.median - 1:+.0%} there)")
            return f", less than the {ratio:.3g}× larger Δ suggests"
        if c.verdict == "larger" and ratio >= 1.5:
            return f", as its {ratio:.3g}× larger Δ calls for more noise"
        return ""
    flat = next(r for r in lesson.rows if r.curvature_sign == 0)
    same_delta = math.isclose(row.sensitivity, flat.sensitivity, rel_tol=1e-9)
    v, f = vol.get(-1), vol.get(0)
    if c.verdict == "larger" and same_delta and _visible(v, f):
        return (f" although Δ is the same: the volume of a geodesic sphere grows like {v.growth} there, against "
                f"{f.growth}, so the same law has more room far away (its median radius is "
                f"{v.median / f.median - 1:+.0%} there)")
    if c.verdict in ("larger", "smaller") and same_delta:
        gap = f" (the same law's median radius differs by {v.median / f.median - 1:+.1%})" if (
            v is not None and f is not None and v.available and f.available) else ""
        return (f" although Δ is the same and volume growth is not what differs at this scale{gap}: the mechanism "
                f"is built differently on each space ({describe_noise(row.noise) or 'no noise scale'} against "
                f"{describe_noise(flat.noise) or 'no noise scale'})")
    if c.verdict in ("about the same", "undecided") and same_delta and v is not None and v.available:
        gap = v.median / f.median - 1.0
        if not _visible(v, f):
            return (f"; Δ is the same and the volume growth is small at this noise scale (the same law's median "
                    f"radius is {gap:+.1%} on {row.symbol})")
        if c.verdict == "undecided":
            return (f"; Δ is the same, and volume growth alone would move the same law's median radius by {gap:+.0%} "
                    "there: more releases are needed to see it in these distances")
        return (f"; Δ is the same, although volume growth alone would move the same law's median radius by "
                f"{gap:+.0%} there: the mechanism is built differently on each space ({describe_noise(row.noise)} "
                f"against {describe_noise(flat.noise)})")
    if c.verdict == "smaller" and row.noise != flat.noise:
        return (f"; the mechanism is calibrated differently there ({describe_noise(row.noise)} against "
                f"{describe_noise(flat.noise)})")
    return ""


def _visible(v, f):
    """Whether the volume rows ``v`` (a curved space) and ``f`` (flat) show volume growth: both laws exist and their
    medians differ by more than :data:`VOLUME_TOLERANCE`."""
    return (v is not None and f is not None and v.available and f.available
            and abs(v.median / f.median - 1.0) > VOLUME_TOLERANCE)


def _volume_sentences(lesson):
    if not lesson.volume:
        return ()
    vol = _volume_by_sign(lesson)
    flat = vol[0]
    parts = [f"{v.median:.3g} on {v.symbol}" if v.available else f"none on {v.symbol}" for v in lesson.volume]
    text = (f"Volume growth, measured exactly: the same noise law exp(−ρ/σ) with σ = {lesson.volume_scale:.3g} (the "
            f"scale whose flat mean radius d·σ is the flat releases' mean distance) has median radius "
            + ", ".join(parts) + "; the volume of a geodesic sphere of radius ρ grows like "
            + ", ".join(f"{v.growth} on {v.symbol}" for v in lesson.volume) + ".")
    curved = [v for v in lesson.volume if v.curvature_sign != 0 and v.available]
    if curved and all(abs(v.median / flat.median - 1.0) <= VOLUME_TOLERANCE for v in curved):
        text += (f" At this scale the volume growth is not visible (the medians agree within {VOLUME_TOLERANCE:.0%}): "
                 "curvature acts here only through Δ.")
    elif curved:
        parts = "; ".join(f"on {v.symbol} the median is {v.median / flat.median:.3g}× the flat one" for v in curved)
        text += " " + parts[0].upper() + parts[1:] + "."
    for v in lesson.volume:
        if not v.available:
            text += f" There is {v.reason}."
    return (text,)


def _unavailable_sentences(lesson):
    out = []
    for row in lesson.rows:
        if row.status != "ok":
            out.append(f"{lesson.mechanism_title} is unavailable on {row.symbol}: "
                       f"{unicode_powers(row.reason).rstrip('.')}.")
    return tuple(out)


def lesson_sentences(lesson):
    """The lesson's sentences, each generated from its numbers (see the module docstring for the rules)."""
    by = {r.curvature_sign: r for r in lesson.rows}
    sphere, flat, hyperbolic = by[1], by[0], by[-1]
    return (_sensitivity_sentences(lesson, sphere, flat, hyperbolic)
            + _distance_sentences(lesson, sphere, flat, hyperbolic)
            + _volume_sentences(lesson)
            + _unavailable_sentences(lesson))
