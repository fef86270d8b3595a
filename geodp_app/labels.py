"""The app's labels of codes and the limits its controls show, declared once for the sidebar and the URL checker.

Plain Python (no Streamlit): the sidebar draws the controls with these labels and limits, the URL checker
(:mod:`geodp_app.url_params`) accepts and checks links with the same ones.
"""

import numpy as np

from geodp_core.data.kinds import data_kinds
from geodp_core.exceptions import GeoDPError
from geodp_core.geometry import MANIFOLD_NAMES, get_manifold, manifold_class
from geodp_core.mechanisms import MECHANISM_NAMES, mechanism_class


def _typical(code):
    """The space with code ``code`` at its default size (what the chooser shows before a size is picked)."""
    cls = manifold_class(code)
    return get_manifold(code, cls.default_size)


#: The chooser's label of each registered space (``Sphere Sᵈ``, ...), in menu order: a new space appears here.
SPACE_LABELS = {code: _typical(code).menu_label for code in MANIFOLD_NAMES}

METRIC_LABELS = {"affine": "affine-invariant", "log_euclidean": "log-Euclidean", "log_cholesky": "log-Cholesky"}
#: The chooser's label of each data kind, as declared in :mod:`geodp_core.data.kinds`.
DATA_LABELS = {code: kind.label for code, kind in data_kinds().items()}
NOTION_LABELS = {
    "pure_dp": "ε-DP",
    "approx_dp": "(ε, δ)-DP",
    "gdp": "μ-GDP",
    "rdp": "(α, ε)-Rényi DP",
    "zcdp": "ρ-zCDP",
}

#: Why a data kind is not offered on another manifold (said when a manifold change replaces it), as declared.
DATA_WHERE = {code: kind.where for code, kind in data_kinds().items() if kind.where}

#: Spelling of "every class" in the class control (and in the URL).
ALL_CLASSES = "all"
#: The sidebar's URL-bound controls (one per Scenario field shown).
SCENARIO_KEYS = ("manifold", "dim", "metric", "data", "data_class", "spread", "n", "radius", "center_offset", "p",
                 "mechanisms", "notion", "eps", "delta", "mu", "alpha", "rho", "seed", "n_releases")

def _mechanism_title(name):
    return mechanism_class(name).title or name


def mechanism_titles():
    """``{registry name: title}`` of every mechanism (shown by the multiselect; accepted in links)."""
    return {name: _mechanism_title(name) for name in MECHANISM_NAMES}

def as_code(value, labels, default=None):
    """The option behind a URL or state value spelled as the option or as its label (older links hold labels);
    ``default`` if neither."""
    if value in labels:
        return value
    return next((code for code, label in labels.items() if label == value), default)

def _ball_radius_limit(manifold, dim, metric):
    """r* of the manifold (infinite on Hadamard spaces or when the manifold is invalid)."""
    try:
        return get_manifold(manifold, int(dim), metric or None).ball_radius_limit
    except (ValueError, GeoDPError):
        return np.inf


def radius_note(manifold, dim, metric):
    """Why the public radius is bounded, for the help and the link checker ("" when r* is infinite)."""
    rstar = _ball_radius_limit(manifold, dim, metric)
    if not np.isfinite(rstar):
        return ""
    return f"on {SPACE_LABELS[manifold]} r must stay below r* = {rstar:.3g} (convexity of the Fréchet mean)"


def radius_max(manifold, dim, metric):
    """Largest value of the radius slider: just below r*, at most the space's ``app_radius_max`` (10 on SPD, whose
    image descriptors lie up to about 8 from their public centre, 3 elsewhere; 3 when the manifold is invalid)."""
    rstar = _ball_radius_limit(manifold, dim, metric)
    top = manifold_class(manifold).app_radius_max if manifold in SPACE_LABELS else 3.0
    return round(float(min(rstar - 1e-3, top)), 3) if np.isfinite(rstar) else top


def scenario_default(key, state):
    """What scenario control ``key`` shows in a fresh browser, given the values ``state`` of the others (the size,
    the data kind, the metric and the radius depend on the space): a value equal to it is left out of the URL.

    The sidebar's controls start from these values (a test opens every space fresh and compares).
    """
    from geodp_core.scenario import Scenario, data_kinds_for  # the Scenario's own defaults

    default = Scenario()
    manifold = as_code(state.get("manifold"), SPACE_LABELS, default.manifold)
    space = manifold_class(manifold)
    if key == "manifold":
        return default.manifold
    if key == "dim":
        return space.default_size
    if key == "metric":
        return space.metric_choices[0] if space.metric_choices else ""
    if key == "data":
        return data_kinds_for(manifold)[0]
    if key == "data_class":
        return ALL_CLASSES
    if key == "radius":
        dim = state.get("dim", space.default_size)
        return min(default.radius, radius_max(manifold, dim, state.get("metric") or ""))
    if key == "center_offset":
        return ""
    if key == "mechanisms":
        return list(default.mechanisms)
    if key == "spread":  # follows the dimension (the Scenario's own rule)
        from geodp_core.constraints import default_spread

        return default_spread(manifold, int(state.get("dim", space.default_size)))
    return getattr(default, key)
