"""The shared scenario sidebar: widgets -> a frozen, validated Scenario.

Every scenario widget is keyed by the Scenario field name, which is also its URL parameter (the app writes the
URL, see :mod:`geodp_app.urlstate`), so a link reproduces the exact view. Errors are shown
beside the control that caused them; the user's settings and upload survive.
"""

import hashlib

import numpy as np
import streamlit as st

from geodp_app.cache import cached_availability, cached_count_clipped
from geodp_app.labels import (  # declared there, shared with the URL checker
    ALL_CLASSES,
    DATA_LABELS,
    DATA_WHERE,
    METRIC_LABELS,
    NOTION_LABELS,
    SPACE_LABELS,
    as_code,
    mechanism_titles,
    radius_max,
    radius_note,
)
from geodp_app.ui import teach
from geodp_app.urlstate import url_note
from geodp_core.constraints import (
    DELTA_GRID,
    EPS_GRID,
    MU_GRID,
    RHO_GRID,
    WIDGET_RANGES,
    default_spread,
    dim_range,
)
from geodp_core.data import (
    DESCRIPTOR_BALL_RADIUS,
    DESCRIPTOR_SIZES,
    parse_points,
)
from geodp_core.exceptions import GeoDPError
from geodp_core.geometry import MANIFOLD_NAMES, get_manifold, manifold_class
from geodp_core.mechanisms import MECHANISM_NAMES
from geodp_core.pipeline import public_center, spread_check
from geodp_core.scenario import (
    MAX_SCENARIO_JSON_CHARS,
    NOTION_NAMES,
    PRESETS,
    Scenario,
    data_classes_for,
    data_kinds_for,
    preset_scenario,
)

#: The widget title of the size of a space, by what the size counts (``size_symbol``).
SIZE_TITLES = {"d": "Dimension d", "m": "Matrix size m", "k": "Landmarks k"}
#: Help of the size control, by what the size counts.
_SIZE_HELP = {
    "d": "Intrinsic dimension (S², H² are drawn in 3D / the disk).",
    "m": "SPD(m) has intrinsic dimension m(m+1)/2; image covariance descriptors fix m (9 for grey digits, 11 for "
         "colour patches).",
    "k": "Number k of planar landmarks per shape; Kendall's shape space Σᵏ₂ has dimension 2k − 4.",
}


def _space_help():
    """Help of the manifold chooser: each registered space's description."""
    descriptions = [manifold_class(code).description for code in MANIFOLD_NAMES]
    return ("The space the private data live in: " + ", ".join(descriptions[:-1]) + ", or " + descriptions[-1]
            + ".")


DEFAULT = Scenario()

#: Budgets at which the sidebar warns: (very small, very large) per budget parameter.
BUDGET_WARNINGS = {"eps": (0.05, 10.0), "mu": (0.1, 5.0), "rho": (0.01, 2.0)}
_SYMBOLS = {"eps": "ε", "mu": "μ", "rho": "ρ"}
_DATA_NOTE = "geodp_sidebar_data_note"
_LAST_MANIFOLD = "geodp_sidebar_last_manifold"
_SWITCH_NOTE = "geodp_sidebar_manifold_switch"
_CENTER_SYNCED = "geodp_sidebar_center_synced"
_CENTER_ERROR = "geodp_sidebar_center_error"


def labelled(key, labels):
    """``format_func`` of the choice ``key``: its human label from ``labels`` (the URL holds its code)."""
    return labels.__getitem__


def budget_warning(param, value, notion=None):
    """The warning for a very small or very large budget ``param`` = ``value`` (``None`` in between)."""
    low, high = BUDGET_WARNINGS[param]
    symbol = _SYMBOLS[param]
    if value <= low:
        grows = "1/√ρ" if param == "rho" else f"1/{symbol}"
        return f"{symbol} = {value:g} is a very small budget: the answer is mostly noise (the noise grows like {grows})."
    if value >= high:
        detail = ""
        if param == "eps" and notion in ("pure_dp", "approx_dp"):
            detail = f" (the chance of any outcome may change by a factor e^ε ≈ {np.exp(min(value, 700.0)):.3g})"
        elif param == "mu":
            detail = f" (as easy as telling N(0, 1) from N({value:g}, 1))"
        return (f"{symbol} = {value:g} gives little privacy: an adversary can nearly tell neighbouring datasets "
                f"apart{detail}.")
    return None


