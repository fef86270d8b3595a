r"""What every paper module of the reproductions shares: the result records, the utility rows and comparisons.

Utility of a release :math:`\tilde\eta` is its distance to the non-private Fréchet mean :math:`\hat\eta`
(docs/specification.md §6); a row reports

.. math::
    \bar U = \frac1R\sum_{k=1}^R \mathrm{dist}(\tilde\eta_k, \hat\eta), \qquad \mathrm{s.e.} = s/\sqrt R,

for :math:`R` releases of ONE dataset, every mechanism calibrated to ONE target guarantee (natively or through a
valid conversion; unavailable cells carry the reason). Randomness: the data use the first child of
``SeedSequence(seed)``; the releases of mechanism ``m`` at budget index ``j`` use
``SeedSequence(seed, spawn_key=(tag, m, j))``. "Clearly better" needs the difference of means to exceed 2 standard
errors of the difference.
"""

import contextlib
import contextvars
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from geodp_core._validation import check_finite_array, check_int, check_real
from geodp_core.exceptions import InvalidParameterError
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.pipeline import evaluate, mean_and_standard_error, prepare
from geodp_core.scenario import Scenario
from geodp_core.studies.reproductions.spec import VERDICTS, evaluate_claim, verdict_text

__all__ = ["PaperClaim", "Reproduction", "UTILITY_COLUMNS", "VERDICTS", "finish", "reporting_progress"]

#: Columns of every utility frame (a superset of what :func:`geodp_core.viz.curves.utility_curve_figure` needs).
UTILITY_COLUMNS = (
    "mechanism", "title", "budget", "target", "mean", "se", "n_reps", "label", "status", "reason", "bound",
    "achieved", "noise", "scale",
)

_MAX_GRID = 12
_MAX_REPS = 20_000

_TAG_GDP, _TAG_HEAT, _TAG_EW, _TAG_CONF = 11, 22, 33, 44


# ============================================================================ result records
@dataclass(frozen=True)
class PaperClaim:
    """A claim of a paper: the quoted text, where it appears, and the number when there is one."""

    text: str
    where: str
    value: float = None


@dataclass(frozen=True)
class Reproduction:
    """One paper's headline experiment rerun here.

    Attributes
    ----------
    key : str
        ``"gdp"``, ``"heat_diffusion"``, ``"exponential_wrapped"``, ``"conformal"`` or ``"kng_regression"``.
    paper, source : str
        Paper title and its bibliographic reference (docs/specification.md §12).
    setup : str
        What was run (markdown).
    claims : tuple of PaperClaim
        The paper's claims for this experiment.
    table : pandas.DataFrame
        The main tidy result (utility frames have :data:`UTILITY_COLUMNS` plus card columns).
    tables : dict
        Further named frames (e.g. the μ estimates of the GDP card).
    numbers : dict
        Headline numbers (plain floats / ints / strings).
    verdict : str
        The verdict, each clause's outcome and the numbers in words (:func:`spec.verdict_text`).
    status : str
        One of :data:`VERDICTS`, computed from ``clauses`` by :func:`spec.judge` (never set by hand).
    notes : tuple of str
        Caveats and the paper's settings we could not follow (with the reason).
    clauses : tuple of ClauseOutcome
        Each clause of the paper's claim with its outcome on ``numbers``.
    kind : {"reproduction", "illustration"}
    size : str
        ``"default"``, ``"quick"`` (a smoke run), ``"full"`` or ``"custom"`` (a direct call).
    details : str
        The numbers behind the clause outcomes, in words.
    labels : dict
        Plain-text labels the figures need (space, family and panel titles), so that the figures never import a
        reproduction module.
    """

    key: str
    paper: str
    source: str
    setup: str
    claims: tuple
    table: pd.DataFrame
    tables: dict = field(default_factory=dict)
    numbers: dict = field(default_factory=dict)
    verdict: str = ""
    status: str = "inconclusive"
    notes: tuple = ()
    clauses: tuple = ()
    kind: str = "reproduction"
    size: str = "custom"
    details: str = ""
    labels: dict = field(default_factory=dict)


# ============================================================================ helpers
def _check_grid(values, name, low=0.0, high=None, max_len=_MAX_GRID, **closed):
    arr = check_finite_array(values, name, ndim=1, min_rows=1)
    if arr.size > max_len:
        raise InvalidParameterError(f"{name} must have at most {max_len} values; got {arr.size}", param=name)
    return tuple(check_real(float(v), name, low=low, high=high, **closed) for v in np.unique(arr))


def _check_seed(seed):
    return check_int(seed, "seed", low=0, high=2**32 - 1)


def _stream(seed, tag, name, index):
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(tag, MECHANISM_NAMES.index(name), index)))


def _noise_text(calibration):
    return ", ".join(f"{k} = {v:.4g}" for k, v in calibration.noise.items()
                     if np.isscalar(v) and not isinstance(v, str))


def _noise_scale(calibration):
    """The main noise parameter: σ (Laplace, Gaussian, EW), t (diffusions) or λ* (conformal)."""
    for key in ("sigma", "t", "lambda_star"):
        if key in calibration.noise:
            return float(calibration.noise[key])
    return np.nan


