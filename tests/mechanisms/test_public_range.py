"""No release behaviour may depend on the summary: the numerical range is decided publicly at calibration.

Whether a floating-point release is accurate depends on where the summary lies. Calibration therefore refuses,
from public inputs only (the noise, and a public ball containing every summary when given), a noise that would
leave the accurate range; ``sample`` never replaces a release by a default point (the floating-point release is
not the exact one out of range, so a replacement would not be post-processing).
"""

import numpy as np
import pytest

from geodp_core.exceptions import UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.mechanisms.base import representable_radius
from geodp_core.privacy import GDP, ZCDP, PureDP

SPACES = [("hyperbolic", 2, None), ("hyperbolic", 5, None), ("spd", 2, "affine"), ("spd", 2, "log_euclidean"),
          ("spd", 2, "log_cholesky"), ("euclidean", 1, None)]
NAMES = ["riemannian_laplace", "riemannian_gaussian", "tangent_gaussian", "ew_laplace", "ew_gaussian",
         "brownian_motion", "langevin"]
TARGETS = {"riemannian_laplace": PureDP(1.0), "ew_laplace": PureDP(1.0), "riemannian_gaussian": GDP(1.0),
           "ew_gaussian": GDP(1.0), "tangent_gaussian": GDP(1.0), "brownian_motion": ZCDP(0.5),
           "langevin": ZCDP(0.5)}


def _options(name, manifold):
    origin = manifold.default_center()
    return {"ew_laplace": {"footpoint": origin}, "ew_gaussian": {"footpoint": origin},
            "langevin": {"anchor": origin}}.get(name, {})


def _point_at(manifold, distance):
    origin = manifold.default_center()
    coords = np.zeros(manifold.dim)
    coords[0] = distance
    return manifold.exp(origin, manifold.from_frame(origin, coords))


@pytest.mark.parametrize("spec", SPACES, ids=lambda s: f"{s[0]}{s[1]}{s[2] or ''}")
@pytest.mark.parametrize("name", NAMES)
def test_sampling_never_fails_wherever_the_summary_lies(spec, name):
    manifold = get_manifold(*spec)
    mechanism = get_mechanism(name, manifold)
    if not mechanism.available().ok:
        pytest.skip("unavailable here")
    try:
        calibration = mechanism.calibrate(TARGETS[name], 0.3, **_options(name, manifold))
    except UnavailableError:
        pytest.skip("unavailable at this target")
    limit = representable_radius(manifold)
    for fraction in (0.0, 0.5, 0.98):
        center = _point_at(manifold, fraction * min(limit, 50.0))
        out = mechanism.sample(center, calibration, 200, np.random.default_rng(0))  # never raises
        assert out.shape == (200,) + tuple(manifold.point_shape)
        assert np.isfinite(out).all() and manifold.belongs(out, atol=1e-5).all()


@pytest.mark.parametrize("spec", [("hyperbolic", 2, None), ("spd", 2, "log_euclidean")], ids=str)
def test_refusal_is_decided_from_public_inputs_only(spec):
    manifold = get_manifold(*spec)
    mechanism = get_mechanism("ew_gaussian", manifold)
    origin = manifold.default_center()
    with pytest.raises(UnavailableError, match="double precision") as info:
        mechanism.calibrate(GDP(1e-3), 1.0, footpoint=origin)  # sigma = 1000: leaves the range from the origin
    assert info.value.param == "target"
    calibration = mechanism.calibrate(GDP(1.0), 1.0, footpoint=origin)
    assert any("numerical range" in note for note in calibration.notes)


