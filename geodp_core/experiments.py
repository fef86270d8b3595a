r"""Utility curves, sweeps and accounting tables (docs/specification.md §4.5, §6): vectorised Monte Carlo, explicit seeds.

The utility of a release :math:`\tilde\eta` is its distance to the true (non-private)
Fréchet mean :math:`\hat\eta` of the dataset,

.. math::
    U = \mathbb{E}\,\mathrm{dist}(\tilde\eta, \hat\eta)
    \approx \bar U = \frac1R \sum_{k=1}^R \mathrm{dist}(\tilde\eta_k, \hat\eta),
    \qquad \mathrm{s.e.} = \frac{s}{\sqrt R},

estimated from :math:`R` independent releases drawn for ONE dataset and its ONE mean
(the dataset, the public ball and the true mean are exactly those of
:func:`geodp_core.explorer.run_scenario` for the same scenario). Every mechanism is
calibrated to ONE target guarantee per grid point (natively or through a valid
conversion, docs/specification.md §4.5); a mechanism that cannot meet it is reported ``unavailable`` with
the reason, never silently dropped.

Randomness: the data use the first child of ``SeedSequence(scenario.seed)`` (as the
Explorer does); the releases of mechanism ``m`` (registry index) at grid point ``j`` use
``SeedSequence(scenario.seed, spawn_key=(tag, m, j))``, so a result does not depend on
which other mechanisms are selected and the same scenario gives the same frame.

Also here (plain computations used by the accounting page and by notebooks):
:func:`gdp_mu_curves` (exact :math:`\mu(\sigma)` of the Riemannian Gaussian on
:math:`S^1, S^2, \mathbb{R}`), :func:`conversion_table` and :func:`native_budget_table`.

The study's shape (``Settings`` with declared constraints, ``run``, ``figures``) is
:mod:`geodp_core.studies.curves`, which calls this module.
"""

import math

import numpy as np
import pandas as pd
from scipy import optimize

from geodp_core._validation import (
    check_finite_array,
    check_int,
    check_option,
    check_real,
)
from geodp_core.exceptions import GeoDPError, InvalidParameterError, UnavailableError
from geodp_core.executors import check_executor, run_cells
from geodp_core.mechanisms.registry import MECHANISM_NAMES, mechanism_class
from geodp_core.pipeline import (
    REAL_DATASETS,
    evaluate,
    mean_and_standard_error,
    prepare,
)
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    Guarantee,
    PureDP,
    eps_dp_to_gdp,
    eps_dp_to_rdp,
    gdp_budget,
    gdp_delta,
    implies,
    log_gdp_delta,
    mironov_rdp_to_approx_dp,
    pure_dp_budget,
    rdp_to_approx_dp,
    zcdp_budget,
    zcdp_to_approx_dp,
)
from geodp_core.scenario import Scenario

__all__ = [
    "BUDGET_PARAMETERS",
    "BUDGET_SYMBOLS",
    "CURVE_COLUMNS",
    "SWEEP_PARAMETERS",
    "budget_parameter",
    "target_for_budget",
    "grid_values",
    "utility_curve",
    "sweep",
    "gdp_mu_curves",
    "GDP_FIGURE_SPACES",
    "conversion_table",
    "native_budget_table",
]

#: Target notion -> the scenario field that is its budget.
BUDGET_PARAMETERS = {"pure_dp": "eps", "approx_dp": "eps", "rdp": "eps", "gdp": "mu", "zcdp": "rho"}
#: Budget field -> display symbol.
BUDGET_SYMBOLS = {"eps": "ε", "mu": "μ", "rho": "ρ"}
#: Scenario fields a :func:`sweep` can vary.
SWEEP_PARAMETERS = ("n", "dim", "spread", "p")
#: Columns of the frame returned by :func:`utility_curve` (``sweep`` adds ``parameter`` and ``value``).
CURVE_COLUMNS = (
    "mechanism", "title", "budget", "target", "mean", "se", "label", "status", "reason", "bound", "achieved",
    "sensitivity", "n_reps",
)
#: ``(space, dim, label)`` of the GDP paper's Figure 1 (plus S^2).
GDP_FIGURE_SPACES = (("sphere", 1, "circle S¹"), ("sphere", 2, "sphere S²"), ("euclidean", 1, "real line ℝ"))