def _warn_budget(sb, param, value, notion):
    message = budget_warning(param, value, notion)
    if message:
        sb.warning(message, icon=":material/warning:")


def scenario_sidebar():
    """Render the scenario controls in the sidebar.

    Returns
    -------
    (Scenario or None, ndarray or None, show_error)
        The validated scenario (``None`` if a control is invalid: the message is shown
        beside it), the uploaded points (``None`` unless the data kind is ``upload``) and
        ``show_error(exc)``, which shows an error raised later by a computation on this
        scenario beside the control that produced it (see :data:`CONTROL_OF_PARAM`).
    """
    sb = st.sidebar
    sb.header("Scenario")
    slots = {"general": sb.container()}
    _presets_and_loader(sb)

    show_space = labelled("manifold", SPACE_LABELS)
    manifold = sb.selectbox(
        "Manifold", list(SPACE_LABELS), key="manifold", format_func=show_space,
        help=_space_help(), on_change=_fit_to_manifold,
    )
    url_note("manifold", manifold, sb)
    if show_space is str:
        sb.caption(SPACE_LABELS[manifold])
    slots["manifold"] = sb.empty()
    _manifold_lesson(sb, manifold)
    space = manifold_class(manifold)
    dim = sb.number_input(
        SIZE_TITLES.get(space.size_symbol, f"Size {space.size_symbol}"),
        min_value=dim_range(manifold)[0], max_value=dim_range(manifold)[1],
        value=space.default_size, step=1, key="dim", help=_SIZE_HELP.get(space.size_symbol),
    )
    url_note("dim", dim, sb)
    slots["dim"] = sb.empty()
    metric = ""
    if space.metric_choices:
        metric = sb.selectbox(
            "Metric", list(space.metric_choices), key="metric", format_func=labelled("metric", METRIC_LABELS),
            help="Affine-invariant (curved, Hadamard) or one of the two flat metrics (log-Euclidean, log-Cholesky).",
        )
        url_note("metric", metric, sb)
    slots["metric"] = sb.empty()

    kinds = data_kinds_for(manifold)
    data_before = as_code(st.session_state.get("data", st.query_params.get("data")), DATA_LABELS)
    show_data = labelled("data", DATA_LABELS)
    data = sb.selectbox(
        "Data", kinds, key="data", format_func=show_data,
        help="The private dataset (synthetic generators, geomstats' real data, image descriptors computed from "
             "scikit-learn's images, or your file).", on_change=_fit_dim_to_data,
    )
    url_note("data", data, sb)
    if show_data is str:
        sb.caption(DATA_LABELS[data])
    _data_change_note(sb, manifold, data, data_before, kinds)
    slots["data"] = sb.empty()
    data_class = _class_widget(sb, data)
    slots["data_class"] = sb.empty()
    upload_points = None
    if data == "upload":
        upload_points = _upload_widget(sb, manifold, int(dim), metric, slots)

    spread_default = _follow_dimension(manifold, int(dim))
    spread = sb.slider(
        "Data spread (radians)", min_value=WIDGET_RANGES["spread"][0], max_value=WIDGET_RANGES["spread"][1], value=spread_default, step=0.01, key="spread",
        help="vMF std (κ = 1/std²), wrapped-normal std, or the radius of a uniform data ball. Its default follows "
             f"the dimension (here {spread_default:g}), so that records lie about as far from the centre in every "
             "dimension.",
    )
    url_note("spread", spread, sb)
    slots["spread"] = sb.empty()
    spread_slot = sb.empty()  # the expected spread against the radius, filled once the radius is known
    n = sb.number_input("Records n", min_value=WIDGET_RANGES["n"][0], max_value=WIDGET_RANGES["n"][1],
                        value=DEFAULT.n, step=10, key="n",
                        help="Number of private records (ignored for real data and uploads).")
    url_note("n", n, sb)
    slots["n"] = sb.empty()

    r_max = radius_max(manifold, dim, metric)
    radius = sb.slider(
        "Public ball radius r", min_value=0.05, max_value=r_max, value=min(DEFAULT.radius, r_max),
        step=0.01, key="radius",
        help=(
            "PUBLIC bound: the data are assumed to lie in B(m₀, r) (points outside are clipped onto it). "
            + (radius_note(manifold, dim, metric).capitalize() + "."
               if radius_note(manifold, dim, metric) else "Hadamard space: any r > 0 is valid (r* = ∞).")
        ),
    )
    url_note("radius", radius, sb)
    slots["radius"] = sb.empty()
    on_s2 = _view(manifold, dim, metric) == "sphere3d"  # S² drawn in 3-D: a centre by latitude/longitude
    with sb.expander("Public ball centre m₀", expanded=on_s2 and data == "upload"):
        lat_lon_box = st.container() if on_s2 else None
        center_text = st.text_input(
            "… or as tangent coordinates at the north pole" if on_s2 else "Tangent coordinates at the canonical point",
            value="", key="center_offset",
            help="Comma-separated coordinates of a tangent vector at the canonical point (north pole, origin or "
                 "identity matrix; for image descriptors the public reference c·I stated in the data description); "
                 "the centre is where that vector leads. Empty = the canonical point itself. "
                 "Public: chosen from domain knowledge, never from the data.",
        )
        url_note("center_offset", center_text)
        if lat_lon_box is not None:
            _lat_lon_center(lat_lon_box, center_text)
        slots["center_offset"] = st.empty()
    clip_slot = sb.empty()
    p = sb.number_input(
        "Summary exponent p", min_value=WIDGET_RANGES["p"][0], max_value=WIDGET_RANGES["p"][1], value=DEFAULT.p,
        step=0.1, format="%.2g", key="p",
        help="The released summary is the Fréchet p-mean, the point minimising Σ d(y, xᵢ)ᵖ: p = 2 is the usual mean, "
             "p near 1 a robust median-like centre, large p a mid-range. Its sensitivity follows Chang, Jiang, "
             "Mostajeran & Hu (2026), Theorems 13, 15, 16: for p > 2 it shrinks only like n^(−1/(p−1)).")
    url_note("p", p, sb)
    slots["p"] = sb.empty()

    sb.subheader("Mechanisms")
    table = cached_availability(manifold, int(dim), metric)
    mechanisms = sb.multiselect(
        "Compare", list(MECHANISM_NAMES), default=list(DEFAULT.mechanisms), key="mechanisms",
        format_func=mechanism_titles().__getitem__,
        help="Unavailable mechanisms stay listed; the result panel gives the reason.",
    )
    url_note("mechanisms", mechanisms, sb)
    unavailable = [mechanism_titles()[m] for m in MECHANISM_NAMES if not table.get(m, (True,))[0]]
    if unavailable:
        sb.caption("Unavailable on this manifold: " + ", ".join(unavailable) + " (reasons in the result panel).")
    slots["mechanisms"] = sb.empty()

    sb.subheader("Privacy target (one for all)")
    show_notion = labelled("notion", NOTION_LABELS)
    notion = sb.selectbox("Guarantee", list(NOTION_NAMES), index=NOTION_NAMES.index(DEFAULT.notion),
                          key="notion", format_func=show_notion,
                          help="Every mechanism is calibrated to this ONE target, natively or by a valid conversion "
                               "(ε-DP, (ε, δ)-DP, μ-Gaussian DP, (α, ε)-Rényi DP or ρ-zero-concentrated DP).")
    url_note("notion", notion, sb)
    if show_notion is str:
        sb.caption(NOTION_LABELS[notion])
    slots["notion"] = sb.empty()
    values = dict(eps=DEFAULT.eps, delta=DEFAULT.delta, mu=DEFAULT.mu, alpha=DEFAULT.alpha, rho=DEFAULT.rho)
    if notion in ("pure_dp", "approx_dp", "rdp"):
        values["eps"] = sb.select_slider(
            "ε  (← more privacy · more accuracy →)", options=EPS_GRID, value=DEFAULT.eps, key="eps",
            help="Privacy budget on a log scale. Smaller ε = stronger privacy = more noise.",
        )
        url_note("eps", values["eps"], sb)
        _warn_budget(sb, "eps", values["eps"], notion)
    if notion == "approx_dp":
        values["delta"] = sb.select_slider("δ", options=DELTA_GRID, value=DEFAULT.delta,
                                           key="delta", help="Failure probability; keep it below 1/n.")
        url_note("delta", values["delta"], sb)
    if notion == "gdp":
        values["mu"] = sb.select_slider("μ  (← more privacy · more accuracy →)", options=MU_GRID, value=DEFAULT.mu,
                                        key="mu", help="Gaussian DP: as hard to distinguish as N(0,1) from N(μ,1).")
        url_note("mu", values["mu"], sb)
        _warn_budget(sb, "mu", values["mu"], notion)
    if notion == "rdp":
        values["alpha"] = sb.number_input("Rényi order α", min_value=WIDGET_RANGES["alpha"][0], max_value=WIDGET_RANGES["alpha"][1], value=DEFAULT.alpha,
                                          key="alpha", help="Order of the Rényi divergence (α > 1).")
        url_note("alpha", values["alpha"], sb)
    if notion == "zcdp":
        values["rho"] = sb.select_slider("ρ  (← more privacy · more accuracy →)",
                                         options=RHO_GRID, value=DEFAULT.rho,
                                         key="rho", help="zero-concentrated DP: (α, ρα)-RDP for every α.")
        url_note("rho", values["rho"], sb)
        _warn_budget(sb, "rho", values["rho"], notion)
    slots["eps"] = slots["delta"] = slots["mu"] = slots["alpha"] = slots["rho"] = slots["target"] = sb.empty()

    sb.subheader("Randomness")
    seed = sb.number_input("Seed", min_value=WIDGET_RANGES["seed"][0], max_value=WIDGET_RANGES["seed"][1],
                           value=DEFAULT.seed, step=1, key="seed",
                           help="Seeds the data and the releases so the same seed reproduces the run (teaching). A real release must use "
                                "fresh, secret randomness: a known seed lets anyone subtract the noise.")
    url_note("seed", seed, sb)
    n_releases = sb.number_input("Releases per mechanism", min_value=1, max_value=WIDGET_RANGES["n_releases"][1], value=DEFAULT.n_releases,
                                 step=50, key="n_releases", help="Size of the noise cloud drawn per mechanism.")
    url_note("n_releases", n_releases, sb)
    slots["seed"] = slots["n_releases"] = sb.empty()


    def show_error(exc):
        """Show ``exc`` (raised by a computation on this scenario) beside the control that produced it."""
        show_error_beside(exc, slots)

    try:
        scenario = Scenario(
            manifold=manifold, dim=int(dim), metric=metric, data=data, spread=float(spread), n=int(n),
            radius=float(radius), center_offset=center_text, mechanisms=tuple(mechanisms), notion=notion,
            seed=int(seed), n_releases=int(n_releases), data_class=data_class, p=float(p), **values,
        )
    except (ValueError, GeoDPError) as exc:
        show_error(exc)
        return None, upload_points, show_error
    if data == "upload" and upload_points is None:
        return None, None, show_error
    if upload_points is not None:
        _clipped_note(clip_slot, scenario, upload_points)
    _spread_advice(spread_slot, scenario)
    return scenario, upload_points, show_error


