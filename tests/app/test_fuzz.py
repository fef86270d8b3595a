"""Seeded AppTest fuzz of every page: random URL query parameters and random widget changes.

Each case draws (from its own seed) a page, a set of URL query parameters — valid values, invalid ones
(inf, nan, huge, garbage, empty, out of range) and unknown keys — runs the page, then makes a few random
widget changes. Every run must end without an exception element and without an uncaught exception, and
every invalid URL value of a control that the page shows must be reported beside it.

Heavy actions (the audit-all and reproduce buttons, big sample sizes) are left out or capped so the whole
fuzz stays within a few minutes of CPU; the cases are independent so pytest-xdist can spread them.
"""

import random
from pathlib import Path

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 180
N_CASES = 220
PAGES = ("home", "explorer", "utility_curves", "conformal_lab", "regression", "accounting", "audit", "reproduce",
         "learn")

GARBAGE = ["inf", "-inf", "nan", "NaN", "1e309", "1e400", "-1e400", "abc", "", " ", "99999999999999999999999",
           "-99999999999999999999999", "1e-400", "0x10", "1,2", "--1", "☃", "None", "true", "[1]", "1e308"]

# valid URL values of the cheap kind (small samples) for each bound control
SIDEBAR_VALID = {
    "manifold": ["sphere", "hyperbolic", "spd", "euclidean"],
    "dim": ["1", "2", "3"],
    "metric": ["affine", "log_euclidean", "log_cholesky"],
    "data": ["vmf", "uniform_ball", "wrapped_normal", "cities", "upload", "wishart", "karate"],
    "spread": ["0.1", "0.5", "1.2"],
    "n": ["20", "50", "150"],
    "radius": ["0.3", "0.7", "1.5"],
    "center_offset": ["", "0.1,0.2", "0.3", "1e308,1e308", "abc"],
    "mechanisms": ["Riemannian Laplace", "riemannian_gaussian", "Brownian motion"],
    "notion": ["pure_dp", "approx_dp", "gdp", "rdp", "zcdp"],
    "eps": ["0.1", "1.0", "1", "5.0", "50.0"],
    "delta": ["1e-05", "1e-6", "0.001"],
    "mu": ["0.5", "1.0", "2"],
    "alpha": ["2", "10.5", "1.5"],
    "rho": ["0.1", "0.5"],
    "seed": ["0", "7", "4294967295"],
    "n_releases": ["5", "20", "40"],
}
CURVES_VALID = {
    "curves_x": ["privacy budget", "budget", "records n", "n", "data spread", "dimension d"],
    "curves_eps_min": ["0.1", "0.5"], "curves_eps_max": ["2", "10"],
    "curves_mu_min": ["0.1"], "curves_mu_max": ["3"],
    "curves_rho_min": ["0.05"], "curves_rho_max": ["2"],
    "curves_count": ["2", "3"], "curves_reps": ["2", "10", "20"],
    "curves_n_min": ["10", "20"], "curves_n_max": ["60", "100"], "curves_n_count": ["2", "3"],
    "curves_spread_min": ["0.05", "0.1"], "curves_spread_max": ["0.3", "0.6"], "curves_spread_count": ["2", "3"],
}
ACCOUNTING_VALID = {
    "accounting_notion": ["ε-DP", "(ε, δ)-DP", "μ-GDP", "gdp", "rdp", "zcdp"],
    "accounting_eps": ["0.5", "1", "3"], "accounting_delta": ["1e-5", "0.01"], "accounting_mu": ["0.5", "2"],
    "accounting_alpha": ["2", "8"], "accounting_rho": ["0.1", "1"],
    "accounting_at_eps": ["0.5", "2"], "accounting_at_delta": ["1e-5"], "accounting_profile_eps_max": ["4", "10"],
    "accounting_gdp_sensitivity": ["0.5"], "accounting_gdp_kmax": ["4", "6"], "accounting_heat_k": ["0.5", "2"],
    "accounting_heat_eps": ["0.5"], "accounting_lang_lam_max": ["8"],
}
CONFORMAL_VALID = {
    "conformal_space": ["sphere", "hyperbolic", "Hyperbolic H² (public ball)"],
    "conformal_data_sphere": ["vmf", "vmf_mixture"], "conformal_data_hyperbolic": ["wrapped_normal"],
    "conformal_n": ["100", "200"], "conformal_spread": ["0.2", "0.5"], "conformal_ball_sphere": ["0.5", "0.7"],
    "conformal_ball_hyperbolic": ["1.0"], "conformal_eps": ["0.5", "2"], "conformal_share": ["0.3", "0.5"],
    "conformal_mesh": ["200", "300"], "conformal_bandwidth": ["0.5"], "conformal_upsilon": ["1", "2"],
    "conformal_smoothing": ["0", "0.05"], "conformal_laplacian": ["fem"], "conformal_sampler": ["vertex"],
    "conformal_domain": ["2.0"], "conformal_releases": ["20", "50"], "conformal_seed": ["0", "3"],
}
REGRESSION_VALID = {
    "regression_space": ["sphere", "spd", "Hyperbolic H²", "kendall"], "regression_preset_sphere": ["short arc", "long arc"],
    "regression_n": ["20", "30"], "regression_noise": ["0.05"], "regression_eps": ["0.5", "1"],
    "regression_share": ["0.5"], "regression_tau": ["0.2"], "regression_radius": ["1.0"],
    "regression_chain": ["200", "auto"], "regression_fits": ["1", "2"], "regression_seed": ["0", "5"],
}
AUDIT_VALID = {
    "audit_space": ["sphere", "hyperbolic", "Circle S¹", "line"], "audit_mechanism": ["riemannian_laplace",
    "Riemannian Gaussian"], "audit_notion": ["pure_dp", "(ε, δ)-DP"], "audit_eps": ["0.5", "1", "2"],
    "audit_delta": ["1e-05"], "audit_n": ["5", "10"], "audit_radius": ["0.3", "0.5"],
    "audit_releases": ["500", "1000"], "audit_confidence": ["0.9", "0.95"], "audit_seed": ["0", "2"],
}
REPRODUCE_VALID = {
    "reproduce_paper": ["geometric-renyi-dp", "Geometric-Renyi-DP"],
    "reproduce_id": ["heat_hyperbolic", "heat_ewg"], "reproduce_panel": ["all", "scenario2-n50"],
    "reproduce_size": ["quick", "everyday"], "reproduce_seed": ["0", "4"],
}
BOUND = {"explorer": SIDEBAR_VALID, "utility_curves": {**SIDEBAR_VALID, **CURVES_VALID},
         "accounting": ACCOUNTING_VALID, "conformal_lab": CONFORMAL_VALID, "regression": REGRESSION_VALID,
         "audit": AUDIT_VALID, "reproduce": REPRODUCE_VALID}
