"""Private root-finding helper: calibrate by search, verify the safe side (OpenDP style)."""

import numpy as np
from scipy import optimize

from geodp_core.exceptions import ConvergenceError, NumericalOverflowError

__all__ = ["largest_feasible", "bracket_increasing"]

_MAX_NUDGES = 10_000
_NUDGE = 1e-12


def largest_feasible(excess, lo, hi, what):
    """Largest ``x`` in ``[lo, hi]`` with ``excess(x) <= 0`` for an increasing ``excess``.

    Brent's method on ``excess`` (which must satisfy ``excess(lo) <= 0 < excess(hi)``),
    then the root is *verified*: while ``excess(x) > 0`` it is moved down by a
    relative ``1e-12``, so the returned value is feasible as evaluated.

    Parameters
    ----------
    excess : callable
        Increasing function of one positive float.
    lo, hi : float
        Bracket, ``0 < lo < hi``.
    what : str
        Name of the quantity (for error messages).

    Returns
    -------
    float
    """
    f_lo, f_hi = excess(lo), excess(hi)
    if not (f_lo <= 0.0 < f_hi):
        raise ConvergenceError(
            f"could not bracket {what}: excess({lo!r}) = {f_lo!r}, excess({hi!r}) = {f_hi!r}"
        )
    if f_lo == 0.0:
        x = lo
    else:
        try:
            # xtol relative to the bracket: a fixed 1e-300 would be coarse for roots near 1e-294.
            xtol = max(abs(lo) * np.finfo(float).eps, 5e-324)
            x = optimize.brentq(excess, lo, hi, xtol=xtol, rtol=4 * np.finfo(float).eps, maxiter=500)
        except (RuntimeError, ValueError) as exc:
            raise ConvergenceError(f"root finding for {what} failed: {exc}") from exc
    for _ in range(_MAX_NUDGES):
        if excess(x) <= 0.0:
            return float(x)
        x = min(x * (1.0 - _NUDGE), float(np.nextafter(x, 0.0)))  # moves even for subnormal x
    raise ConvergenceError(f"could not verify {what} on the safe side after {_MAX_NUDGES} nudges")


def bracket_increasing(excess, start, what, max_steps=2200, param=None):
    """Find ``lo < hi`` with ``excess(lo) <= 0 < excess(hi)`` by doubling/halving from ``start``.

    ``max_steps = 2200`` doublings/halvings cover the whole double range (``5e-324`` to
    ``1.8e308``), so a failure means the root is not representable: it raises
    :class:`~geodp_core.exceptions.NumericalOverflowError` (a ``ValueError``) naming ``param``.
    """
    lo = hi = float(start)
    for _ in range(max_steps):
        if excess(hi) > 0.0:
            break
        if not np.isfinite(hi * 2.0):
            raise NumericalOverflowError(
                f"{what} is not representable in double precision (it exceeds {hi:.3g}) for {param} "
                "this extreme; use a less extreme value",
                param=param,
            )
        lo, hi = hi, hi * 2.0
    else:  # pragma: no cover - the loop above overflows first
        raise ConvergenceError(f"could not bracket {what}: excess stays <= 0 up to {hi!r}")
    for _ in range(max_steps):
        if excess(lo) <= 0.0:
            return lo, hi
        if lo / 2.0 == 0.0:
            raise NumericalOverflowError(
                f"{what} underflows double precision (it is below {lo:.3g}) for {param} this extreme; "
                "use a less extreme value",
                param=param,
            )
        hi, lo = lo, lo / 2.0
    raise ConvergenceError(f"could not bracket {what}: excess stays > 0 down to {lo!r}")  # pragma: no cover
