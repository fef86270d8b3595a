"""The hostile-input battery: every public entry point of the kinds that escaped as raw or vague errors.

Each case substitutes ONE hostile value (integers beyond the double range, ±1e308, the smallest subnormal, 0,
negatives, NaN, ±inf, booleans, strings, None, lists, ragged lists, complex numbers) into one argument of a valid
call. The outcome must be a valid result (finite numbers, points on the manifold) or a ``ValueError`` subclass
from :mod:`geodp_core.exceptions` that names the argument (``param``) in its message; never a raw exception, a
NaN and never a hang. Used by ``tests/test_hostile_inputs.py`` (and runnable alone for the counts).
"""

import math
import signal

import numpy as np

from geodp_core import pipeline
from geodp_core.data import clip_to_ball, vmf_kappa_from_std
from geodp_core.data.generators import vmf_mean_resultant_length
from geodp_core.exceptions import GeoDPError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.mechanisms import heat_diffusion as hd
from geodp_core.mechanisms.gaussian_gdp import gdp_mu
from geodp_core.mechanisms.heat_kernel import sphere2_radial_cdf
from geodp_core.mechanisms.kendall_gdp import kendall_gdp_mu
from geodp_core.mechanisms.sphere_heat_kernel import sphere_radial_cdf
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    analytic_gaussian_sigma,
    classical_gaussian_sigma,
    compose,
    eps_dp_to_gdp,
    eps_dp_to_rdp,
    gdp_delta,
    gdp_mu_for_approx_dp,
    gdp_to_eps_dp,
    log_gdp_delta,
    mironov_rdp_to_approx_dp,
    rdp_to_approx_dp,
    zcdp_to_approx_dp,
)
from geodp_core.scenario import Scenario
from geodp_core.summaries import frechet_mean, frechet_mean_sensitivity, p_mean, p_mean_sensitivity

HUGE_INT = 10**400
SCALARS = {
    "10**400": HUGE_INT, "-10**400": -HUGE_INT, "1e308": 1e308, "-1e308": -1e308, "5e-324": 5e-324, "0": 0,
    "-1": -1, "nan": math.nan, "inf": math.inf, "-inf": -math.inf, "True": True, "'1'": "1", "None": None,
    "[1, 2]": [1, 2], "1j": 1j,
}
S2 = get_manifold("sphere", 2)
R2 = get_manifold("euclidean", 2)
NORTH = S2.default_center()
POINTS = S2.exp(NORTH, S2.from_frame(NORTH, 0.2 * np.random.default_rng(0).standard_normal((8, 2))))
ARRAYS = {
    "ragged": [[0.0, 0.0, 1.0], [0.0, 1.0]], "nan row": np.r_[POINTS[:2], [[np.nan, 0.0, 1.0]]],
    "off manifold": 2.0 * POINTS, "empty": np.zeros((0, 3)), "wrong width": np.ones((3, 2)),
    "huge": np.full((2, 3), 1e308), "strings": [["a", "b", "c"]], "bools": [[True, False, True]],
    "three vs two": "pair",
}


