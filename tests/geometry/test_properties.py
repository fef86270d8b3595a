"""Property-based robustness tests of the geometry layer (docs/specification.md §9).

Contract: every public function either returns a finite, valid result (points on
the manifold, tangent vectors tangent) or raises a ``ValueError`` subclass whose
message names the offending argument. Never NaN, inf, ``OverflowError``,
``ZeroDivisionError``, ``AssertionError`` or a silently projected point.

All tests are deterministic (``derandomize=True``). The helper :func:`outcome`
classifies every call; setting the environment variable
``GEODP_PROPERTY_COUNTS=/path/file.jsonl`` records the classification of every
generated input to that file instead of failing (used to count crashes before
and after a fix, see the commit messages).
"""

import json
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geodp_core import summaries
from geodp_core.exceptions import CutLocusError, NonUniqueMeanError, OffManifoldError
from geodp_core.geometry import get_manifold

SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
_COUNT_FILE = os.environ.get("GEODP_PROPERTY_COUNTS")
OK_KINDS = ("ok", "clear_error")


# --------------------------------------------------------------------------- harness
def _finite_tree(value):
    if isinstance(value, (tuple, list)):
        return all(_finite_tree(v) for v in value)
    if isinstance(value, dict):
        return all(_finite_tree(v) for v in value.values())
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return True
    return bool(np.all(np.isfinite(arr)))


def outcome(test, call, valid, names=(), check=None, allow_refusal=False):
    """Run ``call()`` and classify it; record it when counting, else assert it is acceptable.

    Parameters
    ----------
    test : str
        Name of the property (for the count file).
    call : callable
        The call under test.
    valid : bool
        Whether the input is valid (then a finite, checked result is expected).
    names : tuple of str
        Argument names, one of which the error message must contain.
    check : callable, optional
        ``check(result) -> bool`` for a valid input (finiteness is always checked).
    allow_refusal : bool
        For a valid input, also accept a ``ValueError`` naming one of ``names``
        (documented limits such as "not representable in double precision").

    Returns
    -------
    str
        ``"ok"``, ``"clear_error"`` or a failure kind.
    """
    detail = ""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                result = call()
    except ValueError as exc:
        detail = str(exc)[:300]
        named = not names or any(n in str(exc) for n in names)
        if (not valid or allow_refusal) and named:
            kind = "clear_error"
        elif not named:
            kind = "error_not_naming_argument"
        else:
            kind = "refused_valid_input"
    except Exception as exc:  # noqa: BLE001 - the point is to catch everything
        kind = f"crash:{type(exc).__name__}"
        detail = str(exc)[:300]
    else:
        if not valid:
            kind = "accepted_invalid_input"
        elif not _finite_tree(result):
            kind = "non_finite_output"
        else:
            try:
                good = True if check is None else bool(check(result))
            except Exception as exc:  # noqa: BLE001
                good, detail = False, f"check raised {type(exc).__name__}: {exc}"[:300]
            kind = "ok" if good else "invalid_output"
    if _COUNT_FILE:
        with open(_COUNT_FILE, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"test": test, "kind": kind, "detail": detail}) + "\n")
        return kind
    assert kind in OK_KINDS, f"{test}: {kind}: {detail}"
    return kind


def exponent_floats(lo, hi):
    """Log-uniform positive floats ``10**e``, ``e in [lo, hi]``."""
    return st.floats(lo, hi, allow_nan=False).map(lambda e: float(10.0**e))


# --------------------------------------------------------------------------- manifolds
MANIFOLDS = [
    ("sphere", 1, None),
    ("sphere", 2, None),
    ("sphere", 5, None),
    ("hyperbolic", 1, None),
    ("hyperbolic", 2, None),
    ("hyperbolic", 4, None),
    ("euclidean", 3, None),
    ("spd", 1, "affine"),
    ("spd", 2, "affine"),
    ("spd", 3, "affine"),
    ("spd", 2, "log_euclidean"),
    ("spd", 3, "log_cholesky"),
    ("kendall", 3, None),
    ("kendall", 6, None),
]
manifold_specs = st.sampled_from(MANIFOLDS)

