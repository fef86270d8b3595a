"""The shared scenario sidebar: widgets -> a frozen, validated Scenario.

Every scenario widget is keyed by the Scenario field name and bound to the URL
(``bind="query-params"``), so a link reproduces the exact view. Errors are shown
beside the control that caused them; the user's settings and upload survive.
"""

import numpy as np
import streamlit as st

from geodp_core.data import parse_points
from geodp_core.exceptions import GeoDPError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import MECHANISM_NAMES, availability_table, mechanism_class
from geodp_core.scenario import NOTION_NAMES, PRESETS, Scenario, data_kinds_for, preset_scenario

SPACE_LABELS = {
    "sphere": "Sphere Sᵈ",
    "hyperbolic": "Hyperbolic Hᵈ",
    "spd": "SPD(m) matrices",
    "euclidean": "Euclidean ℝᵈ",
}
METRIC_LABELS = {"affine": "affine-invariant", "log_euclidean": "log-Euclidean", "log_cholesky": "log-Cholesky"}
DATA_LABELS = {
    "vmf": "von Mises–Fisher",
    "vmf_mixture": "vMF mixture (heterogeneous density)",
    "uniform_ball": "uniform geodesic ball",
    "wrapped_normal": "wrapped normal",
    "wrapped_normal_mixture": "wrapped-normal mixture",
    "wishart": "Wishart",
    "cities": "real: 50 world cities (geomstats)",
    "connectomes": "real: brain connectomes (geomstats, principal block)",
    "karate": "real: karate-club graph in the Poincaré disk",
    "upload": "upload a CSV / NPY file",
}
NOTION_LABELS = {
    "pure_dp": "ε-DP",
    "approx_dp": "(ε, δ)-DP",
    "gdp": "μ-GDP",
    "rdp": "(α, ε)-Rényi DP",
    "zcdp": "ρ-zCDP",
}
EPS_GRID = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
MU_GRID = [0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]
DELTA_GRID = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3]
RHO_GRID = [0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0]
# (low, high) of the numeric controls; apply_scenario_to_widgets keeps loaded values inside them
WIDGET_RANGES = {"spread": (0.01, 2.0), "n": (2, 100_000), "n_releases": (1, 5000), "alpha": (1.01, 1000.0),
                 "seed": (0, 2**32 - 1)}
DEFAULT = Scenario()

_BIND = dict(bind="query-params")


def _mechanism_title(name):
    return mechanism_class(name).title or name