_SPREAD_DEFAULT_SHOWN = "geodp_spread_default_shown"


def _follow_dimension(manifold, dim):
    """The spread control's default in this dimension (:func:`~geodp_core.constraints.default_spread`); a spread
    the user has not changed (still the default of the previous run) moves with it when the dimension changes."""
    state = st.session_state
    default = default_spread(manifold, dim)
    before = state.get(_SPREAD_DEFAULT_SHOWN)
    current = state.get("spread")
    if before is not None and default != before and isinstance(current, (int, float)) and abs(current - before) < 1e-9:
        state["spread"] = default
    state[_SPREAD_DEFAULT_SHOWN] = default
    return default


def _set_spread(value):
    st.session_state["spread"] = value


def _spread_advice(slot, scenario):
    """Before the run: warn beside the spread control when the expected spread (s·√d) nears the public radius, and
    offer the matching spread in one click (public: computed from the controls only)."""
    check = spread_check(scenario)
    if check is None or not check.too_wide:
        slot.empty()
        return
    box = slot.container()
    box.warning(check.message(), icon=":material/open_in_full:")
    box.button(f"Use spread {check.fit:g} (s·√d ≈ r/2)" if check.formula == "s·√d" else f"Use spread {check.fit:g}",
               key="spread_fit", on_click=_set_spread, args=(check.fit,), icon=":material/compress:",
               help=f"Sets the data spread to {check.fit:g}: records then lie about {check.fit * check.typical / check.spread:.2g} "
                    f"rad from the centre, at most half the public radius r = {check.radius:g}.")


