"""Constraints declared once: ranges, grids and limits read by the Scenario's validation, the URL checker
and the app's widgets (so a value a widget offers is one the Scenario accepts, and the URL checker agrees).

``SCENARIO_RANGES`` are the Scenario's hard limits ``(low, high, low_closed, high_closed)``; ``WIDGET_RANGES``
the (narrower or equal) ranges the controls offer; the grids are the select-sliders' values.
"""

from geodp_core.geometry import manifold_class

__all__ = [
    "SCENARIO_RANGES",
    "WIDGET_RANGES",
    "EPS_GRID",
    "MU_GRID",
    "DELTA_GRID",
    "RHO_GRID",
    "CONFORMAL_EPS_GRID",
    "REGRESSION_EPS_GRID",
    "AUDIT_EPS_GRID",
    "curve_dim_range",
    "dim_range",
    "default_spread",
    "MAX_RECORD_COORDINATES",
    "MAX_RELEASE_COORDINATES",
    "MAX_SAMPLE_COORDINATES",
    "MAX_CACHED_BYTES",
    "MAX_RESULT_BYTES",
    "SMALL_RESULT_BYTES",
    "POINT_SET_POINTS",
    "MAX_REAL_DATA_COORDINATES",
    "result_bytes_bound",
    "largest_count",
    "check_cost",
]

#: Hard limits of the Scenario's numeric fields: (low, high, low_closed, high_closed).
SCENARIO_RANGES = {
    "spread": (0.0, 5.0, False, True),
    "n": (2, 100_000, True, True),
    "eps": (0.0, 1000.0, False, True),
    "delta": (0.0, 1.0, False, False),
    "mu": (0.0, 1000.0, False, True),
    "alpha": (1.0, 1e6, False, False),
    "rho": (0.0, 1e6, False, False),
    "seed": (0, 2**32 - 1, True, True),
    "n_releases": (1, 20_000, True, True),
    "p": (1.0, 8.0, False, True),
}

#: Ranges offered by the app's controls (inside :data:`SCENARIO_RANGES`); loaded values are clipped into them.
WIDGET_RANGES = {
    "spread": (0.01, 2.0),
    "n": (2, 100_000),
    "n_releases": (1, 5000),
    "alpha": (1.01, 1000.0),
    "seed": (0, 2**32 - 1),
    "p": (1.1, 8.0),
}

#: Select-slider grids of the privacy budgets (log-spaced; an off-grid URL value moves towards more privacy).
EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
MU_GRID = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
DELTA_GRID = (1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3)
RHO_GRID = (0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)

def dim_range(manifold):
    """``(low, high)`` of ``dim`` on the space with code ``manifold`` (its class's ``app_size_range``: the intrinsic
    dimension d of S^d, H^d, R^d up to 1000, the conformal paper's S^999 and beyond; the matrix size m of SPD(m) up
    to 11, the covariance descriptors of colour images; the landmarks k of a shape space)."""
    return tuple(manifold_class(manifold).app_size_range)


def default_spread(manifold, dim):
    r"""The data spread a scenario takes when it names none, as a function of the dimension: it follows ``dim`` so
    that the typical distance of a record from the public centre stays what it is at the space's default size.

    Generated records lie about :math:`s\sqrt d` from their centre (von Mises–Fisher and wrapped-normal data of
    spread :math:`s` in intrinsic dimension :math:`d`), so a fixed spread pushes ever more of them onto the public
    ball's edge as :math:`d` grows (0.25 at :math:`d = 10`: half of the records beyond the default radius 0.7; all of
    them from :math:`d = 100`). The default is

    .. math::
        s(d) = s_0 \min\left(1, \sqrt{d_0 / d}\right),

    :math:`s_0` the space's ``default_spread`` and :math:`d_0` its intrinsic dimension at its ``default_size`` (on
    :math:`S^d`: :math:`s_0 = 0.25`, :math:`d_0 = 2`, so :math:`s\sqrt d \approx 0.35`, half the default radius),
    rounded to the spread control's step 0.01 and at least 0.01: 0.25 at d = 2, 0.11 at d = 10, 0.04 at d = 100,
    0.01 at d = 1000.

    Parameters
    ----------
    manifold : str
        A space code (:data:`~geodp_core.geometry.MANIFOLD_NAMES`).
    dim : int
        The ``dim`` argument of :func:`~geodp_core.geometry.get_manifold` (d, the matrix size m or the landmarks k).
    """
    cls = manifold_class(manifold)
    d = cls.from_size(int(dim)).dim
    d0 = cls.from_size(cls.default_size).dim
    value = cls.default_spread * min(1.0, (d0 / d) ** 0.5)
    return max(WIDGET_RANGES["spread"][0], round(value, 2))