#: Largest geodesic distance of generated base points from the default centre.
BASE_RADIUS = 20.0
#: Tangent norms the exponential must handle (H^d: result within ~330 of the centre).
VALID_TANGENT_NORM = 300.0
#: SPD: a matrix with condition number above ~1/eps is not positive definite in floating point,
#: so base points and tangent vectors are kept below 8 (log-eigenvalue spread <= 16 sqrt 2).
SPD_LIMIT = 8.0


def _point(manifold, coords, radius):
    """Point ``Exp_c(radius * coords / |coords|)`` from the default centre ``c``."""
    center = manifold.default_center()
    coords = np.asarray(coords, dtype=float)
    norm = np.linalg.norm(coords)
    unit = coords / norm if norm > 0 else np.eye(manifold.dim)[0]
    return manifold.exp(center, manifold.from_frame(center, radius * unit), check=False)


@st.composite
def point_and_tangent(draw, max_norm=VALID_TANGENT_NORM, min_exp=-12.0):
    """A manifold, a base point on it and a tangent vector (norm log-uniform up to ``max_norm``)."""
    spec = draw(manifold_specs)
    manifold = get_manifold(*spec)
    dim = manifold.dim
    coords = draw(st.lists(st.floats(-1, 1, allow_nan=False), min_size=dim, max_size=dim))
    base_radius = draw(st.floats(0.0, BASE_RADIUS))
    if manifold.name == "sphere":
        base_radius = min(base_radius, 3.0)
    if manifold.name == "spd":
        base_radius = min(base_radius, SPD_LIMIT)
        max_norm = max_norm if max_norm > VALID_TANGENT_NORM else min(max_norm, SPD_LIMIT)
    base = _point(manifold, coords, base_radius)
    vcoords = draw(st.lists(st.floats(-1, 1, allow_nan=False), min_size=dim, max_size=dim))
    vnorm = np.linalg.norm(vcoords)
    unit = np.asarray(vcoords) / vnorm if vnorm > 0 else np.eye(dim)[0]
    norm = draw(exponent_floats(min_exp, np.log10(max_norm)))
    return manifold, base, manifold.from_frame(base, norm * unit)


def _on_manifold(manifold):
    return lambda out: bool(np.all(manifold.belongs(out)))


@settings(max_examples=120, **SETTINGS)
@given(point_and_tangent())
def test_exp_valid_inputs_give_points_on_the_manifold(args):
    manifold, base, vec = args
    outcome("exp_valid", lambda: manifold.exp(base, vec), True, check=_on_manifold(manifold))


@settings(max_examples=80, **SETTINGS)
@given(point_and_tangent(max_norm=1e300, min_exp=2.5))
def test_exp_huge_tangent_vectors_never_nan(args):
    """Huge norms: a point on the manifold, or a clear refusal naming ``tangent_vec`` (never NaN)."""
    manifold, base, vec = args
    if not np.all(np.isfinite(vec)):
        return
    # the sphere and the Kendall shape space have no overflow: their exponentials are periodic
    outcome("exp_huge", lambda: manifold.exp(base, vec), True, names=("tangent_vec",),
            check=_on_manifold(manifold), allow_refusal=manifold.name not in ("sphere", "kendall"))


@settings(max_examples=100, **SETTINGS)
@given(point_and_tangent(max_norm=30.0), st.floats(0.0, 0.999))
def test_log_and_dist_valid_inputs(args, shrink):
    manifold, base, vec = args
    if manifold.name in ("sphere", "kendall"):  # stay off the cut locus (injectivity radius pi, pi/2)
        norm = float(manifold.norm(base, vec))
        inj = manifold.injectivity_radius
        if norm >= inj - 1e-6:
            vec = vec * (shrink * (inj - 1e-6) / norm)
    point = manifold.exp(base, vec, check=False)
    if not manifold.belongs(point):
        return  # generated outside the representable range: covered by the exp tests

    def check(out):
        return bool(np.all(manifold._is_tangent(base, out, 1e-6)))

    outcome("log_valid", lambda: manifold.log(base, point), True, check=check)
    outcome("dist_valid", lambda: manifold.dist(base, point), True, check=lambda d: np.all(np.asarray(d) >= 0))