def _fit_dim_to_data():
    """When a dataset with a fixed matrix size is picked (image descriptors), set the size control to it, and
    widen a smaller public radius to the dataset's suggested one (public: part of the dataset's definition)."""
    data = as_code(st.session_state.get("data"), DATA_LABELS)
    if data in DESCRIPTOR_SIZES:
        st.session_state["dim"] = DESCRIPTOR_SIZES[data]
        radius = st.session_state.get("radius")
        if not isinstance(radius, (int, float)) or radius < DESCRIPTOR_BALL_RADIUS:
            st.session_state["radius"] = DESCRIPTOR_BALL_RADIUS


def _class_widget(sb, data):
    """The class control of a labelled real dataset: the chosen label, or ``None`` for every class."""
    classes = data_classes_for(data)
    if not classes:
        return None
    options = [ALL_CLASSES, *map(str, classes)]
    if str(st.session_state.get("data_class", ALL_CLASSES)) not in options:  # left over from another dataset
        st.session_state["data_class"] = ALL_CLASSES
    choice = sb.selectbox(
        "Class", options, key="data_class",
        help="Keep only the records of one class (He et al.'s density-aware conformal mechanism privatises the mean of one class). The "
             "class labels are public information about the dataset; the records are private.",
    )
    url_note("data_class", choice, sb)
    if choice == ALL_CLASSES:
        sb.caption("Every class: " + ", ".join(f"{k} = {v}" for k, v in classes.items()))
        return None
    sb.caption(f"Class {choice}: {classes[int(choice)]}")
    return int(choice)