_CURVE_TAG = 101
_SWEEP_TAG = 202
_REAL_DATA = (*REAL_DATASETS, "upload")
_MAX_GRID = 200
_MAX_REPS = 200_000


# =============================================================================== helpers
def budget_parameter(notion):
    """The scenario field holding the budget of a target notion (``"eps"``, ``"mu"`` or ``"rho"``)."""
    return BUDGET_PARAMETERS[check_option(notion, "notion", tuple(BUDGET_PARAMETERS))]


def target_for_budget(scenario, value):
    """The scenario's target guarantee with its budget replaced by ``value``.

    ``pure_dp``: ``PureDP(value)``; ``approx_dp``: ``ApproxDP(value, scenario.delta)``;
    ``rdp``: ``RDP(scenario.alpha, value)``; ``gdp``: ``GDP(value)``; ``zcdp``: ``ZCDP(value)``.
    """
    _check_scenario(scenario)
    params = dict(eps=scenario.eps, delta=scenario.delta, mu=scenario.mu, alpha=scenario.alpha, rho=scenario.rho)
    params[budget_parameter(scenario.notion)] = value
    return Guarantee.from_notion(scenario.notion, **params)


def grid_values(low, high, count, log=True, integer=False):
    r"""A validated grid from ``low`` to ``high`` with ``count`` points.

    .. math::
        x_k = \mathrm{low}\,(\mathrm{high}/\mathrm{low})^{k/(\mathrm{count}-1)}\ \text{(log)}, \qquad
        x_k = \mathrm{low} + k\,\frac{\mathrm{high} - \mathrm{low}}{\mathrm{count} - 1}\ \text{(linear)},

    rounded to distinct integers when ``integer`` (so there may be fewer than ``count``).

    Parameters
    ----------
    low, high : float
        ``0 < low < high`` (``low`` may be 0 only for a linear grid).
    count : int
        Number of points, in ``[2, 200]``.
    log : bool
        Log-spaced (budgets, n) or linear.
    integer : bool
        Round to distinct integers.

    Returns
    -------
    list of float or list of int
    """
    for flag, name in ((log, "log"), (integer, "integer")):
        if not isinstance(flag, (bool, np.bool_)):
            raise InvalidParameterError(f"{name} must be True or False; got {flag!r}", param=name)
    low = check_real(low, "low", low=0.0, low_closed=not log)
    high = check_real(high, "high", low=0.0)
    if high <= low:
        raise InvalidParameterError(f"high must be greater than low = {low:g}; got high={high!r}", param="high")
    count = check_int(count, "count", low=2, high=_MAX_GRID)
    grid = np.geomspace(low, high, count) if log else np.linspace(low, high, count)
    if integer:
        return [int(v) for v in np.unique(np.round(grid).astype(int))]
    return [float(v) for v in grid]


def _check_scenario(scenario):
    if not isinstance(scenario, Scenario):
        raise InvalidParameterError(
            f"scenario must be a geodp_core.scenario.Scenario; got {type(scenario).__name__}", param="scenario"
        )
    return scenario


def _check_mechanisms(mechanisms, scenario):
    if mechanisms is None:
        return tuple(scenario.mechanisms)
    if isinstance(mechanisms, str):
        mechanisms = [m for m in mechanisms.split(",") if m]
    names = tuple(dict.fromkeys(check_option(m, "mechanisms", MECHANISM_NAMES) for m in mechanisms))
    if not names:
        raise InvalidParameterError("mechanisms must name at least one mechanism; got an empty list",
                                    param="mechanisms")
    return names