BAD_SCALARS = [np.nan, np.inf, -np.inf]


@st.composite
def bad_point(draw):
    """A manifold, a valid base point and an invalid 'point' (NaN/inf/bool/shape/off-manifold)."""
    spec = draw(manifold_specs)
    manifold = get_manifold(*spec)
    base = manifold.default_center()
    kind = draw(st.sampled_from(["nan", "bool", "shape", "off", "string"]))
    if kind == "nan":
        bad = base.copy()
        bad.flat[draw(st.integers(0, bad.size - 1))] = draw(st.sampled_from(BAD_SCALARS))
    elif kind == "bool":
        bad = np.ones(manifold.point_shape, dtype=bool)
    elif kind == "shape":
        bad = np.zeros(tuple(s + 1 for s in manifold.point_shape))
    elif kind == "string":
        bad = np.full(manifold.point_shape, "x")
    else:
        if manifold.name == "euclidean":
            bad = np.full((manifold.dim + 2,), 1.0)  # no off-manifold point in R^d: bad shape instead
        elif manifold.name == "spd":
            bad = -draw(exponent_floats(-3, 3)) * base
        elif manifold.name == "sphere":
            bad = base * draw(st.sampled_from([0.0, 0.5, 1.01, 2.0, 1e10]))
        elif manifold.name == "kendall":  # wrong size, or not centred
            bad = draw(st.sampled_from([base * 0.0, base * 1.01, base * 1e10, base + 0.01, base + np.array([1.0, 0.0])]))
        else:  # hyperboloid: light cone, lower sheet, or scaled
            t = draw(exponent_floats(0.01, 6))
            bad = draw(st.sampled_from([
                np.r_[t, t, np.zeros(manifold.dim - 1)],
                -base,
                1.5 * base,
                np.r_[t, np.zeros(manifold.dim)],
            ]))
    return manifold, base, bad


@settings(max_examples=120, **SETTINGS)
@given(bad_point())
def test_invalid_points_raise_naming_the_argument(args):
    manifold, base, bad = args
    outcome("exp_bad_base", lambda: manifold.exp(bad, np.zeros(manifold.point_shape)), False, names=("base_point",))
    outcome("log_bad_point", lambda: manifold.log(base, bad), False, names=("point",))
    outcome("dist_bad_point", lambda: manifold.dist(bad, base), False, names=("point_a",))
    outcome("belongs_bad", lambda: manifold.belongs(bad), True, names=("point",), allow_refusal=True,
            check=lambda out: not np.any(out) or bad.dtype == bool)


@settings(max_examples=60, **SETTINGS)
@given(st.integers(1, 4), exponent_floats(0, 6), st.floats(-1e-3, 1e-3))
def test_hyperboloid_rejects_light_cone_points(dim, t, wobble):
    """Points on (or near) the light cone are far from the sheet: rejected, never projected."""
    manifold = get_manifold("hyperbolic", dim)
    light = np.r_[t, t * (1 + wobble * 1e-6), np.zeros(dim - 1)]
    sheet_x0 = np.sqrt(1.0 + light[1] ** 2)
    # relative gap between the sheet and the point; below ~1e-15 the two are the same double
    if abs(light[0] - sheet_x0) <= 1e-12 * sheet_x0:
        return
    outcome("light_cone", lambda: manifold.validate_points(light, "point"), False, names=("point",))


@settings(max_examples=60, **SETTINGS)
@given(st.integers(1, 4), st.floats(0.0, 700.0), st.lists(st.floats(-1, 1), min_size=4, max_size=4))
def test_poincare_round_trip(dim, radius, coords):
    manifold = get_manifold("hyperbolic", dim)
    x = _point(manifold, coords[:dim], radius)
    if not manifold.belongs(x):
        outcome("to_poincare_far", lambda: manifold.to_poincare(x), False, names=("points",))
        return

    def check_ball(b):
        return bool(np.all(np.sum(np.asarray(b) ** 2, axis=-1) < 1.0))

    kind = outcome("to_poincare", lambda: manifold.to_poincare(x), True, check=check_ball)
    if kind == "ok":
        ball = manifold.to_poincare(x)
        outcome("from_poincare", lambda: manifold.from_poincare(ball), True, check=_on_manifold(manifold))