def _base_cases():
    """``(name, function, valid positional args)``: the entry points and a valid call of each."""
    rng = np.random.default_rng
    cases = [
        ("PureDP", PureDP, (1.0,)), ("ApproxDP", ApproxDP, (1.0, 1e-5)), ("GDP", GDP, (1.0,)),
        ("RDP", RDP, (2.0, 1.0)), ("ZCDP", ZCDP, (0.5,)),
        ("gdp_delta", gdp_delta, (1.0, 1.0)), ("log_gdp_delta", log_gdp_delta, (1.0, 1.0)),
        ("eps_dp_to_gdp", eps_dp_to_gdp, (1.0,)), ("gdp_to_eps_dp", gdp_to_eps_dp, (1.0,)),
        ("eps_dp_to_rdp", eps_dp_to_rdp, (1.0, 2.0)),
        ("rdp_to_approx_dp", rdp_to_approx_dp, (2.0, 1.0, 1e-5)),
        ("mironov_rdp_to_approx_dp", mironov_rdp_to_approx_dp, (2.0, 1.0, 1e-5)),
        ("zcdp_to_approx_dp", zcdp_to_approx_dp, (0.5, 1e-5)),
        ("gdp_mu_for_approx_dp", gdp_mu_for_approx_dp, (1.0, 1e-5)),
        ("analytic_gaussian_sigma", analytic_gaussian_sigma, (1.0, 1e-5, 1.0)),
        ("classical_gaussian_sigma", classical_gaussian_sigma, (0.5, 1e-5, 1.0)),
        ("compose_pure", lambda a, b: compose([PureDP(a), PureDP(b)]), (1.0, 1.0)),
        ("compose_gdp", lambda a, b: compose([GDP(a), GDP(b)]), (1.0, 1.0)),
        ("compose_zcdp", lambda a, b: compose([ZCDP(a), ZCDP(b)]), (1.0, 1.0)),
        ("frechet_mean_sensitivity", frechet_mean_sensitivity, (10, 0.5, 1.0)),
        ("p_mean_sensitivity", p_mean_sensitivity, (10, 0.5, 3.0, 1.0)),
        ("bm_diffusion_time", hd.bm_diffusion_time, (-1.0, 2.0, 0.1, 1.0)),
        ("bm_rdp_eps", hd.bm_rdp_eps, (-1.0, 2.0, 0.1, 1.0)),
        ("bm_zcdp_rho", hd.bm_zcdp_rho, (-1.0, 0.1, 1.0)),
        ("bm_privacy_floor", hd.bm_privacy_floor, (1.0, 2.0, 0.1)),
        ("langevin_diffusion_time", hd.langevin_diffusion_time, (0.0, 1.0, 2.0, 0.1, 1.0)),
        ("langevin_rdp_eps", hd.langevin_rdp_eps, (0.0, 1.0, 2.0, 0.1, 1.0)),
        ("gdp_mu_sphere", lambda sigma, delta: gdp_mu("sphere", 2, sigma, delta), (0.5, 0.2)),
        ("sphere2_radial_cdf", sphere2_radial_cdf, (0.5, 0.1)),
        ("kendall_gdp_mu_k", lambda k: kendall_gdp_mu(k, 0.3, 0.1), (5,)),
        ("sphere_radial_cdf", lambda r, t: sphere_radial_cdf(r, t, 4), (0.5, 0.1)),
        ("vmf_kappa_from_std", vmf_kappa_from_std, (0.3,)),
        ("vmf_mean_resultant_length", vmf_mean_resultant_length, (5.0, 2)),
        ("get_manifold_sphere", lambda d: get_manifold("sphere", d), (2,)),
        ("get_manifold_kendall", lambda k: get_manifold("kendall", k), (5,)),
        ("p_mean_p", lambda p: p_mean(S2, POINTS, p), (1.5,)),
        ("p_mean_R3_two_points", lambda p: p_mean(get_manifold("euclidean", 3), np.eye(3)[:2], p), (1.0001,)),
        ("clip_to_ball_radius", lambda r: clip_to_ball(R2, np.array([[3.0, 0.0], [1e308, -1e308]]), np.zeros(2), r),
         (1.0,)),
        ("kng_sample_x", _kng_sample, (0.5,)),
        ("scenario_from_json_eps", lambda v: Scenario.from_json(_json({"eps": v})), (1.0,)),
        ("prepare_p", lambda p: pipeline.prepare(Scenario(n=20, p=p)), (1.0001,)),
        ("prepare_kendall3_p", lambda p: pipeline.prepare(Scenario(manifold="kendall", dim=3, data="shape_perturbation",
                                                                   spread=0.05, radius=0.3, n=30, p=p)), (1.001,)),
        ("prepare_upload_R2", lambda v: pipeline.prepare(Scenario(manifold="euclidean", dim=2, data="upload"),
                                                         points=[[v, v], [0.1, 0.0]]), (1e308,)),
        ("evaluate_n_releases", lambda k: pipeline.evaluate(_PREPARED(), "riemannian_laplace", PureDP(1.0), k, 0), (5,)),
    ]
    for field, value in (("eps", 1.0), ("delta", 1e-5), ("mu", 1.0), ("alpha", 2.0), ("rho", 0.5), ("n", 100),
                         ("dim", 2), ("radius", 0.7), ("spread", 0.25), ("seed", 0), ("n_releases", 200), ("p", 2.0)):
        cases.append((f"Scenario.{field}", lambda v, f=field: Scenario(**{f: v}), (value,)))
        cases.append((f"Scenario.from_query.{field}", lambda v, f=field: Scenario.from_query_params({f: str(v)}),
                      (value,)))
    for name in ("riemannian_laplace", "riemannian_gaussian", "tangent_gaussian", "brownian_motion"):
        mechanism = get_mechanism(name, S2)
        cases.append((f"{name}.calibrate_sensitivity", lambda s, m=mechanism: m.calibrate(ApproxDP(1.0, 1e-5), s),
                      (0.1,)))
        cases.append((f"{name}.sample_size", lambda k, m=mechanism: m.sample(
            NORTH, m.calibrate(ApproxDP(1.0, 1e-5), 0.1), k, rng(0)), (3,)))
    array_cases = [
        ("S2.dist", lambda a: S2.dist(a, POINTS[:2])), ("S2.log", lambda a: S2.log(NORTH, a)),
        ("frechet_mean", lambda a: frechet_mean(S2, a)), ("p_mean_points", lambda a: p_mean(S2, a, 3.0)),
        ("clip_to_ball_points", lambda a: clip_to_ball(S2, a, NORTH, 0.5)),
    ]
    return cases, array_cases