def curve_dim_range(manifold):
    """``(low, high)`` of the dimension sweep of the Utility curves page: the start of :func:`dim_range`, at most
    the class's ``size_sweep_steps`` above it (each integer is a cell; SPD m = 2…4, the affine metric slows down
    with m; 10 values elsewhere)."""
    low, high = dim_range(manifold)
    return low, min(high, low + manifold_class(manifold).size_sweep_steps)


#: Total-ε grids of the pages with their own budget control (regression fits need larger ε; the audit's
#: verdicts are meaningful for moderate ε only).
CONFORMAL_EPS_GRID = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0)
REGRESSION_EPS_GRID = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0)
AUDIT_EPS_GRID = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)


#: Cost limits: work is bounded by what it costs (records × coordinates, releases × coordinates), not by each
#: control alone (``n = 100000`` at ``dim = 1000`` took 64–108 s and 8.7 GB to prepare). A coordinate is one
#: float of a point's array (``d + 1`` on S^d and H^d, ``d`` on R^d, ``m²`` on SPD(m), ``2k`` for k landmarks).
#: Records × coordinates of a scenario's generated data (at the limit ``prepare`` takes about a second).
MAX_RECORD_COORDINATES = 2_000_000
#: Releases × coordinates of all the releases of a scenario (``n_releases`` × mechanisms × coordinates).
MAX_RELEASE_COORDINATES = 2_000_000
#: Size × coordinates of the array one ``Mechanism.sample`` call allocates (400 MB of float64).
MAX_SAMPLE_COORDINATES = 50_000_000
#: Bytes the app's result caches may hold in total (each entry is bounded through the two scenario limits).
MAX_CACHED_BYTES = 600_000_000
#: Results whose bound (:func:`result_bytes_bound`) is at most this many bytes are "small" (the defaults and presets:
#: bounds of 2 to 5 MB, results of 0.02 to 1.1 MB); the app keeps 32 of them and fewer large ones.
SMALL_RESULT_BYTES = 6_000_000
#: Points of the conformal mechanism's public point set (its ``n_points`` default; the app does not change it).
POINT_SET_POINTS = 1000
#: Records × coordinates of the largest bundled real dataset (1797 digit descriptors of 9 × 9: 145,557).
MAX_REAL_DATA_COORDINATES = 150_000
#: Largest coordinates per point a scenario offers (S^1000, H^1000: 1001).
_MAX_POINT_COORDINATES = 1001


def result_bytes_bound(records, releases, coordinates, point_set=True):
    """Upper bound of the bytes of one Explorer result with ``records`` records and ``releases`` releases (all
    mechanisms together) of ``coordinates`` floats each: 8 bytes per float of the data, the conformal mechanism's
    copy of them, the releases and (``point_set``: with the conformal mechanism) two arrays of its public point
    set, plus 2 MB for the rest (calibrations, distances, meshes; measured below 0.7 MB)."""
    floats = 2 * int(records) + int(releases) + (2 * POINT_SET_POINTS if point_set else 0)
    return 8 * floats * int(coordinates) + 2_000_000


#: Largest bytes of one Explorer result, the bound at the cost limits (``8 (2 R + L) + 16 n_points (d + 1) + 2 MB``
#: with R, L the record and release limits: 66 MB).
MAX_RESULT_BYTES = (8 * (2 * MAX_RECORD_COORDINATES + MAX_RELEASE_COORDINATES + 2 * POINT_SET_POINTS
                         * _MAX_POINT_COORDINATES) + 2_000_000)


def largest_count(limit, coordinates):
    """The largest count whose cost ``count × coordinates`` stays within ``limit`` (at least 1)."""
    return max(1, int(limit) // max(1, int(coordinates)))


def check_cost(name, count, coordinates, limit, what, where=""):
    """Raise :class:`~geodp_core.exceptions.InvalidParameterError` naming ``name`` when ``count × coordinates`` exceeds
    ``limit``; the message gives the largest ``name`` allowed at the current other values (``where``, e.g.
    ``"at dim = 1000"``)."""
    from geodp_core.exceptions import InvalidParameterError

    if int(count) * int(coordinates) > limit:
        largest = largest_count(limit, coordinates)
        where = f" {where}" if where else ""
        raise InvalidParameterError(
            f"{name} = {int(count)} is too large{where}: {what} would hold {int(count)} × {int(coordinates)} = "
            f"{int(count) * int(coordinates):,} coordinates, above the limit {int(limit):,}; the largest {name} "
            f"allowed{where} is {largest}",
            param=name,
        )
    return count