def test_no_release_is_ever_replaced_by_the_origin():
    manifold = get_manifold("hyperbolic", 2)
    mechanism = get_mechanism("tangent_gaussian", manifold)
    calibration = mechanism.calibrate(GDP(0.5), 1.0)  # Exp_center(N(0, sigma^2 I)): distance sigma chi_2
    sigma = calibration.noise["sigma"]
    origin = manifold.default_center()
    for distance in (15.0, 25.0, 40.0):  # the last two beyond the accurate range: less accurate, never replaced
        center = _point_at(manifold, distance)
        out = mechanism.sample(center, calibration, 500, np.random.default_rng(1))
        assert not np.any(np.all(np.isclose(out, origin), axis=-1))
        assert manifold.belongs(out).all()
        assert np.median(manifold.dist(center, out)) == pytest.approx(sigma * 1.1774, rel=0.2)  # sigma chi_2 median


def test_brownian_walk_on_h2_behaves_identically_for_two_summaries():
    """The geodesic random walk on H² replaced 0% of releases by the origin at 22, 47% at 23, 91% at 24."""
    manifold = get_manifold("hyperbolic", 2)
    mechanism = get_mechanism("brownian_motion", manifold)
    calibration = mechanism.calibrate(ZCDP(0.5), 0.3)
    assert calibration.options["sampler"] == "random_walk"
    origin = manifold.default_center()
    spreads = []
    for distance in (21.0, 22.0, 23.0, 24.0):
        center = _point_at(manifold, distance)
        out = mechanism.sample(center, calibration, 400, np.random.default_rng(2))
        assert manifold.belongs(out).all()
        assert not np.any(np.all(np.isclose(out, origin), axis=-1))
        spreads.append(np.median(manifold.dist(center, out)))
    assert max(spreads) - min(spreads) < 0.05  # same law of the distance (same seed): nothing depends on where


def test_public_ball_decides_the_range_for_every_summary_in_it():
    manifold = get_manifold("hyperbolic", 2)
    mechanism = get_mechanism("brownian_motion", manifold)
    origin = manifold.default_center()
    far_ball = (_point_at(manifold, 23.0), 1.0)
    with pytest.raises(UnavailableError, match="public ball") as info:  # refused once, for all summaries
        mechanism.calibrate(ZCDP(0.5), 0.3, public_ball=far_ball)
    assert info.value.param == "target"
    near_ball = (_point_at(manifold, 17.0), 1.0)
    calibration = mechanism.calibrate(ZCDP(0.5), 0.3, public_ball=near_ball)
    assert any("public ball" in note for note in calibration.notes)
    outputs = [mechanism.sample(_point_at(manifold, d), calibration, 300, np.random.default_rng(3)) for d in (16.0, 18.0)]
    for center, out in zip((16.0, 18.0), outputs):
        assert manifold.belongs(out).all() and not np.any(np.all(np.isclose(out, origin), axis=-1))
        assert np.max(manifold.dist(origin, out)) <= representable_radius(manifold)
    with pytest.raises(ValueError, match="public_ball"):
        mechanism.calibrate(ZCDP(0.5), 0.3, public_ball=3.0)


@pytest.mark.parametrize("spec", [("hyperbolic", 2, None), ("spd", 9, "log_euclidean")], ids=str)
def test_a_far_public_footpoint_is_judged_from_its_own_neighbourhood(spec):
    """The refusal asks where releases go from the most favourable summary (the footpoint itself), not from the
    origin: a footpoint at 0.7 L with small noise calibrates; a footpoint at 1.1 L is refused."""
    manifold = get_manifold(*spec)
    mechanism = get_mechanism("ew_gaussian", manifold)
    limit = representable_radius(manifold)
    near = _point_at(manifold, 0.7 * limit)
    calibration = mechanism.calibrate(GDP(50.0), 1.0, footpoint=near)  # 2 * 0.7 L > L: refused by the old rule
    assert mechanism.best_case_reach(calibration) < limit < mechanism.release_reach(calibration)[1]
    out = mechanism.sample(near, calibration, 100, np.random.default_rng(1))
    assert np.isfinite(out).all() and manifold.belongs(out, atol=1e-5).all()
    assert np.all(manifold.dist(near, out) < 0.3 * limit)
    with pytest.raises(UnavailableError, match="double precision"):
        mechanism.calibrate(GDP(50.0), 1.0, footpoint=_point_at(manifold, 1.1 * limit))
