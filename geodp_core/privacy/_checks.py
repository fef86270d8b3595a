"""Private helpers: validation of real scalars *or* arrays with a range.

The public conversion functions are vectorised: they accept a scalar (and
then return a ``float``) or an array_like (and then return an ``ndarray``,
broadcast over the inputs). Scalars are checked with
:func:`geodp_core._validation.check_real`; arrays with
:func:`geodp_core._validation.check_finite_array` plus the same range check,
so the messages name the parameter, the offending value and the valid range.
"""

import numbers

import numpy as np

from geodp_core._validation import check_finite_array, check_real, format_interval
from geodp_core.exceptions import InvalidParameterError

__all__ = ["check_real_or_array", "return_like"]


def _is_scalar_like(value):
    if isinstance(value, np.ndarray):
        return value.ndim == 0
    return isinstance(value, (numbers.Number, np.generic)) or isinstance(value, (bool, str)) or value is None


def check_real_or_array(value, name, low=None, high=None, low_closed=False, high_closed=False):
    """Validate a real scalar or a real array in an interval.

    Returns
    -------
    (numpy.ndarray, bool)
        The values as a float array and whether the input was a scalar.
    """
    if _is_scalar_like(value):
        return np.asarray(check_real(value, name, low, high, low_closed, high_closed)), True
    arr = check_finite_array(value, name)
    if arr.size == 0:
        raise InvalidParameterError(f"{name} must not be empty; got shape {arr.shape}", param=name)
    bad = np.zeros(arr.shape, dtype=bool)
    if low is not None:
        bad |= (arr < low) if low_closed else (arr <= low)
    if high is not None:
        bad |= (arr > high) if high_closed else (arr >= high)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        interval = format_interval(low, high, low_closed, high_closed)
        raise InvalidParameterError(
            f"{name} must contain only real numbers in {interval}; got {float(arr[idx])!r} at index {idx}",
            param=name,
        )
    return arr, False


def return_like(result, all_scalar):
    """Return a ``float`` when every input was a scalar, else an ``ndarray``."""
    result = np.asarray(result, dtype=float)
    return float(result) if all_scalar else result