def scenario_sidebar():
    """Render the scenario controls in the sidebar.

    Returns
    -------
    (Scenario or None, ndarray or None)
        The validated scenario (``None`` if a control is invalid: the message is shown
        beside it) and the uploaded points (``None`` unless the data kind is ``upload``).
    """
    sb = st.sidebar
    sb.header("Scenario")
    slots = {}
    _url_notices(sb)
    _presets_and_loader(sb)

    manifold = sb.selectbox(
        "Manifold", list(SPACE_LABELS), key="manifold",
        help="The space the private data live in: " + "; ".join(f"{k} = {v}" for k, v in SPACE_LABELS.items()),
        **_BIND,
    )
    sb.caption(SPACE_LABELS[manifold])
    is_spd = manifold == "spd"
    dim = sb.number_input(
        "Matrix size m" if is_spd else "Dimension d", min_value=2 if is_spd else 1, max_value=4 if is_spd else 10,
        value=2, step=1, key="dim",
        help="SPD(m) has intrinsic dimension m(m+1)/2." if is_spd else "Intrinsic dimension (S², H² are drawn in 3D / the disk).",
        **_BIND,
    )
    slots["dim"] = sb.empty()
    metric = ""
    if is_spd:
        metric = sb.selectbox(
            "Metric", list(METRIC_LABELS), key="metric",
            help="Affine-invariant (curved, Hadamard) or one of the two flat metrics (log-Euclidean, log-Cholesky).",
            **_BIND,
        )

    kinds = data_kinds_for(manifold)
    data = sb.selectbox(
        "Data", kinds, key="data",
        help="The private dataset (synthetic generators, geomstats' real data, or your file).", **_BIND,
    )
    sb.caption(DATA_LABELS[data])
    slots["data"] = sb.empty()
    upload_points = None
    if data == "upload":
        upload_points = _upload_widget(sb, manifold, int(dim), metric, slots)

    spread = sb.slider(
        "Data spread (radians)", min_value=WIDGET_RANGES["spread"][0], max_value=WIDGET_RANGES["spread"][1], value=DEFAULT.spread, step=0.01, key="spread",
        help="vMF std (κ = 1/std²), wrapped-normal std, or the radius of a uniform data ball.", **_BIND,
    )
    n = sb.number_input("Records n", min_value=2, max_value=100_000, value=DEFAULT.n, step=10, key="n",
                        help="Number of private records (ignored for real data and uploads).", **_BIND)
    slots["n"] = sb.empty()

    r_max = _radius_max(manifold, dim, metric)
    radius = sb.slider(
        "Public ball radius r", min_value=0.05, max_value=r_max, value=min(DEFAULT.radius, r_max),
        step=0.01, key="radius",
        help=(
            "PUBLIC bound: the data are assumed to lie in B(m₀, r) (points outside are clipped onto it). "
            + ("On the unit sphere r must stay below r* = π/4 ≈ 0.785 (convexity of the Fréchet mean)." if manifold == "sphere"
               else "Hadamard space: any r > 0 is valid (r* = ∞).")
        ),
        **_BIND,
    )
    slots["radius"] = sb.empty()
    with sb.expander("Public ball centre m₀"):
        center_text = st.text_input(
            "Tangent coordinates at the canonical point", value="", key="center_offset",
            help="Comma-separated frame coordinates; empty = north pole / origin / identity. Public, never from the data.",
            **_BIND,
        )
        slots["center_offset"] = st.empty()

    sb.subheader("Mechanisms")
    table = _availability(manifold, int(dim), metric)
    mechanisms = sb.multiselect(
        "Compare", list(MECHANISM_NAMES), default=list(DEFAULT.mechanisms), key="mechanisms",
        format_func=_mechanism_title,
        help="Unavailable mechanisms stay listed; the result panel gives the reason.", **_BIND,
    )
    unavailable = [_mechanism_title(m) for m in MECHANISM_NAMES if not table.get(m, (True,))[0]]
    if unavailable:
        sb.caption("Unavailable on this manifold: " + ", ".join(unavailable) + " (reasons in the result panel).")
    slots["mechanisms"] = sb.empty()

    sb.subheader("Privacy target (one for all)")
    notion = sb.selectbox("Guarantee", list(NOTION_NAMES), index=NOTION_NAMES.index(DEFAULT.notion),
                          key="notion",
                          help="Every mechanism is calibrated to this ONE target, natively or by a valid conversion: "
                          + "; ".join(f"{k} = {v}" for k, v in NOTION_LABELS.items()),
                          **_BIND)
    sb.caption(NOTION_LABELS[notion])
    values = dict(eps=DEFAULT.eps, delta=DEFAULT.delta, mu=DEFAULT.mu, alpha=DEFAULT.alpha, rho=DEFAULT.rho)
    if notion in ("pure_dp", "approx_dp", "rdp"):
        values["eps"] = sb.select_slider(
            "ε  (← more privacy · more accuracy →)", options=EPS_GRID, value=DEFAULT.eps, key="eps",
            help="Privacy budget on a log scale. Smaller ε = stronger privacy = more noise.", **_BIND,
        )
        if values["eps"] > 10:
            sb.warning(f"ε = {values['eps']:g} is a very weak guarantee (e^ε ≈ {np.exp(values['eps']):.3g}).")
    if notion == "approx_dp":
        values["delta"] = sb.select_slider("δ", options=DELTA_GRID, value=DEFAULT.delta,
                                           key="delta", help="Failure probability; keep it below 1/n.", **_BIND)
    if notion == "gdp":
        values["mu"] = sb.select_slider("μ  (← more privacy · more accuracy →)", options=MU_GRID, value=DEFAULT.mu,
                                        key="mu", help="Gaussian DP: as hard to distinguish as N(0,1) from N(μ,1).",
                                        **_BIND)
    if notion == "rdp":
        values["alpha"] = sb.number_input("Rényi order α", min_value=WIDGET_RANGES["alpha"][0], max_value=WIDGET_RANGES["alpha"][1], value=DEFAULT.alpha,
                                          key="alpha", help="Order of the Rényi divergence (α > 1).", **_BIND)
    if notion == "zcdp":
        values["rho"] = sb.select_slider("ρ  (← more privacy · more accuracy →)",
                                         options=RHO_GRID, value=DEFAULT.rho,
                                         key="rho", help="zero-concentrated DP: (α, ρα)-RDP for every α.", **_BIND)
    slots["eps"] = slots["delta"] = slots["mu"] = slots["alpha"] = slots["rho"] = sb.empty()

    sb.subheader("Randomness")
    seed = sb.number_input("Seed", min_value=0, max_value=2**32 - 1, value=DEFAULT.seed, step=1, key="seed",
                           help="Seeds the data and the releases so the same seed reproduces the run (teaching). A real release must use "
                                "fresh, secret randomness: a known seed lets anyone subtract the noise.", **_BIND)
    n_releases = sb.number_input("Releases per mechanism", min_value=1, max_value=WIDGET_RANGES["n_releases"][1], value=DEFAULT.n_releases,
                                 step=50, key="n_releases", help="Size of the noise cloud drawn per mechanism.", **_BIND)
    slots["seed"] = slots["n_releases"] = sb.empty()

    try:
        scenario = Scenario(
            manifold=manifold, dim=int(dim), metric=metric, data=data, spread=float(spread), n=int(n),
            radius=float(radius), center_offset=center_text, mechanisms=tuple(mechanisms), notion=notion,
            seed=int(seed), n_releases=int(n_releases), **values,
        )
    except (ValueError, GeoDPError) as exc:
        param = getattr(exc, "param", None)
        slot = slots.get(param, sb)
        slot.error(str(exc), icon=":material/error:")
        return None, upload_points
    if data == "upload" and upload_points is None:
        return None, None
    return scenario, upload_points