def _check_progress(progress):
    if progress is not None and not callable(progress):
        raise InvalidParameterError(
            f"progress must be a callable progress(fraction) or None; got {type(progress).__name__}", param="progress"
        )
    return progress


def _check_grid(values, name, low=0.0, high=None):
    arr = check_finite_array(values, name, ndim=1, min_rows=1)
    if arr.size > _MAX_GRID:
        raise InvalidParameterError(f"{name} must have at most {_MAX_GRID} values; got {arr.size}", param=name)
    for v in arr:
        check_real(float(v), name, low=low, high=high)
    return arr


def _nan_row(name, title, status, reason):
    return dict(mechanism=name, title=title, mean=np.nan, se=np.nan, label="unavailable", status=status,
                reason=reason, bound=np.nan, achieved="")


def _evaluate(name, prepared, target, n_reps, stream):
    """One grid cell: :func:`~geodp_core.pipeline.evaluate` (one error policy; never raises), summarised."""
    outcome = evaluate(prepared, name, target, n_reps, np.random.default_rng(stream))
    if outcome.status != "ok":
        return _nan_row(name, outcome.title, outcome.status, outcome.reason)
    mean, se = mean_and_standard_error(outcome.distances)
    bound = np.nan if outcome.utility_bound is None else float(outcome.utility_bound)
    return dict(
        mechanism=name, title=outcome.title, mean=mean, se=se, label=outcome.calibration.label, status="ok",
        reason="", bound=bound, achieved=outcome.calibration.achieved.describe(),
    )


_PREPARED_CACHE = {}
_PREPARED_CACHE_SIZE = 8


def _prepared(scenario, points):
    """:func:`prepare` once per (scenario, points) in each process (bounded cache; cells of one study share it)."""
    key = (scenario, None if points is None else (points.shape, points.tobytes()))
    if key not in _PREPARED_CACHE:
        if len(_PREPARED_CACHE) >= _PREPARED_CACHE_SIZE:
            _PREPARED_CACHE.pop(next(iter(_PREPARED_CACHE)))
        try:
            _PREPARED_CACHE[key] = prepare(scenario, points)
        except Exception as exc:  # noqa: BLE001 - kept: every cell of this dataset reports it
            _PREPARED_CACHE[key] = exc
    return _PREPARED_CACHE[key]


def _cell(scenario, points, name, target, n_reps, stream, data_label=None):
    """One (mechanism, grid point) cell of a curve or sweep (module level: runs on any executor).

    A dataset that cannot be prepared raises (``data_label=None``: the curve's one dataset, the caller shows the
    error beside its control) or gives an error row naming ``data_label`` (a sweep: the other values still run).
    """
    prepared = _prepared(scenario, points)
    if isinstance(prepared, Exception):
        if data_label is None:
            raise prepared
        exc = prepared
        reason = str(exc) if isinstance(exc, (GeoDPError, ValueError)) else f"internal error in the data ({type(exc).__name__})"
        row = _nan_row(name, _title(name), "error", f"data at {data_label}: {reason}")
        row.update(target=target.describe(), sensitivity=np.nan, n_reps=n_reps)
        return row
    row = _evaluate(name, prepared, target, n_reps, stream)
    row.update(target=target.describe(), sensitivity=prepared.sensitivity, n_reps=n_reps)
    return row


def _title(name):
    try:
        return mechanism_class(name).title or name
    except Exception:  # noqa: BLE001
        return name


def _release_stream(scenario, tag, name, index):
    return np.random.SeedSequence(scenario.seed, spawn_key=(tag, MECHANISM_NAMES.index(name), index))


