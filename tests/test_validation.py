"""The declarative validation helpers (sklearn-style messages: parameter, value, valid range)."""

import numpy as np
import pytest

from geodp_core._validation import check_finite_array, check_int, check_option, check_real, check_rng
from geodp_core.exceptions import InvalidParameterError


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), True, "1", None, np.array([1.0, 2.0])])
def test_check_real_rejects(bad):
    with pytest.raises(InvalidParameterError, match="eps"):
        check_real(bad, "eps", low=0.0)


def test_check_real_message_names_range_and_value():
    with pytest.raises(InvalidParameterError, match=r"eps must be a real number in \(0, inf\); got -1.0"):
        check_real(-1, "eps", low=0.0)
    assert check_real(np.float32(0.5), "eps", low=0.0) == 0.5
    assert check_real(np.array(2.0), "eps", low=0.0) == 2.0


def test_check_int_and_option():
    assert check_int(np.int64(3), "n", low=2) == 3
    for bad in (2.5, True, "3", 1):
        with pytest.raises(InvalidParameterError, match="n"):
            check_int(bad, "n", low=2)
    with pytest.raises(InvalidParameterError, match=r"name must be one of 'a', 'b'; got 'c'"):
        check_option("c", "name", ("a", "b"))


@pytest.mark.parametrize(
    "bad, match",
    [
        ([True, 1.0], "booleans"),
        (np.array([True, False]), "dtype bool"),
        ([1.0, float("nan")], "finite"),
        (["a", "b"], "numeric"),
        ([1.0 + 2j], "real"),
    ],
)
def test_check_finite_array_rejects(bad, match):
    with pytest.raises(InvalidParameterError, match=match):
        check_finite_array(bad, "points")


def test_check_finite_array_shapes():
    assert check_finite_array([[1, 2, 3]], "points", shape_tail=(3,)).dtype == float
    with pytest.raises(InvalidParameterError, match=r"trailing shape \(3,\)"):
        check_finite_array([[1, 2]], "points", shape_tail=(3,))
    with pytest.raises(InvalidParameterError, match="at least 2 rows"):
        check_finite_array([[1, 2, 3]], "points", min_rows=2)


def test_check_rng():
    rng = np.random.default_rng(0)
    assert check_rng(rng) is rng
    assert isinstance(check_rng(5), np.random.Generator)
    for bad in (None, -1, True, np.random.RandomState(0)):
        with pytest.raises(InvalidParameterError, match="rng"):
            check_rng(bad)
