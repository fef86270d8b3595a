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
    "in_widget_range",
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


def curve_dim_range(manifold):
    """``(low, high)`` of the dimension sweep of the Utility curves page: the start of :func:`dim_range`, at most
    the class's ``size_sweep_steps`` above it (each integer is a cell; SPD m = 2…4, the affine metric slows down
    with m; 10 values elsewhere)."""
    low, high = dim_range(manifold)
    return low, min(high, low + manifold_class(manifold).size_sweep_steps)


def in_widget_range(key, value):
    """``value`` clipped into the control's range of ``key`` (unchanged for keys without one)."""
    if key not in WIDGET_RANGES:
        return value
    low, high = WIDGET_RANGES[key]
    return min(max(value, low), high)

#: Total-ε grids of the pages with their own budget control (regression fits need larger ε; the audit's
#: verdicts are meaningful for moderate ε only).
CONFORMAL_EPS_GRID = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0)
REGRESSION_EPS_GRID = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0)
AUDIT_EPS_GRID = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
