"""Every cache of the app: the cached entry points into geodp_core, keyed by plain values (Scenario JSON, an
upload's hash, sorted settings items). Pages and the sidebar import them from here; no other module of the app
decorates a function with ``st.cache_data`` or ``st.cache_resource`` (a test checks it).

Every cache is bounded (``max_entries``) and expires (``ttl``): results may be computed from private
uploads, which must not stay in server memory indefinitely. The Explorer's results are also bounded in bytes:
a scenario's public bound (:meth:`~geodp_core.scenario.Scenario.result_bytes_bound`, from the cost limits declared
in :mod:`geodp_core.constraints`) sends it to a cache of 32 small results or to one of a few large ones, so the
two together never hold more than :data:`~geodp_core.constraints.MAX_CACHED_BYTES`.
"""

import contextlib
import dataclasses
import threading

import streamlit as st

from geodp_core.audit import audit, audit_all, audit_space_manifold, control_noise_scale
from geodp_core.conformal_lab import LabSettings, run_conformal_lab
from geodp_core.constraints import MAX_CACHED_BYTES, MAX_RESULT_BYTES, SMALL_RESULT_BYTES
from geodp_core.curvature_lesson import curvature_lesson, ready_scenario
from geodp_core.data import clip_to_ball
from geodp_core.exceptions import GeoDPError
from geodp_core.executors import parallel_executor
from geodp_core.experiments import (
    GDP_FIGURE_SPACES,
    conversion_table,
    gdp_mu_curves,
    native_budget_table,
    sweep,
    utility_curve,
)
from geodp_core.explorer import budget_frames, budget_grid, run_scenario
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import availability_table
from geodp_core.pipeline import public_center
from geodp_core.planner import plan_series
from geodp_core.privacy import ApproxDP, Guarantee
from geodp_core.regression_lab import regression_demo
from geodp_core.scenario import Scenario
from geodp_core.studies.reproductions import ALL_PANELS, REPRODUCTIONS, run_reproduction
from geodp_core.viz.scene import budget_frames_figure, show_budget