def _empty_row(name, title, status, reason):
    return dict(mechanism=name, title=title, mean=np.nan, se=np.nan, label="unavailable", status=status,
                reason=reason, bound=np.nan, achieved="", noise="", scale=np.nan)


# ------------------------------------------------------------------------------------------ progress
_PROGRESS = contextvars.ContextVar("reproduction_progress", default=None)


@contextlib.contextmanager
def reporting_progress(callback):
    """Within the block, a reproduction reports its cells: ``callback(done, total)`` once it knows how many cells it
    will compute (``done`` = 0) and after each finished cell (one mechanism at one budget, or one calibration).

    ``total`` is the count the reproduction announced (:func:`expect_cells`); a reproduction that announces none
    reports ``total = 0``. Nothing here depends on the data: the cells are fixed by the public settings.
    """
    if not callable(callback):
        raise InvalidParameterError(f"callback must be callable; got {type(callback).__name__}", param="callback")
    token = _PROGRESS.set({"callback": callback, "done": 0, "total": 0})
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def expect_cells(count):
    """Announce ``count`` more cells to the progress reporter of :func:`reporting_progress` (if any)."""
    state = _PROGRESS.get()
    if state is not None:
        state["total"] += int(count)
        state["callback"](state["done"], state["total"])


def cell_done():
    """One cell finished (reported to :func:`reporting_progress`, if any)."""
    state = _PROGRESS.get()
    if state is not None:
        state["done"] += 1
        state["callback"](state["done"], state["total"])


def _utility_row(prepared, name, target, n_reps, rng, options=None):
    """Calibrate ``name`` to ``target`` and draw ``n_reps`` releases at the true mean (:func:`pipeline.evaluate`);
    one cell of the progress (:func:`cell_done`)."""
    try:
        return _utility_row_of(name, evaluate(prepared, name, target, n_reps, rng, **(options or {})))
    finally:
        cell_done()


def _utility_row_of(name, outcome):
    if outcome.status != "ok":
        return _empty_row(name, outcome.title, outcome.status, outcome.reason)
    calibration = outcome.calibration
    mean, se = mean_and_standard_error(outcome.distances)
    return dict(mechanism=name, title=outcome.title, mean=mean, se=se, label=calibration.label, status="ok",
                reason="", bound=np.nan if outcome.utility_bound is None else float(outcome.utility_bound),
                achieved=calibration.achieved.describe(), noise=_noise_text(calibration),
                scale=_noise_scale(calibration))


def _prepared(manifold_args, data, spread, radius, n, seed):
    """The reproduction's dataset through :func:`pipeline.prepare` (data stream: first child of ``seed``)."""
    name, dim, *metric = manifold_args
    scenario = Scenario(manifold=name, dim=dim, metric=metric[0] if metric else "", data=data, spread=spread,
                        radius=radius, n=n, seed=seed, mechanisms=("riemannian_laplace",))
    return prepare(scenario)


def _uniform_ball_data(manifold_args, radius, n, seed):
    """Data uniform in the PUBLIC ball B(o, radius) of the canonical point, prepared (mean, sensitivity)."""
    return _prepared(manifold_args, "uniform_ball", radius, radius, n, seed)


def _frame(rows, extra=()):
    return pd.DataFrame(rows, columns=list(UTILITY_COLUMNS) + list(extra))


def _compare(table, ours, theirs, by="budget"):
    """Per budget: ``ours`` mean minus ``theirs`` mean and its s.e. (both available), sorted by budget."""
    a = table[(table["mechanism"] == ours) & (table["status"] == "ok")].set_index(by)
    b = table[(table["mechanism"] == theirs) & (table["status"] == "ok")].set_index(by)
    common = sorted(set(a.index) & set(b.index))
    diff = np.array([a.loc[k, "mean"] - b.loc[k, "mean"] for k in common])
    se = np.array([math.hypot(a.loc[k, "se"], b.loc[k, "se"]) for k in common])
    return common, diff, se


def _wins(diff, se, z=2.0):
    """Counts of budgets where ours is clearly better (diff < -z se), clearly worse, or neither."""
    better = int(np.sum(diff < -z * se))
    worse = int(np.sum(diff > z * se))
    return better, worse, int(len(diff) - better - worse)


def _budgets_with(table, name, status):
    return table[(table["mechanism"] == name) & (table["status"] == status)]["budget"].tolist()


def _fmt_budgets(values):
    return ", ".join(f"{v:g}" for v in values)


def finish(claim, numbers, details, kind="reproduction"):
    """``dict(status, verdict, clauses, kind, details)`` of a run: the claim's clauses on ``numbers`` (one rule)."""
    status, outcomes = evaluate_claim(claim, numbers, kind)
    return dict(status=status, verdict=verdict_text(status, outcomes, details), clauses=outcomes, kind=kind,
                details=details)


def converged_text(frame):
    """The failed public convergence checks of a KNG frame (columns ``converged``, ``max_rhat``), in words."""
    bad = frame[~frame["converged"].astype(bool)]
    return tuple(f"{r.version} at {r.cell} (R̂ {r.max_rhat:.3g})" for r in bad.itertuples())