def _data_change_note(sb, manifold, data, before, kinds):
    """Say so when a manifold change replaced the data kind (the new manifold does not offer it)."""
    if before is not None and before not in kinds:
        st.session_state[_DATA_NOTE] = dict(manifold=manifold, data=data, before=before)
    note = st.session_state.get(_DATA_NOTE)
    if not note:
        return
    if (note["manifold"], note["data"]) != (manifold, data):  # the user moved on: the note has served
        st.session_state.pop(_DATA_NOTE, None)
        return
    old = DATA_LABELS[note["before"]]
    why = DATA_WHERE.get(note["before"], f"it is not offered on {SPACE_LABELS[manifold]}")
    sb.warning(f"Data changed from {old} to {DATA_LABELS[data]}: {old} data are not offered on "
               f"{SPACE_LABELS[manifold]} ({why}).", icon=":material/swap_horiz:")


def _manifold_lesson(sb, manifold):
    """In teaching mode, after the user changed the manifold: what curvature does to the sensitivity Δ (a manifold
    set by a link, Back or Forward is no change of the user's)."""
    st.session_state[_LAST_MANIFOLD] = manifold
    switch = st.session_state.get(_SWITCH_NOTE)
    if not switch or switch[1] != manifold:
        return
    old, new = switch
    old_positive, new_positive = (_positively_curved(name) for name in switch)
    if new_positive and not old_positive:
        change = "Here it is **larger**"
    elif old_positive and not new_positive:
        change = "Here it is **smaller**"
    else:
        change = "Both spaces are " + ("positively curved: the larger curvature bound gives the larger Δ"
                                      if new_positive else "Hadamard spaces: Δ has the same form")
    teach(f"**{SPACE_LABELS[old]} → {SPACE_LABELS[new]}.** The noise is scaled to the public sensitivity $\\Delta$ "
          "of the Fréchet mean, and $\\Delta$ depends on curvature: $\\Delta = 2r/n$ on Hadamard spaces "
          "(curvature $\\le 0$: hyperbolic, SPD, flat) but $\\Delta = \\tfrac{2r(2-h)}{nh} > 2r/n$ when the "
          "curvature is at most $\\kappa > 0$, with $h = 2r\\sqrt{\\kappa}\\cot(2r\\sqrt{\\kappa}) < 1$ "
          f"($\\kappa = 1$ on the sphere, 4 on Kendall shapes). {change}: compare the Sensitivity Δ of the two "
          "manifolds.", where=sb)


def _positively_curved(manifold):
    """Whether the space has positive curvature somewhere (not a Hadamard space): sphere, Kendall shapes."""
    return not get_manifold(manifold, dim_range(manifold)[0]).is_hadamard