# =============================================================================== utility curve
def utility_curve(scenario, budgets, n_reps, mechanisms=None, progress=None, points=None, executor=None):
    r"""Mean distance of the private release to the true mean against the privacy budget.

    For every budget :math:`b` of the scenario's target notion (:math:`\varepsilon` for
    ``pure_dp``/``approx_dp``/``rdp``, :math:`\mu` for ``gdp``, :math:`\rho` for ``zcdp``;
    ``delta`` and ``alpha`` stay the scenario's) and every mechanism, calibrate to that ONE
    target, draw ``n_reps`` releases in one vectorised ``sample`` call and record

    .. math::
        \bar U(b) = \frac1R\sum_{k=1}^R \mathrm{dist}(\tilde\eta_k, \hat\eta), \qquad
        \mathrm{s.e.}(b) = \frac{s(b)}{\sqrt R},

    the honesty label, the reason when unavailable, and the source paper's bound on
    :math:`\mathbb{E}\,\mathrm{dist}` when known (``mechanism.utility_bound``).

    Parameters
    ----------
    scenario : Scenario
        Manifold, data, public ball, target notion and seed.
    budgets : array_like, shape (k,)
        Budgets in ``(0, 1000]`` (at most 200 values).
    n_reps : int
        Releases per (mechanism, budget), in ``[2, 200000]``.
    mechanisms : sequence of str, optional
        Registry names (default: ``scenario.mechanisms``).
    progress : callable, optional
        Called as ``progress(fraction)`` with ``fraction`` in ``(0, 1]`` after every cell.
    points : array_like, optional
        Uploaded points when ``scenario.data == "upload"``.
    executor : optional
        Where the cells run (:mod:`geodp_core.executors`: local by default, a ``concurrent.futures``
        executor, a Dask client or a scheduler address); the frame is identical for every executor.

    Returns
    -------
    pandas.DataFrame
        One row per (mechanism, budget), columns :data:`CURVE_COLUMNS`: ``mean``/``se``/``bound``
        are NaN for unavailable cells; ``status`` is ``"ok"``, ``"unavailable"`` or ``"error"``;
        ``target`` and ``achieved`` describe the requested and the achieved guarantee.
    """
    scenario = _check_scenario(scenario)
    budgets = _check_grid(budgets, "budgets", low=0.0, high=1000.0)
    n_reps = check_int(n_reps, "n_reps", low=2, high=_MAX_REPS)
    names = _check_mechanisms(mechanisms, scenario)
    progress = _check_progress(progress)
    targets = [target_for_budget(scenario, float(b)) for b in budgets]

    executor = check_executor(executor)
    points = None if points is None else np.asarray(points, dtype=float)
    prepared = _prepared(scenario, points)
    if isinstance(prepared, Exception):  # data problems raise here, naming the control, before any cell runs
        raise prepared
    cells = [(scenario, points, name, target, n_reps, _release_stream(scenario, _CURVE_TAG, name, j))
             for name in names for j, target in enumerate(targets)]
    rows = run_cells(_cell, cells, executor, progress)
    for k, row in enumerate(rows):
        row.update(budget=float(budgets[k % len(budgets)]))
    return pd.DataFrame(rows, columns=list(CURVE_COLUMNS))


# =============================================================================== sweeps
def _sweep_values(parameter, values):
    if parameter == "spread":
        return [float(v) for v in _check_grid(values, "values", low=0.0, high=3.0)]
    if parameter == "p":  # exponent of the Fréchet p-mean (the Scenario checks (1, 8])
        return [float(v) for v in _check_grid(values, "values", low=1.0, high=8.0)]
    arr = _check_grid(values, "values", low=0.0)
    if np.any(arr != np.round(arr)):
        bad = arr[arr != np.round(arr)][0]
        raise InvalidParameterError(f"values must be integers for a sweep over {parameter}; got {bad!r}",
                                    param="values")
    return [int(v) for v in arr]