#: Lifetime of every cached result in the app (seconds).
CACHE_TTL = 3600
#: Entries of the cache of small results (each at most SMALL_RESULT_BYTES).
SMALL_ENTRIES = 32
#: Entries of the cache of large results (each at most MAX_RESULT_BYTES), what the byte budget leaves.
LARGE_ENTRIES = max(1, (MAX_CACHED_BYTES - SMALL_ENTRIES * SMALL_RESULT_BYTES) // MAX_RESULT_BYTES)


def _run(scenario_json, points):
    return run_scenario(Scenario.from_json(scenario_json), points=points)


@st.cache_data(show_spinner="Computing releases…", max_entries=SMALL_ENTRIES, ttl=CACHE_TTL)
def _cached_small_run(scenario_json, upload_digest=None, _points=None):
    """The Explorer's run of a scenario whose public result bound is small (see :func:`cache_for`)."""
    return _run(scenario_json, _points)


@st.cache_data(show_spinner="Computing releases…", max_entries=LARGE_ENTRIES, ttl=CACHE_TTL)
def _cached_large_run(scenario_json, upload_digest=None, _points=None):
    """The Explorer's run of a scenario whose public result bound is large (see :func:`cache_for`)."""
    return _run(scenario_json, _points)


def cache_for(scenario):
    """The cache a scenario's result goes to, from its public byte bound: ``"small"`` or ``"large"``."""
    return "small" if scenario.result_bytes_bound() <= SMALL_RESULT_BYTES else "large"


def cached_run(scenario_json, upload_digest=None, _points=None):
    """Run a scenario; ``_points`` are the uploaded points (not hashed), identified by ``upload_digest``."""
    small = cache_for(Scenario.from_json(scenario_json)) == "small"
    run = _cached_small_run if small else _cached_large_run
    return run(scenario_json, upload_digest, _points=_points)


@st.cache_data(show_spinner="Drawing the releases at every budget of the slider…", max_entries=SMALL_ENTRIES,
               ttl=CACHE_TTL)
def _cached_budget_frames(grid_key, upload_digest, draw, camera, shown, _result):
    """The budget frames and their figure for one scenario up to its budget (``grid_key``: the scenario with its
    budget at the grid's first value, and the grid), a draw, a camera and the mechanisms drawn (``shown``)."""
    frames = budget_frames(_result, draw)
    if not any(m.status == "ok" for m in frames.mechanisms):
        return None, frames
    return budget_frames_figure(_result, frames, camera=camera), frames


def cached_budget_scene(scenario_json, upload_digest, draw, camera, _result):
    """The Explorer's scene with one frame per budget (coupled releases) and its :class:`BudgetFrames`.

    ``_result`` is the (resampled) result of ``scenario_json`` with draw ``draw``, identified by those plain values
    and the upload's digest. The frames are the same at every budget of the grid, so the expensive part is cached
    once for the whole grid and only pointed at the scenario's budget here (a sidebar step along the grid does not
    rebuild it). The figure is ``None`` when no mechanism of the scenario has coupled releases.
    """
    scenario = Scenario.from_json(scenario_json)
    field, values, _, _ = budget_grid(scenario)
    grid_key = scenario.with_changes(**{field: values[0]}).to_json() + "|" + ",".join(map(repr, values))
    shown = tuple(o.name for o in _result.outcomes if o.status == "ok")
    fig, frames = _cached_budget_frames(grid_key, upload_digest, int(draw), camera, shown, _result=_result)
    current = values.index(float(getattr(scenario, field)))
    frames = dataclasses.replace(frames, current=current)
    if fig is None:
        return None, frames
    return show_budget(fig, _result, frames, current, camera=camera), frames


@st.cache_data(show_spinner="Comparing sphere, flat and hyperbolic space…", max_entries=32, ttl=CACHE_TTL)
def cached_curvature_lesson(scenario_json, ready=None):
    """The curvature lesson of a scenario, or of one of its ready settings ``ready`` (synthetic data only: nothing
    private is used)."""
    scenario = Scenario.from_json(scenario_json)
    return curvature_lesson(scenario if ready is None else ready_scenario(scenario, ready))


# ------------------------------------------------------------------------------------------------ sidebar
@st.cache_data(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def cached_count_clipped(scenario_json, digest, _points):
    """How many uploaded points ``_points`` (identified by ``digest``) lie outside the scenario's public ball."""
    scenario = Scenario.from_json(scenario_json)
    manifold = scenario.build_manifold()
    return clip_to_ball(manifold, _points, public_center(scenario, manifold), scenario.radius)[1]


@st.cache_data(show_spinner=False, max_entries=64, ttl=CACHE_TTL)
def cached_availability(manifold, dim, metric):
    """``{mechanism: (ok, reason)}`` on a manifold given by name, dimension and metric (``{}`` if it is invalid)."""
    try:
        table = availability_table(get_manifold(manifold, dim, metric or None))
    except (ValueError, GeoDPError):
        return {}
    return {name: (a.ok, a.reason) for name, a in table.items()}


# ------------------------------------------------------------------------------------------ utility curves
@st.cache_data(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def cached_utility_curve(scenario_json, upload_digest, x_axis, values, n_reps, _points=None):
    """A utility curve (or sweep) keyed by plain values: scenario JSON, upload digest, axis, grid, repetitions.

    The progress bar is created inside (cache_data replays elements created inside the
    function) and removed when the sweep is done.
    """
    slot = st.empty()
    bar = slot.progress(0.0, text="Computing utility curves…")

    def advance(fraction):
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"Computing utility curves… {fraction:.0%}")

    scenario = Scenario.from_json(scenario_json)
    try:
        if x_axis == "budget":
            return utility_curve(scenario, list(values), n_reps, progress=advance, points=_points,
                                 executor=parallel_executor())
        return sweep(scenario, x_axis, list(values), n_reps, progress=advance, executor=parallel_executor())
    finally:
        slot.empty()


# ----------------------------------------------------------------------------------------- conformal lab
@st.cache_data(show_spinner="Building the conformal metric and releasing…", max_entries=24, ttl=CACHE_TTL)
def cached_conformal_lab(scenario_json, settings_items):
    """The conformal lab's run of a Scenario (as JSON) with the lab's settings (as sorted items)."""
    return run_conformal_lab(Scenario.from_json(scenario_json), LabSettings(**dict(settings_items)))


# -------------------------------------------------------------------------------------- geodesic regression
@st.cache_data(show_spinner="Sampling private fits…", max_entries=32, ttl=CACHE_TTL)
def cached_regression_demo(space, n, noise_std, preset, eps_total, share, tau, data_radius, chain_length, n_fits,
                           seed, footpoint_velocity, scale_convention, tau_from_data, nonprivate_start):
    """:func:`~geodp_core.regression_lab.regression_demo` with the page's controls (a non-private or public start)."""
    return regression_demo(space, n, noise_std, preset, eps_total, share, tau, data_radius, chain_length, n_fits,
                           seed, footpoint_velocity=footpoint_velocity, scale_convention=scale_convention,
                           tau_from_data=tau_from_data, init="nonprivate" if nonprivate_start else "public")


# ---------------------------------------------------------------------------------------- privacy accounting
def guarantee_from_values(notion, values):
    """The guarantee of a notion with its parameters ``values`` (a dict)."""
    return Guarantee.from_notion(notion, **values)


@st.cache_data(show_spinner="Computing the exact μ(σ) (deterministic quadrature)…", max_entries=16, ttl=CACHE_TTL)
def cached_gdp_curves(sigmas, sensitivity, include_s2):
    """The exact μ(σ) of the GDP figure's spaces (S² left out unless ``include_s2``)."""
    s2 = get_manifold("sphere", 2)
    spaces = [s for s in GDP_FIGURE_SPACES if include_s2 or get_manifold(*s[:2]) != s2]
    return gdp_mu_curves(list(sigmas), sensitivity, spaces)


@st.cache_data(show_spinner=False, max_entries=64, ttl=CACHE_TTL)
def cached_conversion_tables(notion, values, at_delta, at_alpha, at_eps):
    """The guarantee of ``notion`` with ``values`` (sorted items), its conversion table and its native budgets."""
    guarantee = guarantee_from_values(notion, dict(values))
    return guarantee, conversion_table(guarantee, at_delta, at_alpha, at_eps), native_budget_table(guarantee)


# ------------------------------------------------------------------------------------------------- ledger
@st.cache_data(show_spinner="Planning the series (composing privacy-loss distributions)…", max_entries=32,
               ttl=CACHE_TTL)
def cached_plan(mechanism, scenario_json, sensitivity, eps, delta, k):
    """:func:`~geodp_core.planner.plan_series` on the scenario's space (public inputs only: Δ is public)."""
    manifold = Scenario.from_json(scenario_json).build_manifold()
    return plan_series(mechanism, manifold, sensitivity, ApproxDP(eps, delta), k)


# -------------------------------------------------------------------------------------------------- audit
def audit_target(notion, eps, delta):
    """The claimed guarantee an audit tests: ε-DP or (ε, δ)-DP."""
    return Guarantee.from_notion(notion, eps=eps, delta=delta)


@st.cache_data(show_spinner="Auditing: releases under D and D′…", max_entries=64, ttl=CACHE_TTL)
def cached_audit(space, mechanism, variant, notion, eps, delta, n, radius, n_releases, alpha, seed):
    """:func:`~geodp_core.audit.audit` of one mechanism (or its labelled variant) on an audit space."""
    manifold = audit_space_manifold(space)
    extra = ({"noise_scale": control_noise_scale(manifold, n=n, radius=radius, seed=seed)}
             if variant == "understated_noise" else {})
    return audit(mechanism, manifold, audit_target(notion, eps, delta), n_releases=n_releases, n=n,
                 radius=radius, alpha=alpha, seed=seed, variant=variant, **extra)


@contextlib.contextmanager
def reproduction_progress(what):
    """Show a reproduction's progress here as a bar with "3 of 10 cells", removed at the end (call it inside the
    cached function: elements of an outside container cannot be replayed from the cache)."""
    from geodp_core.studies.reproductions.common import reporting_progress

    place = st.empty()
    advance = progress_counter(place, what, "cells")

    def report(done, total):
        if total:
            advance(done, total)
        else:  # a reproduction that did not announce its cells: the count so far
            place.progress(0.0, text=f"{what}… {done} cells done")

    try:
        with reporting_progress(report):
            yield
    finally:
        place.empty()


def progress_counter(slot, what, unit):
    """A progress bar in ``slot`` and its ``advance(done, total)``: "Auditing… 3 of 10 audits" (the fraction as
    counted work, not a guess of the time)."""
    bar = slot.progress(0.0, text=f"{what}… starting")

    def advance(done, total):
        bar.progress(min(max(done / max(total, 1), 0.0), 1.0), text=f"{what}… {done} of {total} {unit}")

    return advance


@st.cache_data(show_spinner=False, max_entries=16, ttl=CACHE_TTL)
def cached_audit_all(space, notion, eps, delta, n, radius, n_releases, alpha, seed, include_slow):
    """:func:`~geodp_core.audit.audit_all`: every mechanism and the negative controls on an audit space.

    A progress bar ("3 of 10 audits") is drawn where the function is called (e.g. inside a container at the top of
    the work area) and removed when the audits are done.
    """
    slot = st.empty()
    advance = progress_counter(slot, "Auditing every mechanism and the negative controls", "audits")
    try:
        return audit_all(audit_space_manifold(space), audit_target(notion, eps, delta), n_releases=n_releases, n=n,
                         radius=radius, alpha=alpha, seed=seed, include_slow=include_slow,
                         executor=parallel_executor(), progress=advance)
    finally:
        slot.empty()


# ---------------------------------------------------------------------------------------------- reproduce
@st.cache_data(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def cached_reproduction(id, size, panel_key, seed):
    """One panel of the reproduction ``id`` at ``size`` with ``seed``: ``panel_key`` is the panel's code
    (:meth:`~geodp_core.studies.reproductions.ReproductionSpec.panel_slug`), or ``"all"`` for an id without panels
    (:func:`~geodp_core.studies.reproductions.run_reproduction`), with a bar of its cells while it runs."""
    spec = REPRODUCTIONS[id]
    (panel,) = spec.panel_for(panel_key) if panel_key != ALL_PANELS or not spec.panels else (None,)
    with reproduction_progress("Rerunning the paper's figure"):
        return run_reproduction(id, size, seed, panel)


@st.cache_data(show_spinner="Solving for the budget (exact error laws)…", max_entries=64, ttl=CACHE_TTL)
def cached_budget_plan(mechanism, scenario_json, sensitivity, target_error, notion, quantile, delta):
    """The budget ``mechanism`` needs on the scenario's space for the target error, and the same question on S^d,
    R^d and H^d (:func:`~geodp_core.planner.budget_for_error`, :func:`~geodp_core.planner.curvature_comparison`;
    public inputs only)."""
    from geodp_core.planner import budget_for_error, curvature_comparison

    manifold = Scenario.from_json(scenario_json).build_manifold()
    here = budget_for_error(mechanism, manifold, sensitivity, target_error, notion, quantile, delta)
    try:
        compared = curvature_comparison(mechanism, manifold.dim, sensitivity, target_error, notion, quantile, delta)
    except ValueError:  # e.g. no Laplace law on H^d at this scale: the comparison is left out, the answer stays
        compared = {}
    return here, compared


#: Warm-ups under way (by scenario and sensitivity): one thread each, never two for the same key.
_WARMING = set()
_WARMING_LOCK = threading.Lock()
#: The mechanisms whose calibration is slow enough to warm up (an exact quadrature per budget) and depends on public
#: inputs only (the space, the public sensitivity and the target).
_WARMED_MECHANISMS = ("riemannian_gaussian",)


def warm_neighbouring_budgets(scenario, manifold, sensitivity):
    """Calibrate the slow mechanisms of ``scenario`` at the budgets one slider step either side, in a background
    thread, so that the next ε change finds them in the calibration caches (the Explorer's ε change on Kendall
    shapes then costs about what it costs on the sphere). Public inputs only: the space, the public sensitivity
    and the targets; nothing here reads the data."""
    from geodp_core.mechanisms import get_mechanism

    names = [name for name in scenario.mechanisms if name in _WARMED_MECHANISMS]
    targets = scenario.neighbouring_targets()
    key = (scenario.manifold, scenario.dim, scenario.metric, round(float(sensitivity), 12), tuple(names),
           tuple(str(t) for t in targets))
    if not names or not targets:
        return
    with _WARMING_LOCK:
        if key in _WARMING:
            return
        _WARMING.add(key)

    def work():
        for target in targets:
            for name in names:
                try:
                    get_mechanism(name, manifold).calibrate(target, sensitivity)
                except ValueError:  # unavailable at that budget: nothing to warm
                    pass

    threading.Thread(target=work, name="geodp-warm-budgets", daemon=True).start()