@st.cache_data(show_spinner=False)
def _availability(manifold, dim, metric):
    try:
        table = availability_table(get_manifold(manifold, dim, metric or None))
    except (ValueError, GeoDPError):
        return {}
    return {name: (a.ok, a.reason) for name, a in table.items()}


def _upload_widget(sb, manifold, dim, metric, slots):
    """File uploader whose parsed points survive reruns (kept in session state)."""
    uploaded = sb.file_uploader(
        "CSV or NPY file", type=["csv", "npy"], key="upload_file",
        help="Sphere S²: columns lat,lon (degrees) or x,y,z. H²: Poincaré-disk x,y or hyperboloid x0,x1,x2. "
             "SPD(m): NPY (n, m, m) or CSV with m·m columns.",
    )
    slot = sb.empty()
    slots["upload"] = slot
    if uploaded is None:
        slot.info("Upload a file to use your own data.")
        return None
    try:
        manifold_obj = get_manifold(manifold, dim, metric or None)
        points = parse_points(uploaded.getvalue(), manifold_obj, filename=uploaded.name)
    except (ValueError, GeoDPError) as exc:
        slot.error(f"{uploaded.name}: {exc}", icon=":material/error:")
        return None
    slot.success(f"{uploaded.name}: {len(points)} points on {manifold_obj.label}")
    return points


def apply_scenario_to_widgets(scenario):
    """Write a Scenario's fields into the sidebar's widget state (used by presets and JSON loading).

    Values outside a control's range are moved to the nearest allowed value (a budget never to a weaker
    one); returns the list of such changes so the page can say so.
    """
    state = st.session_state
    values = scenario.to_dict()
    values["center_offset"] = ",".join(f"{v:g}" for v in scenario.center_offset)
    changes = []
    grids = {"eps": EPS_GRID, "mu": MU_GRID, "delta": DELTA_GRID, "rho": RHO_GRID}
    for key, grid in grids.items():
        # round towards MORE privacy: the largest grid value not above the requested one
        below = [g for g in grid if g <= values[key] * (1 + 1e-12)]
        snapped = max(below) if below else min(grid)
        if snapped != values[key]:
            changes.append(f"{key} {values[key]:g} → {snapped:g}")
        values[key] = snapped
    for key, (low, high) in WIDGET_RANGES.items():
        clipped = min(max(values[key], low), high)
        if clipped != values[key]:
            changes.append(f"{key} {values[key]:g} → {clipped:g}")
        values[key] = type(values[key])(clipped)
    radius_max = _radius_max(scenario.manifold, scenario.dim, scenario.metric)
    if values["radius"] > radius_max:
        changes.append(f"radius {values['radius']:g} → {radius_max:g}")
        values["radius"] = radius_max
    for key, value in values.items():
        state[key] = value
    return changes


