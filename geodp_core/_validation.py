"""Declarative argument validation (in the style of scikit-learn's constraints).

Every check raises :class:`~geodp_core.exceptions.InvalidParameterError` (a
``ValueError``) whose message names the parameter, the value received and the
valid range, e.g. ``"eps must be a real number in (0, inf); got -1.0"``.
NaN, infinities and booleans are always rejected where a number is expected.
"""

import numbers

import numpy as np

from geodp_core.exceptions import InvalidParameterError

__all__ = [
    "check_real",
    "check_int",
    "check_option",
    "check_finite_array",
    "check_rng",
    "format_interval",
    "check_real_array",
]


def format_interval(low=None, high=None, low_closed=False, high_closed=False):
    """Return an interval in mathematical notation, e.g. ``(0, 1]``."""
    left = "[" if (low_closed and low is not None) else "("
    right = "]" if (high_closed and high is not None) else ")"
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    return f"{left}{lo}, {hi}{right}"


def _describe(value):
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_real(value, name, low=None, high=None, low_closed=False, high_closed=False):
    """Validate a finite real scalar in an interval and return it as ``float``.

    Parameters
    ----------
    value : object
        The value to check. Booleans, strings, NaN and infinities are rejected.
    name : str
        Parameter name used in the error message.
    low, high : float or None
        Interval bounds (``None`` = unbounded).
    low_closed, high_closed : bool
        Whether the bounds belong to the interval.

    Returns
    -------
    float
    """
    interval = format_interval(low, high, low_closed, high_closed)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(
            f"{name} must be a real number in {interval}; got {_describe(value)}", param=name
        )
    try:
        value = float(value)
    except (OverflowError, ValueError):  # e.g. an integer (or Fraction) beyond the double range
        raise InvalidParameterError(
            f"{name} must be a finite real number in {interval}; got {_describe(value)}, beyond the double-precision "
            "range (|x| <= 1.8e308)", param=name
        ) from None
    if not np.isfinite(value):
        raise InvalidParameterError(
            f"{name} must be a finite real number in {interval}; got {value!r}", param=name
        )
    too_low = low is not None and (value < low or (value == low and not low_closed))
    too_high = high is not None and (value > high or (value == high and not high_closed))
    if too_low or too_high:
        raise InvalidParameterError(
            f"{name} must be a real number in {interval}; got {value!r}", param=name
        )
    return value


def check_int(value, name, low=None, high=None):
    """Validate an integer in the closed range ``[low, high]`` and return it."""
    interval = format_interval(low, high, True, True).replace("inf)", "inf)")
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(
            f"{name} must be an integer in {interval}; got {_describe(value)}", param=name
        )
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidParameterError(
            f"{name} must be an integer in {interval}; got {value}", param=name
        )
    return value


def check_option(value, name, options):
    """Validate that ``value`` is one of ``options`` (case-sensitive) and return it."""
    options = tuple(options)
    if not isinstance(value, str) or value not in options:
        raise InvalidParameterError(
            f"{name} must be one of {', '.join(repr(o) for o in options)}; got {_describe(value)}",
            param=name,
        )
    return value


def check_finite_array(value, name, ndim=None, shape_tail=None, min_rows=None):
    """Convert to a float ``ndarray`` and reject NaN, inf, booleans and bad shapes.

    Parameters
    ----------
    value : array_like
    name : str
    ndim : int or tuple of int, optional
        Allowed numbers of dimensions.
    shape_tail : tuple of int, optional
        Required trailing shape (e.g. ``(3,)`` for points in R^3).
    min_rows : int, optional
        Minimum size of the leading axis.
    """
    def ragged():  # built only when raised: the repr of a large array is costly
        return InvalidParameterError(
            f"{name} must be a rectangular numeric array (every row of the same length); got {_describe(value)}",
            param=name)

    try:
        flat = np.ravel(np.asarray(value, dtype=object)) if isinstance(value, (list, tuple)) else ()
    except ValueError:
        raise ragged() from None
    if any(isinstance(v, (bool, np.bool_)) for v in flat):
        raise InvalidParameterError(f"{name} must contain numbers, not booleans; got {_describe(value)}", param=name)
    if any(isinstance(v, (list, tuple, np.ndarray)) for v in flat):
        raise ragged()
    try:
        arr = np.asarray(value)
    except ValueError:
        raise ragged() from None
    except Exception as exc:  # pragma: no cover - exotic inputs
        raise InvalidParameterError(f"{name} must be a numeric array; got {_describe(value)}", param=name) from exc
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.number)):
        raise InvalidParameterError(
            f"{name} must be a numeric (real) array; got dtype {arr.dtype}", param=name
        )
    if np.iscomplexobj(arr):
        raise InvalidParameterError(f"{name} must be real-valued; got a complex array", param=name)
    arr = arr.astype(float)
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if arr.ndim not in allowed:
            raise InvalidParameterError(
                f"{name} must have {' or '.join(map(str, allowed))} dimension(s); got shape {arr.shape}",
                param=name,
            )
    if shape_tail is not None:
        k = len(shape_tail)
        if arr.ndim < k or tuple(arr.shape[arr.ndim - k:]) != tuple(shape_tail):
            raise InvalidParameterError(
                f"{name} must have trailing shape {tuple(shape_tail)}; got shape {arr.shape}", param=name
            )
    if min_rows is not None and (arr.ndim == 0 or arr.shape[0] < min_rows):
        got = 0 if arr.ndim == 0 else arr.shape[0]
        raise InvalidParameterError(
            f"{name} must contain at least {min_rows} rows; got {got}", param=name
        )
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InvalidParameterError(
            f"{name} must contain only finite numbers; got {float(arr[idx])!r} at index {idx}", param=name
        )
    return arr


def check_rng(rng, name="rng"):
    """Return a ``numpy.random.Generator``.

    Accepts a Generator or a non-negative integer seed. ``None`` and the legacy
    global state are refused: every random function takes explicit randomness.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)) and rng >= 0:
        return np.random.default_rng(int(rng))
    raise InvalidParameterError(
        f"{name} must be a numpy.random.Generator or a non-negative integer seed; got {_describe(rng)}",
        param=name,
    )


def check_real_array(value, name, low=None, high=None, low_closed=False, high_closed=False):
    """Validate a real scalar or array whose entries all lie in an interval; return a float ``ndarray``.

    NaN, infinities, booleans, strings and complex numbers are rejected; the message names
    the parameter, the first offending value (and its index for arrays) and the interval.
    """
    if isinstance(value, (bool, np.bool_, str)) or value is None:
        check_real(value, name, low, high, low_closed, high_closed)  # raises with the scalar message
    arr = check_finite_array(value, name)
    bad = np.zeros(arr.shape, dtype=bool)
    if low is not None:
        bad |= (arr < low) if low_closed else (arr <= low)
    if high is not None:
        bad |= (arr > high) if high_closed else (arr >= high)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        where = f" at index {idx}" if idx else ""
        raise InvalidParameterError(
            f"{name} must contain only real numbers in {format_interval(low, high, low_closed, high_closed)}; "
            f"got {float(arr[idx])!r}{where}",
            param=name,
        )
    return arr