def _lat_lon_of_offset(text):
    """``(lat, lon)`` in degrees of the S² centre given by tangent coordinates ``text`` (``None`` if invalid)."""
    try:
        offset = Scenario(center_offset=text).center_offset
        sphere = get_manifold("sphere", 2)
        lat, lon = sphere.to_lat_lon(public_center(Scenario(center_offset=offset), sphere))
        return float(lat), float(lon)
    except (ValueError, GeoDPError, FloatingPointError):
        return None


def offset_of_lat_lon(lat, lon):
    """Tangent coordinates (text) at the north pole o of the S² point at ``lat``, ``lon`` (degrees).

    The inverse of :func:`geodp_core.pipeline.public_center`, which maps an offset v to Exp_o(v):
    v = Log_o(point) in o's frame; the north pole itself gives the empty text.
    """
    sphere = get_manifold("sphere", 2)
    base = sphere.default_center()
    point = sphere.from_lat_lon(lat, lon)
    coords = np.asarray(sphere.to_frame(base, sphere.log(base, point)), dtype=float).ravel()
    if np.all(np.abs(coords) < 1e-12):
        return ""
    return ",".join(f"{v:.8g}" for v in coords)


def _center_from_lat_lon():
    """Callback of the latitude/longitude inputs: write the centre into the URL-bound tangent coordinates."""
    state = st.session_state
    try:
        text = offset_of_lat_lon(float(state["center_lat"]), float(state["center_lon"]))
    except (KeyError, TypeError, ValueError, GeoDPError) as exc:
        state[_CENTER_ERROR] = ("The centre cannot be the south pole: it is the one point with no unique shortest "
                                "path from the north pole. Pick a latitude above −90°."
                                if "cut locus" in str(exc) else str(exc))
        return
    state.pop(_CENTER_ERROR, None)
    state["center_offset"] = text
    state[_CENTER_SYNCED] = text


def _lat_lon_center(box, center_text):
    """Latitude / longitude inputs of the public centre on S² (kept in step with the tangent coordinates)."""
    state = st.session_state
    if state.get(_CENTER_SYNCED) != center_text or "center_lat" not in state or "center_lon" not in state:
        lat_lon = _lat_lon_of_offset(center_text)
        if lat_lon is not None or "center_lat" not in state or "center_lon" not in state:
            lat, lon = lat_lon or (90.0, 0.0)
            state["center_lat"], state["center_lon"] = round(lat, 4), round(lon, 4)
        state[_CENTER_SYNCED] = center_text
        state.pop(_CENTER_ERROR, None)  # the centre was set another way: an old latitude error no longer applies
    box.caption("Where the public ball is centred. Choose it from public knowledge (e.g. the region a survey "
                "covers), never by looking at the data.")
    left, right = box.columns(2)
    left.number_input("Latitude (°)", min_value=-90.0, max_value=90.0, step=1.0, format="%.4f", key="center_lat",
                      on_change=_center_from_lat_lon, help="Degrees north (negative: south). 90 = the north pole.")
    right.number_input("Longitude (°)", min_value=-180.0, max_value=180.0, step=1.0, format="%.4f",
                       key="center_lon", on_change=_center_from_lat_lon, help="Degrees east (negative: west).")
    if _CENTER_ERROR in state:
        box.error(state[_CENTER_ERROR], icon=":material/error:")


def _clipped_note(slot, scenario, points):
    """How many uploaded points lie outside the public ball (from private data: for the data owner only)."""
    try:
        n_out = int(cached_count_clipped(scenario.to_json(), upload_digest(points), points))
    except (ValueError, GeoDPError):
        return  # the page reports the problem beside the control
    if n_out:
        slot.warning(
            f"For the data owner only: {n_out} of {len(points)} uploaded points lie outside the public ball "
            f"B(m₀, r = {scenario.radius:g}) and will be clipped onto its boundary. Changing the centre or the radius "
            "after looking at the data would itself leak information: fix them from public knowledge.",
            icon=":material/lock:",
        )
    else:
        slot.caption(f"For the data owner only: all {len(points)} uploaded points lie inside the public ball.")


#: Parameter named by a core error -> the sidebar control that produced it (the rest go to the top).
#: Errors about the public centre or the upload are already renamed "center_offset" / "upload" by
#: pipeline.prepare, so only the generators' own parameter names are mapped here.
CONTROL_OF_PARAM = {
    "kappa": "spread", "kappas": "spread", "std": "spread", "stds": "spread",
    "n_samples": "n", "size": "n_releases", "sensitivity": "radius", "ball_radius": "radius",
    "domain_radius": "radius", "file": "upload", "target": "target",
}