@settings(max_examples=60, **SETTINGS)
@given(st.integers(1, 4), st.sampled_from([1.0, 1.0 + 1e-12, 2.0, 1e10, np.nan, np.inf]))
def test_from_poincare_rejects_outside_the_open_ball(dim, norm):
    manifold = get_manifold("hyperbolic", dim)
    b = np.zeros(dim)
    b[0] = norm
    outcome("from_poincare_bad", lambda: manifold.from_poincare(b), False, names=("ball_points",))


@settings(max_examples=60, **SETTINGS)
@given(st.floats(-90, 90), st.floats(-180, 360))
def test_lat_lon_valid(lat, lon):
    sphere = get_manifold("sphere", 2)
    kind = outcome("from_lat_lon", lambda: sphere.from_lat_lon(lat, lon), True, check=_on_manifold(sphere))
    if kind == "ok":
        outcome("to_lat_lon", lambda: sphere.to_lat_lon(sphere.from_lat_lon(lat, lon)), True,
                check=lambda ll: -90 <= ll[0] <= 90 and -180 <= ll[1] <= 180)


@settings(max_examples=60, **SETTINGS)
@given(st.one_of(
    st.tuples(st.sampled_from([90.001, -91.0, 1e300, np.nan, np.inf]), st.floats(-180, 180)).map(lambda t: ("lat",) + t),
    st.tuples(st.floats(-90, 90), st.sampled_from([-180.5, 360.5, 1000.0, -1e300, np.nan])).map(lambda t: ("lon",) + t),
))
def test_lat_lon_invalid(args):
    name, lat, lon = args
    sphere = get_manifold("sphere", 2)
    outcome("from_lat_lon_bad", lambda: sphere.from_lat_lon(lat, lon), False, names=(name,))


