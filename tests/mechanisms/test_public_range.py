"""No release failure may depend on the summary: the numerical range is decided publicly at calibration.

Whether a release overflows double precision depends on where the summary lies. ``sample`` therefore never
raises for it: a release that is not a valid point is replaced by the public origin (post-processing of the
release), and calibration refuses, from public inputs only, a noise that would leave the representable range
even from the origin.
"""

import numpy as np
import pytest

from geodp_core.exceptions import UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.mechanisms.base import representable_radius
from geodp_core.privacy import GDP, PureDP, ZCDP

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


def test_out_of_range_release_is_replaced_by_the_origin_not_an_error():
    manifold = get_manifold("hyperbolic", 2)
    mechanism = get_mechanism("ew_gaussian", manifold)
    calibration = mechanism.calibrate(GDP(0.05), 1.0, footpoint=manifold.default_center())  # sigma = 20
    center = _point_at(manifold, 335.0)  # a summary at the edge of the range
    out = mechanism.sample(center, calibration, 500, np.random.default_rng(1))
    origin = manifold.default_center()
    replaced = np.all(np.isclose(out, origin), axis=-1)
    assert replaced.any() and not replaced.all()
    assert manifold.belongs(out).all()