ALL_KEYS = {**SIDEBAR_VALID, **CURVES_VALID, **ACCOUNTING_VALID, **CONFORMAL_VALID, **REGRESSION_VALID,
            **AUDIT_VALID, **REPRODUCE_VALID}
# always-cheap settings added to most cases (they may still be overwritten by garbage)
CHEAP = {"n_releases": "20", "n": "40", "curves_reps": "10", "curves_count": "3"}
# widget changes: caps for controls whose large values are slow (value drawn in [min, cap])
CAPS = {"n": 200, "n_releases": 40, "curves_reps": 20, "curves_count": 4, "curves_n_count": 3, "curves_n_max": 200,
        "curves_n_min": 100, "curves_spread_count": 3, "conformal_n": 300, "conformal_mesh": 900,
        "conformal_releases": 40, "regression_n": 60, "regression_fits": 2, "audit_n": 100,
        "accounting_gdp_kmax": 8, "dim": 4, "conformal_domain": 2.5}
SKIP_WIDGETS = {"audit_all_button", "audit_apply", "explorer_resample", "accounting_gdp_s2", "reproduce_run"}
SLOW_OPTIONS = {"regression_chain": 2, "audit_releases": 2}
MESSAGE_KINDS = ("error", "warning")
TEXT_KEYS = {"center_offset"}


def _query(rng, page):
    """Random URL parameters for ``page``; returns (params, keys given an invalid value)."""
    params, invalid = {}, set()
    if rng.random() < 0.7:
        params.update(CHEAP)
    bound = BOUND.get(page, {})
    pool = list(bound) if bound and rng.random() < 0.85 else list(ALL_KEYS)
    for key in rng.sample(pool, k=min(len(pool), rng.randint(0, 5))):
        if rng.random() < 0.5:
            params[key] = rng.choice(GARBAGE)
            if key not in TEXT_KEYS or params[key].strip():  # a blank text field is simply empty
                invalid.add(key)
        else:
            params[key] = rng.choice(ALL_KEYS[key])
            invalid.discard(key)
    if rng.random() < 0.3:
        params[rng.choice(["foo", "utm_source", "x", "mechanism", "EPS"])] = rng.choice(GARBAGE + ["1"])
    return params, invalid