def sweep(scenario, parameter, values, n_reps, mechanisms=None, progress=None, executor=None):
    r"""Mean distance to the true mean against ``n``, the dimension or the data spread, at the scenario's budget.

    For each value the scenario is rebuilt with that field changed (and validated:
    e.g. ``dim`` in ``[1, 10]``, SPD ``m`` in ``[2, 4]``), the data regenerated from the
    same seed, the sensitivity recomputed (it scales like :math:`1/n`), and every
    mechanism calibrated to the scenario's ONE target; then as :func:`utility_curve`.

    Parameters
    ----------
    scenario : Scenario
        Synthetic data only (real datasets and uploads have a fixed size and dimension).
    parameter : {"n", "dim", "spread", "p"}
    values : array_like, shape (k,)
        Integers for ``n`` and ``dim``; reals in ``(0, 3]`` for ``spread``.
    n_reps : int
        Releases per (mechanism, value), in ``[2, 200000]``.
    mechanisms : sequence of str, optional
    progress : callable, optional
        ``progress(fraction)`` after every cell.
    executor : optional
        As in :func:`utility_curve`.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`CURVE_COLUMNS` plus ``parameter`` and ``value``; ``budget`` is the
        scenario's (fixed) budget.

    Raises
    ------
    InvalidParameterError
        Unknown parameter, real/uploaded data, a value the scenario rejects (the message
        names it), or a ``dim`` sweep with a custom ``center_offset`` (its length is the dimension).
    """
    scenario = _check_scenario(scenario)
    parameter = check_option(parameter, "parameter", SWEEP_PARAMETERS)
    if scenario.data in _REAL_DATA and not (parameter == "p" and scenario.data != "upload"):
        raise InvalidParameterError(
            f"parameter={parameter!r} cannot be swept with data={scenario.data!r}: real datasets and uploads have a "
            "fixed size, dimension and spread; choose a synthetic data kind", param="parameter",
        )
    if parameter == "dim" and scenario.center_offset:
        raise InvalidParameterError(
            "a sweep over dim needs the default public centre: center_offset has one coordinate per dimension; "
            f"got center_offset={scenario.center_offset!r} — clear it to sweep the dimension", param="center_offset",
        )
    grid = _sweep_values(parameter, values)
    n_reps = check_int(n_reps, "n_reps", low=2, high=_MAX_REPS)
    names = _check_mechanisms(mechanisms, scenario)
    progress = _check_progress(progress)
    scenarios = [scenario.with_changes(**{parameter: v}) for v in grid]  # validates every value first
    budget = float(getattr(scenario, budget_parameter(scenario.notion)))

    executor = check_executor(executor)
    cells = [(sub, None, name, sub.target, n_reps, _release_stream(scenario, _SWEEP_TAG, name, j),
              f"{parameter} = {value:g}") for name in names for j, (value, sub) in enumerate(zip(grid, scenarios))]
    rows = run_cells(_cell, cells, executor, progress)
    values = [value for _ in names for value in grid]
    for row, value in zip(rows, values):
        row.update(parameter=parameter, value=value, budget=budget)
    return pd.DataFrame(rows, columns=list(CURVE_COLUMNS) + ["parameter", "value"])


# =============================================================================== GDP mu(sigma)
def gdp_mu_curves(sigmas, sensitivity=1.0, spaces=GDP_FIGURE_SPACES):
    r"""Exact GDP parameter :math:`\mu(\sigma)` of the Riemannian Gaussian mechanism on model spaces.

    The GDP paper's Figure 1 (Δ = 1, σ = k/4, k = 1..16) on the circle and the real line,
    with the sphere :math:`S^2` added; every value is
    :func:`geodp_core.mechanisms.gaussian_gdp.gdp_mu` (S¹ closed form, S² deterministic
    quadrature of the privacy profile, ℝ: :math:`\mu = \Delta/\sigma`).

    Parameters
    ----------
    sigmas : array_like, shape (k,)
        Rates σ > 0 (at most 200).
    sensitivity : float
        Δ > 0 (≤ π on the sphere).
    spaces : sequence of (space, dim, label)
        Default :data:`GDP_FIGURE_SPACES`.

    Returns
    -------
    pandas.DataFrame
        Columns ``space``, ``dim``, ``label``, ``sigma``, ``mu``.
    """
    from geodp_core.mechanisms.gaussian_gdp import gdp_mu

    sigmas = _check_grid(sigmas, "sigmas", low=0.0)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    rows = []
    for space, dim, label in spaces:
        for sigma in sigmas:
            rows.append(dict(space=space, dim=int(dim), label=label, sigma=float(sigma),
                             mu=gdp_mu(space, int(dim), float(sigma), sensitivity)))
    return pd.DataFrame(rows, columns=["space", "dim", "label", "sigma", "mu"])