@settings(max_examples=40, **SETTINGS)
@given(point_and_tangent(max_norm=0.7), st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_frechet_mean_of_concentrated_data_is_on_the_manifold(args, n, seed):
    manifold, base, _ = args
    rng = np.random.default_rng(seed)
    coords = rng.uniform(-1, 1, size=(n, manifold.dim))
    coords *= 0.7 / np.maximum(np.linalg.norm(coords, axis=1, keepdims=True), 1.0)
    points = manifold.exp(base, manifold.from_frame(base, coords), check=False)
    if not np.all(manifold.belongs(points)):
        return
    outcome("frechet_valid", lambda: summaries.frechet_mean(manifold, points), True, check=_on_manifold(manifold))


# ------------------------------------------------------------------ explicit regressions
def test_regression_sphere_exp_huge_norm_is_on_the_sphere():
    sphere = get_manifold("sphere", 2)
    for norm in (1e20, 1e300, 1.7e308):
        out = sphere.exp([0.0, 0.0, 1.0], [norm, 0.0, 0.0])
        assert np.all(np.isfinite(out)) and sphere.belongs(out)
    out = sphere.exp([0.0, 0.0, 1.0], [1e300, 1e300, 0.0])  # |v| overflows if squared naively
    assert np.all(np.isfinite(out)) and sphere.belongs(out)


@pytest.mark.parametrize(
    "spec, base, vec",
    [
        (("hyperbolic", 2), [1.0, 0.0, 0.0], [0.0, 800.0, 0.0]),
        (("hyperbolic", 2), [1.0, 0.0, 0.0], [0.0, 1e10, 0.0]),
        (("spd", 2), np.eye(2), 1000.0 * np.eye(2)),
        (("spd", 2), np.eye(2), 1e300 * np.eye(2)),
    ],
)
def test_regression_exp_overflow_raises_naming_tangent_vec(spec, base, vec):
    manifold = get_manifold(*spec)
    with pytest.raises(ValueError, match="tangent_vec"):
        manifold.exp(base, vec)


def test_regression_sphere_log_at_the_antipode_raises():
    sphere = get_manifold("sphere", 2)
    north = np.array([0.0, 0.0, 1.0])
    with pytest.raises(CutLocusError, match="cut locus"):
        sphere.log(north, -north)
    # batched: the message gives the index of the offending pair
    with pytest.raises(CutLocusError, match=r"point.*entry 1"):
        sphere.log(north, np.array([[1.0, 0.0, 0.0], -north]))
    # near (not at) the antipode the logarithm is fine and has norm close to pi
    near = sphere.exp(north, np.array([np.pi - 1e-6, 0.0, 0.0]), check=False)
    assert abs(np.linalg.norm(sphere.log(north, near)) - (np.pi - 1e-6)) < 1e-9


def test_private_log_still_works_off_the_cut_locus():
    """The mechanisms' batched ``_log`` is unchanged away from the cut locus."""
    sphere = get_manifold("sphere", 2)
    north = np.array([0.0, 0.0, 1.0])
    pts = sphere.exp(north, np.array([[0.5, 0.0, 0.0], [0.0, 3.0, 0.0]]), check=False)
    np.testing.assert_allclose(sphere.log(north, pts, check=False), [[0.5, 0.0, 0.0], [0.0, 3.0, 0.0]], atol=1e-12)


def test_regression_frechet_mean_of_antipodal_points_raises():
    sphere = get_manifold("sphere", 2)
    north = np.array([0.0, 0.0, 1.0])
    with pytest.raises(NonUniqueMeanError, match="not unique"):
        summaries.frechet_mean(sphere, np.array([north, -north]))
    equator = np.array([[1.0, 0, 0], [-1.0, 0, 0], [0, 1.0, 0], [0, -1.0, 0]])
    with pytest.raises(NonUniqueMeanError, match="not unique"):
        summaries.frechet_mean(sphere, equator)


def test_regression_hyperboloid_light_cone_point_is_rejected():
    hyp = get_manifold("hyperbolic", 2)
    light = np.array([1e3, 1e3, 0.0])
    assert not hyp.belongs(light)
    with pytest.raises(OffManifoldError, match="point_b"):
        hyp.dist(hyp.default_center(), light)
    # a genuine far point (geodesic distance ~14.5 from the origin) is still accepted
    far = hyp.exp(hyp.default_center(), np.array([0.0, 14.5, 0.0]), check=False)
    assert hyp.belongs(far)


def test_regression_poincare_conversions_at_huge_radius():
    hyp = get_manifold("hyperbolic", 2)
    far = hyp.exp(hyp.default_center(), np.array([0.0, 300.0, 0.0]), check=False)
    ball = hyp.to_poincare(far)
    assert np.linalg.norm(ball) < 1.0
    back = hyp.from_poincare(ball)
    assert np.all(np.isfinite(back)) and hyp.belongs(back)
    with pytest.raises(ValueError, match="ball_points"):
        hyp.from_poincare([1.0, 0.0])


def test_regression_longitude_is_range_checked():
    sphere = get_manifold("sphere", 2)
    with pytest.raises(ValueError, match="lon"):
        sphere.from_lat_lon(0.0, 1000.0)
    with pytest.raises(ValueError, match="lat"):
        sphere.from_lat_lon(100.0, 0.0)
    with pytest.raises(ValueError, match="lat"):
        sphere.from_lat_lon(np.nan, 0.0)


@settings(max_examples=60, **SETTINGS)
@given(point_and_tangent(max_norm=1e300, min_exp=-12.0))
def test_log_volume_jacobian_is_never_nan(args):
    manifold, base, vec = args
    if not np.all(np.isfinite(vec)):
        return
    outcome("log_volume_jacobian", lambda: manifold.log_volume_jacobian(base, vec), True,
            check=lambda v: not np.any(np.isnan(v)))


def test_regression_log_volume_and_transport_extremes():
    sphere, hyp = get_manifold("sphere", 2), get_manifold("hyperbolic", 2)
    assert np.isfinite(sphere.log_volume_jacobian([0.0, 0, 1], [1e300, 0, 0]))  # was NaN
    assert np.isfinite(hyp.log_volume_jacobian([1.0, 0, 0], [0, 1e300, 0]))  # was NaN
    with pytest.raises(CutLocusError, match="end_point"):
        sphere.parallel_transport([0.0, 0, 1], [0.0, 0, -1], [1.0, 0, 0])  # was NaN