def _force_state(widget, build):
    """Make AppTest send ``build(ws)`` for this widget, as the browser would after a click."""
    base = type(widget)

    def state(self):
        ws = WidgetState()
        ws.id = self.id
        build(ws)
        return ws

    widget.__class__ = type(base.__name__, (base,), {"_widget_state": property(state)})


def _random_change(rng, at):
    """Change one random widget to a random valid value (or do nothing when none is changeable)."""
    candidates = []
    for kind in ("number_input", "slider", "select_slider", "selectbox", "radio", "multiselect", "checkbox",
                 "toggle", "text_input"):
        candidates += [w for w in at.get(kind) if getattr(w, "key", None) not in SKIP_WIDGETS and not w.disabled]
    if not candidates:
        return None
    widget = rng.choice(candidates)
    key = widget.key
    kind = type(widget).__name__
    if kind == "NumberInput":
        low = widget.min if widget.min is not None else 0
        high = min(widget.max if widget.max is not None else low + 10, CAPS.get(key, float("inf")), low + 1e6)
        value = rng.uniform(low, max(low, high))
        if isinstance(widget.value, int) or float(widget.step).is_integer() and widget.proto.data_type == 1:
            value = int(round(value))
        widget.set_value(value)
    elif kind == "Slider":
        low, high = widget.min, min(widget.max, CAPS.get(key, widget.max))
        if isinstance(widget.value, (tuple, list)):
            a, b = sorted(rng.uniform(low, high) for _ in range(2))
            value = (type(widget.value[0])(a), type(widget.value[1])(b))
            if isinstance(value[0], int):
                value = (int(round(a)), int(round(b)))
            widget.set_range(*value)
        else:
            value = rng.uniform(low, high)
            widget.set_value(int(round(value)) if isinstance(widget.value, int) else round(value, 2))
    elif kind == "SelectSlider":
        options = widget.options[:SLOW_OPTIONS.get(key, len(widget.options))]
        choice = rng.choice(options)
        _force_state(widget, lambda ws: ws.string_array_value.data.append(choice))
        value = choice
    elif kind in ("Selectbox", "Radio"):
        if not widget.options:
            return None
        choice = rng.choice(widget.options)
        _force_state(widget, lambda ws: setattr(ws, "string_value", choice))
        value = choice
    elif kind == "Multiselect":
        choices = rng.sample(widget.options, k=rng.randint(0, min(3, len(widget.options))))
        _force_state(widget, lambda ws: ws.string_array_value.data.extend(choices))
        value = choices
    elif kind in ("Checkbox", "Toggle"):
        value = not widget.value
        widget.set_value(value)
    else:  # TextInput
        value = rng.choice(["", "0.1,0.2", "1e308", "abc", "0.2", "1,2,3,4,5,6,7,8,9,10,11", "laplace", "∞"])
        widget.set_value(value)
    return key, value


def _messages(at):
    out = []
    for kind in MESSAGE_KINDS:
        out += [str(e.value) for e in at.get(kind)]
    return out


def _shown_keys(at):
    keys = set()
    for kind in ("number_input", "slider", "select_slider", "selectbox", "radio", "multiselect", "text_input"):
        keys |= {w.key for w in at.get(kind) if getattr(w, "key", None)}
    return keys


def _check(at, where):
    assert not at.exception, f"{where}: exception element {[e.value for e in at.exception]}"


@pytest.mark.fuzz
@pytest.mark.parametrize("case", range(N_CASES))
def test_fuzz_page(case):
    rng = random.Random(1000 + case)
    page = PAGES[case % len(PAGES)]
    params, invalid = _query(rng, page)
    # a first run registers the navigation, so switch_page finds a page whose URL path is not its
    # file name (utility_curves.py is /utility)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.query_params.update(params)
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    where = f"case {case} page {page} url {params}"
    _check(at, where)
    shown = _shown_keys(at)
    text = " ".join(_messages(at))
    for key in sorted(invalid & shown):
        assert key in text, f"{where}: invalid URL value of {key!r} not reported; messages: {text[:500]}"
    for step in range(rng.randint(1, 3)):
        change = _random_change(rng, at)
        if change is None:
            break
        at.run()
        _check(at, f"{where} after change {step} {change}")