def control_for_error(exc):
    """The sidebar control key an error belongs to (``"general"`` when it names none)."""
    param = getattr(exc, "param", None)
    if param in Scenario.__dataclass_fields__ or param == "upload":
        return param
    return CONTROL_OF_PARAM.get(param, "general")


def show_error_beside(exc, slots):
    """Show an error beside its control (slot); never a traceback."""
    key = control_for_error(exc)
    slot = slots.get(key) or slots.get("general") or st.sidebar
    if isinstance(exc, (ValueError, GeoDPError)):
        slot.error(str(exc), icon=":material/error:")
    else:
        slot.error(f"Internal error ({type(exc).__name__}) while computing this scenario; your settings are kept.",
                   icon=":material/error:")


_UPLOADS = "geodp_uploads"


def _parsed(entry, spec):
    """Points of an uploaded file for a manifold ``spec`` = (name, dim, metric), parsed once (or the error)."""
    if spec not in entry["results"]:
        try:
            manifold_obj = get_manifold(spec[0], spec[1], spec[2] or None)
            points = parse_points(entry["raw"], manifold_obj, filename=entry["name"])
            digest = hashlib.sha256(repr(spec).encode() + entry["digest"].encode()).hexdigest()
            entry["results"][spec] = (points, digest, manifold_obj.label)
        except (ValueError, GeoDPError) as exc:
            entry["results"][spec] = str(exc)
        except Exception as exc:  # noqa: BLE001 - a file we cannot read is a bad file, never a crash
            entry["results"][spec] = f"{entry['name']}: could not be read ({type(exc).__name__})"
    return entry["results"][spec]


def _upload_widget(sb, manifold, dim, metric, slots):
    """File uploader: each file is read and parsed once per manifold (kept in session state).

    A bad file shows its error beside the uploader and the last valid file stays in use (the page says
    so) until the user removes the file from the uploader.
    """
    uploaded = sb.file_uploader(
        "CSV or NPY file", type=["csv", "npy"], key="upload_file",
        help="Sphere S²: columns lat,lon (degrees) or x,y,z. H²: Poincaré-disk x,y or hyperboloid x0,x1,x2. "
             "SPD(m): NPY (n, m, m) or CSV with m·m columns. Points outside the public ball B(m₀, r) are clipped "
             "onto it: set its centre m₀ and radius r below, from public knowledge.",
    )
    slot = sb.container()
    slots["upload"] = slot
    state = st.session_state.setdefault(_UPLOADS, {"files": {}, "good": None})
    if uploaded is None:
        state["files"].clear()
        state["good"] = None
        slot.info("Upload a file to use your own data.")
        return None
    file_id = getattr(uploaded, "file_id", None) or f"{uploaded.name}:{uploaded.size}"
    entry = state["files"].get(file_id)
    if entry is None:
        raw = uploaded.getvalue()
        entry = {"name": uploaded.name, "raw": raw, "digest": hashlib.sha256(raw).hexdigest(), "results": {}}
        state["files"][file_id] = entry
    spec = (manifold, int(dim), metric)
    result = _parsed(entry, spec)
    if not isinstance(result, str):
        points, digest, label = result
        state["good"] = file_id
        for other in [k for k in state["files"] if k != file_id]:
            del state["files"][other]  # one valid file is kept, never more
        slot.success(f"{entry['name']}: {len(points)} points on {label}")
        return _remember(state, points, digest)
    message = result if entry["name"] in result else f"{entry['name']}: {result}"
    slot.error(message, icon=":material/error:")
    good = state["files"].get(state["good"]) if state["good"] not in (None, file_id) else None
    if good is not None:
        kept = _parsed(good, spec)
        if not isinstance(kept, str):
            slot.warning(f"Still using the previous valid file {good['name']} ({len(kept[0])} points) until you "
                         "upload a valid file or remove this one.", icon=":material/history:")
            return _remember(state, kept[0], kept[1])
    for other in [k for k in state["files"] if k not in (file_id, state["good"])]:
        del state["files"][other]
    return None


def _remember(state, points, digest):
    state["digest"] = (id(points), digest)
    return points