def _json(fields):
    import json

    return json.dumps(fields, default=repr)


_CACHE = {}


def _PREPARED():  # a cached constant
    if "prepared" not in _CACHE:
        _CACHE["prepared"] = pipeline.prepare(Scenario(n=20))
    return _CACHE["prepared"]


def _kng_sample(value):
    from geodp_core.mechanisms.kng_regression import KNGGeodesicRegression

    if "kng" not in _CACHE:
        mech = KNGGeodesicRegression(S2)
        _CACHE["kng"] = (mech, mech.calibrate(PureDP(1.0), 8, 0.2, data_radius=1.0, chain_length=10, burn_in=10,
                                              max_chain_length=10))
    mech, cal = _CACHE["kng"]
    x = list(np.linspace(0.0, 1.0, 8))
    x[3] = value  # a list: the library, not this harness, converts the hostile value
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mech.sample((x, POINTS), cal, 1, 0)


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def _finite(value):
    if value is None:
        return True
    if isinstance(value, (float, int, np.floating, np.integer)):
        return bool(np.isfinite(value))
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fc" or bool(np.all(np.isfinite(value)))
    if isinstance(value, tuple):
        return all(_finite(v) for v in value)
    return True


def classify(call, timeout=20):
    """``("valid" | "clear" | "raw" | "hang", detail)`` for one call."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        value = call()
    except _Hang:
        return "hang", ""
    except Exception as exc:  # noqa: BLE001 - the classification is the point
        param = getattr(exc, "param", None)
        if isinstance(exc, ValueError) and isinstance(exc, GeoDPError) and param and param in str(exc):
            return "clear", f"{type(exc).__name__}({param})"
        return "raw", f"{type(exc).__name__}: {str(exc)[:160]}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return ("valid", "") if _finite(value) else ("raw", f"non-finite result {value!r:.80}")


def all_calls():
    """``(label, call)`` for every hostile substitution."""
    cases, array_cases = _base_cases()
    calls = []
    for name, function, args in cases:
        for i in range(len(args)):
            for text, value in SCALARS.items():
                new = list(args)
                new[i] = value
                calls.append((f"{name}[arg {i} = {text}]", lambda f=function, a=tuple(new): f(*a)))
    for name, function in array_cases:
        for text, value in ARRAYS.items():
            if isinstance(value, str) and value == "pair":
                calls.append((f"{name}[{text}]", lambda f=function: f(np.tile(NORTH, (3, 1)))
                              if name != "S2.dist" else S2.dist(np.tile(NORTH, (3, 1)), np.tile(NORTH, (2, 1)))))
                continue
            calls.append((f"{name}[{text}]", lambda f=function, v=value: f(v)))
    calls.append(("Scenario.from_json[eps = 1e400 digits]", lambda: Scenario.from_json('{"eps": 1' + "0" * 400 + "}")))
    calls.append(("prepare[None]", lambda: pipeline.prepare(None)))
    from geodp_core.conformal_lab import run_conformal_lab
    from geodp_core.experiments import sweep, utility_curve
    from geodp_core.explorer import run_scenario

    for name, entry in (("run_scenario", lambda: run_scenario(None)), ("run_conformal_lab", lambda: run_conformal_lab(None)),
                        ("sweep", lambda: sweep(None, "n", [10], 5)), ("utility_curve", lambda: utility_curve(None, [1.0], 5)),
                        ("resample", lambda: pipeline.resample(None, None, 1, 0))):
        calls.append((f"{name}[None]", entry))
    calls.append(("evaluate[prepared None]", lambda: pipeline.evaluate(None, "riemannian_laplace", PureDP(1.0), 1, 0)))
    calls.append(("compose[PureDP(1e308) x2]", lambda: compose([PureDP(1e308)] * 2)))
    calls.append(("bm_diffusion_time[extreme]", lambda: hd.bm_diffusion_time(1.75e-266, 1.98e16, 1.75e-266, 5e-324)))
    return calls


def run_battery():
    """Counts per outcome and the list of failures (raw or hang)."""
    counts = {"valid": 0, "clear": 0, "raw": 0, "hang": 0}
    failures = []
    for label, call in all_calls():
        kind, detail = classify(call)
        counts[kind] += 1
        if kind in ("raw", "hang"):
            failures.append((label, kind, detail))
    return counts, failures


if __name__ == "__main__":
    totals, bad = run_battery()
    print(f"tried {sum(totals.values())}: {totals}")
    for row in bad:
        print(*row)
