"""Neighbouring datasets get the same control flow: nothing observable depends on the data except the noise.

For every mechanism of the registry (through ``pipeline.evaluate`` and through ``sample`` with one shared
calibration) and for the K-norm gradient regression, pairs of datasets that differ in ONE record are built to
hit each data-dependent branch found in ``geodp_core/mechanisms/`` and ``pipeline.py`` (clipping of a record
far outside the public ball or at the cut locus, records at ±1e308, p-means near p = 1 where the solver used to
raise, KNG's refusals of constant or out-of-range covariates, its owner-only warnings: residuals beyond tau,
responses beyond the data radius, a non-private fit outside the public domain, init='nonprivate', min/max
covariates). Each pair must give identical exception types, Python warnings, labels, notes and the same state of
the release generator afterwards (so the number of draws, i.e. any retry or rejection loop, does not depend on
the data either). The conformal mechanism sanitises a density from the data inside its own budget: its
calibration differs between neighbours through that noise only, so for ``evaluate`` its notes are compared
with the numbers masked and its generator state is compared at the ``sample`` level (same calibration).
"""

import re
import warnings

import numpy as np
import pytest

from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.mechanisms.kng_regression import KNGGeodesicRegression
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.pipeline import evaluate, prepare, summarise
from geodp_core.privacy import PureDP
from geodp_core.scenario import Scenario

SPACES = {
    "S2": dict(manifold="sphere", dim=2, data="vmf"),
    "S5": dict(manifold="sphere", dim=5, data="vmf", spread=0.2),
    "S2_p1.0001": dict(manifold="sphere", dim=2, data="vmf", p=1.0001),
    "S2_p3": dict(manifold="sphere", dim=2, data="vmf", p=3.0),
    "H2": dict(manifold="hyperbolic", dim=2, data="wrapped_normal", spread=0.3, radius=0.6),
    "H3": dict(manifold="hyperbolic", dim=3, data="wrapped_normal", spread=0.3, radius=0.6),
    "SPD2": dict(manifold="spd", dim=2, data="wrapped_normal", spread=0.3, radius=0.6),
    "R2": dict(manifold="euclidean", dim=2, data="wrapped_normal", spread=0.3),
    "R3_p1.001": dict(manifold="euclidean", dim=3, data="wrapped_normal", spread=0.3, p=1.001),
    "Kendall4": dict(manifold="kendall", dim=4, data="shape_perturbation", spread=0.05, radius=0.35),
}


#: Extra replacements per space: the antipode (cut locus of the centre) on spheres, ±1e308 on R^d.
EXTRA = {"S2": ("cut_locus",), "S5": ("cut_locus",), "S2_p1.0001": ("cut_locus",), "S2_p3": ("cut_locus",),
         "R2": ("huge",), "R3_p1.001": ("huge",)}


def _replacements(space, manifold, center, radius):
    """One-record replacements: the centre, the ball's boundary, far outside it, the cut locus, ±1e308."""
    frame = manifold.tangent_frame(center)
    unit = frame[-1] / manifold.norm(center, frame[-1])
    out = {"centre": center, "boundary": manifold.exp(center, radius * frame[0] / manifold.norm(center, frame[0]))}
    out["far"] = manifold.exp(center, min(3.0, 0.9 * manifold.injectivity_radius) * unit, check=False)
    if "cut_locus" in EXTRA.get(space, ()):
        out["cut_locus"] = -center  # the antipode on S^d: Log is undefined there
    if "huge" in EXTRA.get(space, ()):
        out["huge"] = np.full(center.shape, 1e308) * np.where(np.arange(center.size) % 2, -1.0, 1.0)
    return out


def _pairs(space):
    scenario = Scenario(n=30, seed=2, mechanisms=MECHANISM_NAMES[:1], **SPACES[space])
    base = prepare(scenario)
    raw = base.data
    for kind, point in _replacements(space, base.manifold, base.center, scenario.radius).items():
        changed = raw.copy()
        changed[0] = point
        yield kind, base, summarise(base.manifold, changed, base.center, scenario.radius, scenario=scenario)


def _run(call):
    """``call(rng)`` with every warning recorded: the observable control flow."""
    rng = np.random.default_rng(11)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = call(rng), None
        except Exception as exc:  # noqa: BLE001 - the exception type is part of the fingerprint
            result, error = None, type(exc).__name__
    return result, error, [(w.category.__name__, str(w.message)) for w in caught], str(rng.bit_generator.state)


_NUMBER = re.compile(r"[-+]?\d[\d.,]*(?:e[-+]?\d+)?")


def _evaluate_fingerprint(prepared, name):
    outcome, error, caught, state = _run(lambda rng: evaluate(prepared, name, prepared.scenario.target, 20, rng))
    notes = () if outcome.calibration is None else tuple(outcome.calibration.notes)
    reason = outcome.reason
    if name == "conformal":  # its calibration reads the data through its own sanitising noise
        notes = tuple(_NUMBER.sub("#", note) for note in notes)
        reason, state = _NUMBER.sub("#", reason), None
    return dict(error=error, status=outcome.status, reason=reason, label=outcome.label, notes=notes,
                warnings=caught, rng=state, released=None if outcome.releases is None else outcome.releases.shape)