def _apply_preset():
    name = st.session_state.get("preset")
    if name and name in PRESETS:
        apply_scenario_to_widgets(preset_scenario(name))


def _radius_max(manifold, dim, metric):
    try:
        rstar = get_manifold(manifold, int(dim), metric or None).ball_radius_limit
    except (ValueError, GeoDPError):
        rstar = np.inf
    return round(float(min(rstar - 1e-3, 3.0)), 3) if np.isfinite(rstar) else 3.0


def _load_scenario_file():
    uploaded = st.session_state.get("scenario_file")
    st.session_state.pop("scenario_file_error", None)
    if uploaded is None:
        return
    try:
        scenario = Scenario.from_json(uploaded.getvalue().decode("utf-8", errors="replace"))
    except (ValueError, GeoDPError) as exc:
        st.session_state["scenario_file_error"] = f"{uploaded.name}: {exc}"
        return
    changes = apply_scenario_to_widgets(scenario)
    if changes:
        st.session_state["scenario_file_error"] = (
            f"{uploaded.name}: loaded, but some values are outside the controls' ranges and were changed "
            "(budgets towards more privacy): " + "; ".join(changes)
        )


def _presets_and_loader(sb):
    sb.selectbox(
        "Preset", ["(custom)"] + list(PRESETS), key="preset", on_change=_apply_preset,
        help="Each paper's setup, heterogeneous data or real data; you can change any control afterwards.",
    )
    with sb.expander("Load a scenario file (JSON)"):
        st.file_uploader("Scenario JSON", type=["json"], key="scenario_file", on_change=_load_scenario_file,
                         help="A file saved with the Explorer's 'Scenario JSON' download.")
        if "scenario_file_error" in st.session_state:
            st.error(st.session_state["scenario_file_error"], icon=":material/error:")


def invalid_url_parameters(params):
    """Messages for scenario URL parameters that the controls cannot take (they are then ignored).

    Streamlit drops an invalid bound value silently; we say which one and why.
    """
    choices = {
        "manifold": tuple(SPACE_LABELS),
        "metric": tuple(METRIC_LABELS),
        "data": tuple(DATA_LABELS),
        "notion": tuple(NOTION_LABELS),
    }
    numeric = {"dim": (1, 10), "n": (2, 100_000), "radius": (0.05, 3.0), "seed": (0, 2**32 - 1),
               "n_releases": WIDGET_RANGES["n_releases"], "spread": WIDGET_RANGES["spread"],
               "alpha": WIDGET_RANGES["alpha"]}
    grids = {"eps": EPS_GRID, "mu": MU_GRID, "delta": DELTA_GRID, "rho": RHO_GRID}
    titles = {_mechanism_title(m) for m in MECHANISM_NAMES}
    messages = []
    for key in params.keys():
        values = params.get_all(key) if hasattr(params, "get_all") else [params[key]]
        for raw in values:
            if key in choices and raw not in choices[key]:
                messages.append(f"URL parameter {key}={raw!r} is not valid (one of {', '.join(choices[key])}); ignored.")
            elif key == "mechanisms" and raw not in titles:
                messages.append(f"URL parameter mechanisms={raw!r} is not a mechanism; ignored.")
            elif key in numeric or key in grids:
                try:
                    value = float(raw)
                except ValueError:
                    messages.append(f"URL parameter {key}={raw!r} is not a number; ignored.")
                    continue
                if key in grids and not any(np.isclose(value, g) for g in grids[key]):
                    messages.append(f"URL parameter {key}={raw!r} is not one of the slider's values; ignored.")
                elif key in numeric and not numeric[key][0] <= value <= numeric[key][1]:
                    low, high = numeric[key]
                    messages.append(f"URL parameter {key}={raw!r} is outside [{low:g}, {high:g}]; ignored.")
    return messages


def _url_notices(sb):
    """Show (once per session) which URL parameters were invalid and ignored."""
    if "url_notices" not in st.session_state:
        st.session_state["url_notices"] = invalid_url_parameters(st.query_params)
    for message in st.session_state["url_notices"]:
        sb.warning(message, icon=":material/link_off:")