def upload_digest(points):
    """The cache key of uploaded points (a hash of the file and the manifold; ``None`` without an upload)."""
    if points is None:
        return None
    known = st.session_state.get(_UPLOADS, {}).get("digest")
    digest = known[1] if known and known[0] == id(points) else None
    if digest is None:
        arr = np.ascontiguousarray(points, dtype=np.float64)
        digest = hashlib.sha256(repr(arr.shape).encode() + arr.tobytes()).hexdigest()
    return digest


def apply_scenario_to_widgets(scenario):
    """Write a Scenario's fields into the sidebar's widget state (used by presets and JSON loading).

    Values outside a control's range are moved to the nearest allowed value (a budget never to a weaker
    one); returns the list of such changes so the page can say so.
    """
    state = st.session_state
    values = scenario.to_dict()
    values["center_offset"] = ",".join(f"{v:g}" for v in scenario.center_offset)
    values["data_class"] = ALL_CLASSES if scenario.data_class is None else str(scenario.data_class)
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
    r_max = radius_max(scenario.manifold, scenario.dim, scenario.metric)
    if values["radius"] > r_max:
        changes.append(f"radius {values['radius']:g} → {r_max:g}")
        values["radius"] = r_max
    for key, value in values.items():
        state[key] = value
    state.pop(_SPREAD_DEFAULT_SHOWN, None)  # a loaded spread is the scenario's own: it does not follow the dimension
    return changes


def _apply_preset():
    name = st.session_state.get("preset")
    if name and name in PRESETS:
        apply_scenario_to_widgets(preset_scenario(name))


_SIZES = "geodp_sidebar_sizes"


def _fit_to_manifold():
    """After the user changed the manifold: the size of the space becomes the one last used on that space, or the
    space's own default (12 landmarks do not follow the user to the sphere); the spread is kept at most the space's
    default spread (a landmark noise s moves a shape about s·√(2k) away) and the radius within the space's range, so
    that no control is left outside its range."""
    state = st.session_state
    manifold = state.get("manifold")
    if manifold not in SPACE_LABELS:
        return
    old = state.get(_LAST_MANIFOLD)
    sizes = state.setdefault(_SIZES, {})
    if old in SPACE_LABELS and isinstance(state.get("dim"), (int, float)):
        sizes[old] = int(state["dim"])
    if old is not None and old != manifold:
        state[_SWITCH_NOTE] = (old, manifold)
    space = manifold_class(manifold)
    low, high = dim_range(manifold)
    dim = sizes.get(manifold, space.default_size)
    state["dim"] = dim if low <= dim <= high else space.default_size
    spread = state.get("spread")
    if isinstance(spread, (int, float)) and spread > space.default_spread:
        state["spread"] = space.default_spread
    radius = state.get("radius")
    top = radius_max(manifold, state["dim"], state.get("metric") or "")
    if isinstance(radius, (int, float)) and radius > top:
        state["radius"] = top


def _view(manifold, dim, metric):
    """The view kind of the space (``None`` when the manifold is invalid)."""
    try:
        return get_manifold(manifold, int(dim), metric or None).view
    except (ValueError, GeoDPError):
        return None


def _load_scenario_file():
    uploaded = st.session_state.get("scenario_file")
    st.session_state.pop("scenario_file_error", None)
    if uploaded is None:
        return
    try:
        if uploaded.size > MAX_SCENARIO_JSON_CHARS:
            raise GeoDPError(f"the file is {uploaded.size} bytes; a scenario file is at most "
                             f"{MAX_SCENARIO_JSON_CHARS} (saved ones are under 2 kB)")
        scenario, settings = Scenario.read_file(uploaded.getvalue())
    except (ValueError, GeoDPError) as exc:
        st.session_state["scenario_file_error"] = f"{uploaded.name}: {exc}"
        return
    except Exception as exc:  # noqa: BLE001 - a file we cannot read never crashes the page
        st.session_state["scenario_file_error"] = f"{uploaded.name}: could not be read ({type(exc).__name__})"
        return
    from geodp_app.url_params import load_page_settings  # url_params imports this module

    changes = apply_scenario_to_widgets(scenario) + load_page_settings(settings)
    if changes:
        st.session_state["scenario_file_error"] = (
            f"{uploaded.name}: loaded, but some values are outside the controls' ranges and were changed or "
            "skipped (budgets towards more privacy): " + "; ".join(changes)
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