@pytest.mark.parametrize("space", list(SPACES))
def test_every_mechanism_same_control_flow_on_neighbours(space):
    """``evaluate`` and ``sample`` (one calibration, two neighbouring summaries) on each pair, every mechanism."""
    checked = 0
    for kind, first, second in _pairs(space):
        assert first.sensitivity == second.sensitivity  # public: n, r, p and the curvature bound only
        for name in MECHANISM_NAMES:
            a, b = _evaluate_fingerprint(first, name), _evaluate_fingerprint(second, name)
            assert a == b, (space, kind, name)
            calibration = evaluate(first, name, first.scenario.target, 1, np.random.default_rng(0)).calibration
            checked += 1
            if calibration is None:
                continue
            mechanism = get_mechanism(name, first.manifold)
            runs = [_run(lambda rng, p=p: mechanism.sample(p.true_mean, calibration, 40, rng)) for p in (first, second)]
            assert runs[0][1:] == runs[1][1:], (space, kind, name, "sample")
            assert runs[0][1] is None and runs[0][0].shape[0] == 40
            checked += 1
    print(f"\n{space}: {checked} neighbouring pairs checked (evaluate and sample)")


# ------------------------------------------------------------------ KNG regression
KNG_FAST = dict(chain_length=20, burn_in=20, max_chain_length=20)


def _kng_case(manifold, n, seed):
    from geodp_core.data import sample_geodesic_regression

    center = manifold.default_center()
    velocity = manifold.from_frame(center, 0.6 * np.eye(manifold.dim)[0])
    x, y = sample_geodesic_regression(manifold, center, velocity, n, 0.02, np.random.default_rng(seed))
    return x, y


def _kng_pairs(manifold):
    """``(name, options, (x, y), (x', y'), must_differ)``: neighbouring datasets hitting each branch; when
    ``must_differ`` the owner-only view must tell them apart (so the branch is really hit)."""
    n = 20
    x, y = _kng_case(manifold, n, 1)
    center = manifold.default_center()
    far_point = manifold.exp(center, manifold.from_frame(center, 1.4 * np.eye(manifold.dim)[-1]), check=False)
    yield "constant_x", {}, (np.full(n, 0.5), y), (np.r_[np.full(n - 1, 0.5), 0.7], y), False
    x_in = np.linspace(0.0, 1.0, n)
    x_out = x_in.copy()
    x_out[-1] = 1.0000001
    yield "x_just_outside_range", {}, (x_in, y), (x_out, y), True
    x_far = x_in.copy()
    x_far[3] = -5.0
    yield "x_far_outside_range", {}, (x_in, y), (x_far, y), True
    y_out = y.copy()
    y_out[5] = far_point
    yield "residual_beyond_tau", {}, (x, y), (x, y_out), True
    yield "beyond_data_radius", dict(data_radius=0.5), (x, y), (x, y_out), True
    yield "fit_outside_domain", dict(max_speed=0.62), (x, y), (x, y_out), True
    yield "init_nonprivate", dict(init="nonprivate", max_speed=0.62), (x, y), (x, y_out), True
    yield "x_range_data_constant", dict(x_range="data"), (np.full(n, 0.5), y), (np.r_[np.full(n - 1, 0.5), 0.7], y), \
        False


@pytest.mark.parametrize("space", [("sphere", 2), ("euclidean", 2), ("hyperbolic", 2)], ids=["S2", "R2", "H2"])
def test_kng_regression_same_control_flow_on_neighbours(space):
    manifold = get_manifold(*space)
    mechanism = KNGGeodesicRegression(manifold)
    checked = 0
    for name, options, first, second, must_differ in _kng_pairs(manifold):
        calibration = mechanism.calibrate(PureDP(2.0), 20, 0.2, **{"data_radius": 1.0, **KNG_FAST, **options})
        runs = [_run(lambda rng, d=d: mechanism.sample(d, calibration, 2, rng)) for d in (first, second)]
        (ra, ea, wa, sa), (rb, eb, wb, sb) = runs
        assert (ea, wa, sa) == (eb, wb, sb), (space, name)
        assert ea is None, (space, name, ea)
        assert not any("data owner" in message for _, message in wa)
        assert ra.label == rb.label and ra.notes == rb.notes and ra.public_warnings == rb.public_warnings, (space, name)
        assert set(ra.diagnostics) == set(rb.diagnostics) and ra.guarantee == rb.guarantee
        if must_differ:  # the pair does reach the data-dependent branch: the owner's view tells them apart
            assert ra.owner_warnings != rb.owner_warnings or ra.owner_notes != rb.owner_notes, (space, name)
        checked += 1
    print(f"\nKNG on {space}: {checked} neighbouring pairs checked")