# =============================================================================== accounting tables
_NO_PURE = ("no valid conversion: {src} allows an unbounded privacy loss (with small probability), so it implies "
            "no ε-DP with δ = 0")
_NO_FROM_APPROX = ("no valid conversion: (ε, δ)-DP fixes a single point of the privacy profile and says nothing "
                   "about the δ-event, so it implies no {what}")
_NO_SINGLE_ORDER = ("no valid conversion: an RDP bound at the single order α = {alpha:g} does not determine {what} "
                    "(it constrains only one Rényi divergence)")
_NO_ZCDP_GDP = ("no valid conversion: zCDP bounds Rényi divergences only, which does not determine a Gaussian "
                "trade-off curve (μ-GDP implies zCDP, not conversely)")


def _gdp_eps_for_delta(mu, delta):
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\delta_\mu(\varepsilon) \le \delta` (decreasing in ε), verified."""
    log_delta = math.log(delta) + math.log1p(-1e-12)  # a 1e-12 relative margin: safe against rounding of delta_mu
    if log_gdp_delta(mu, 0.0) <= log_delta:
        return 0.0

    def excess(eps):
        return log_gdp_delta(mu, eps) - log_delta

    hi = 1.0
    while excess(hi) > 0.0:
        hi *= 2.0
    eps = optimize.brentq(excess, 0.0, hi, xtol=1e-14, rtol=1e-14)
    while not implies(GDP(mu), ApproxDP(eps, delta)):  # safe side, as evaluated
        eps = eps * (1.0 + 1e-12) + 1e-300
    return float(eps)


def _row(to, result, theorem, source):
    if result is None:
        return dict(to=to, result="", status="unavailable", theorem=theorem, verified=False, guarantee=None)
    return dict(to=to, result=result.describe(), status="ok", theorem=theorem, verified=implies(source, result),
                guarantee=result)


def conversion_table(guarantee, delta=1e-5, alpha=2.0, eps=1.0):
    r"""What a guarantee implies in every notion, with the theorem used (docs/specification.md §4.2).

    ===========  ==================================================================================
    source       conversions
    ===========  ==================================================================================
    ε-DP         (ε, δ)-DP for every δ; μ-GDP, μ = -2Φ⁻¹(1/(1+e^ε)); (α, ε(α))-RDP (heat-diffusion
                 paper eq. 12); (ε²/2)-zCDP (Bun & Steinke)
    (ε, δ)-DP    itself only
    μ-GDP        (ε, δ_μ(ε))-DP at the given ε and (ε_μ(δ), δ)-DP at the given δ (Dong, Roth & Su);
                 (α, αμ²/2)-RDP; (μ²/2)-zCDP
    (α, ε)-RDP   (ε', δ)-DP (Canonne, Kamath & Steinke; Mironov's value quoted); RDP at orders ≤ α
    ρ-zCDP       (α, ρα)-RDP; (ε, δ)-DP optimised over α
    ===========  ==================================================================================

    Each available result is checked with :func:`geodp_core.privacy.implies` (column ``verified``).

    Parameters
    ----------
    guarantee : Guarantee
        The source guarantee.
    delta : float
        δ in (0, 1) at which to express (ε, δ)-DP.
    alpha : float
        Rényi order α > 1 at which to express RDP.
    eps : float
        ε > 0 at which to evaluate the GDP privacy profile.

    Returns
    -------
    list of dict
        One row per target notion, keys ``to``, ``result`` (text), ``status`` (``"ok"`` or
        ``"unavailable"``), ``theorem`` (or the reason), ``verified`` and ``guarantee``
        (the resulting :class:`~geodp_core.privacy.Guarantee`, ``None`` if unavailable).
    """
    if not isinstance(guarantee, Guarantee):
        raise InvalidParameterError(
            f"guarantee must be a PureDP, ApproxDP, GDP, RDP or ZCDP; got {type(guarantee).__name__}", param="guarantee"
        )
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    alpha = check_real(alpha, "alpha", low=1.0, high=1e6)
    eps = check_real(eps, "eps", low=0.0, high=1e4)
    g = guarantee
    src = g.describe()
    if isinstance(g, PureDP):
        return [
            _row("ε-DP", g, "itself", g),
            _row("(ε, δ)-DP", ApproxDP(g.eps, delta),
                 "ε-DP is (ε, 0)-DP, hence (ε, δ)-DP for every δ ≥ 0 (Dwork & Roth 2014)", g),
            _row("μ-GDP", GDP(eps_dp_to_gdp(g.eps)),
                 "μ = -2 Φ⁻¹(1/(1+e^ε)): the μ-GDP trade-off curve lies below the ε-DP one and touches it at its "
                 "kink (Dong, Roth & Su 2022)", g),
            _row("Rényi DP", RDP(alpha, eps_dp_to_rdp(g.eps, alpha)),
                 "ε(α) = log(exp(αε)/(e^ε+1) + e^ε·exp(−αε)/(e^ε+1))/(α−1), the Rényi divergence of randomized "
                 "response (heat-diffusion paper eq. 12)", g),
            _row("ρ-zCDP", ZCDP(g.eps**2 / 2.0), "ε-DP implies (ε²/2)-zCDP (Bun & Steinke 2016, Prop. 1.4)", g),
        ]
    if isinstance(g, ApproxDP):
        return [
            _row("ε-DP", None, _NO_PURE.format(src=src), g),
            _row("(ε, δ)-DP", g, "itself (and every (ε', δ') with ε' ≥ ε, δ' ≥ δ)", g),
            _row("μ-GDP", None, _NO_FROM_APPROX.format(what="μ-GDP"), g),
            _row("Rényi DP", None, _NO_FROM_APPROX.format(what="Rényi DP"), g),
            _row("ρ-zCDP", None, _NO_FROM_APPROX.format(what="zCDP"), g),
        ]
    if isinstance(g, GDP):
        eps_at_delta = _gdp_eps_for_delta(g.mu, delta)
        delta_at_eps = gdp_delta(g.mu, eps)
        rows = [_row("ε-DP", None, _NO_PURE.format(src=src), g)]
        if delta_at_eps > 0.0:
            rows.append(_row("(ε, δ)-DP at the given ε", ApproxDP(eps, delta_at_eps),
                             "δ_μ(ε) = Φ(-ε/μ+μ/2) - e^ε Φ(-ε/μ-μ/2) (Dong, Roth & Su 2022, Cor. 2.13)", g))
        else:
            rows.append(_row("(ε, δ)-DP at the given ε", None,
                             f"δ_μ(ε) underflows to 0 at ε = {eps:g} (log δ = {log_gdp_delta(g.mu, eps):.4g})", g))
        rows += [
            _row("(ε, δ)-DP at the given δ", ApproxDP(eps_at_delta, delta),
                 "smallest ε with δ_μ(ε) ≤ δ (root of the GDP privacy profile, verified)", g),
            _row("Rényi DP", RDP(alpha, alpha * g.mu**2 / 2.0),
                 "μ-GDP implies (α, αμ²/2)-RDP: the Rényi divergence of N(0,1) and N(μ,1)", g),
            _row("ρ-zCDP", ZCDP(g.mu**2 / 2.0), "μ-GDP implies (μ²/2)-zCDP (Bun & Steinke 2016)", g),
        ]
        return rows
    if isinstance(g, RDP):
        tight = rdp_to_approx_dp(g.alpha, g.eps, delta)
        mironov = mironov_rdp_to_approx_dp(g.alpha, g.eps, delta)
        return [
            _row("ε-DP", None, _NO_PURE.format(src=src), g),
            _row("(ε, δ)-DP", ApproxDP(tight, delta),
                 f"ε' = ε + log((α-1)/α) - (log δ + log α)/(α-1) (Canonne, Kamath & Steinke 2020); Mironov's "
                 f"ε + log(1/δ)/(α-1) = {mironov:.4g} is looser", g),
            _row("μ-GDP", None, _NO_SINGLE_ORDER.format(alpha=g.alpha, what="a Gaussian trade-off curve"), g),
            _row("Rényi DP", g, "itself, and the same ε at every order α' ≤ α (Rényi divergences increase with "
                 "the order)", g),
            _row("ρ-zCDP", None, _NO_SINGLE_ORDER.format(alpha=g.alpha, what="the whole RDP curve"), g),
        ]
    # ZCDP
    return [
        _row("ε-DP", None, _NO_PURE.format(src=src), g),
        _row("(ε, δ)-DP", ApproxDP(zcdp_to_approx_dp(g.rho, delta), delta),
             "ε = min over α of ρα + log((α-1)/α) - (log δ + log α)/(α-1) (Canonne, Kamath & Steinke 2020)", g),
        _row("μ-GDP", None, _NO_ZCDP_GDP, g),
        _row("Rényi DP", RDP(alpha, g.rho * alpha), "ρ-zCDP is (α, ρα)-RDP for every α > 1 (Bun & Steinke 2016)", g),
        _row("ρ-zCDP", g, "itself", g),
    ]


_FAMILIES = (
    ("ε-DP mechanisms (Riemannian Laplace, exponential-wrapped Laplace, conformal)", "ε", pure_dp_budget),
    ("μ-GDP mechanisms (Riemannian Gaussian; Gaussian noise in a flat chart)", "μ", gdp_budget),
    ("ρ-zCDP mechanisms (Brownian motion, Langevin)", "ρ", zcdp_budget),
)


def native_budget_table(target):
    """The native budget each mechanism family gets when ``target`` is the ONE common target.

    Uses the calibration helpers :func:`~geodp_core.privacy.pure_dp_budget`,
    :func:`~geodp_core.privacy.gdp_budget` and :func:`~geodp_core.privacy.zcdp_budget` —
    exactly what the mechanisms call.

    Parameters
    ----------
    target : Guarantee

    Returns
    -------
    list of dict
        Keys ``family``, ``budget`` (e.g. ``"μ = 0.5"``, empty if unavailable), ``achieved``,
        ``status`` (``"ok"``/``"unavailable"``) and ``note`` (the conversion used or the reason).
    """
    if not isinstance(target, Guarantee):
        raise InvalidParameterError(
            f"target must be a PureDP, ApproxDP, GDP, RDP or ZCDP; got {type(target).__name__}", param="target"
        )
    rows = []
    for family, symbol, helper in _FAMILIES:
        try:
            budget = helper(target)
        except UnavailableError as exc:
            rows.append(dict(family=family, budget="", achieved="", status="unavailable", note=str(exc)))
            continue
        rows.append(dict(family=family, budget=f"{symbol} = {budget.value:.6g}", achieved=budget.achieved.describe(),
                         status="ok", note=budget.note))
    return rows
