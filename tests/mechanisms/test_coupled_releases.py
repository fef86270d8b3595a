"""Coupled releases across budgets (``Mechanism.sample_coupled``): the radial mechanisms draw one quantile and one
unit direction per release and map them through each budget's calibrated radial law.

Statistical tests: alpha = 1e-6 per test, fixed seeds. The KS test of each budget's distances against the exact
radial CDF at THAT budget has power against the bug feared most: a coupled path that maps every budget through
one scale (the first, or the sidebar's), or a quantile map that is not the law's inverse CDF.
"""

import numpy as np
import pytest
from scipy import stats

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import GDP, ApproxDP, PureDP
from tests.mechanisms.test_riemannian_laplace import generic_center

ALPHA = 1e-6
N_KS = 4_000

SPACES = [("sphere", 2), ("sphere", 5), ("hyperbolic", 2), ("hyperbolic", 3), ("euclidean", 3), ("kendall", 5),
          ("so3", 3), ("spd", 2, "log_euclidean")]


def _targets(name):
    if name == "riemannian_laplace":
        return [PureDP(e) for e in (5.0, 10.0, 20.0, 50.0)]
    return [GDP(m) for m in (0.5, 1.0, 2.0, 5.0)]


@pytest.mark.parametrize("name", ["riemannian_laplace", "riemannian_gaussian"])
@pytest.mark.parametrize("args", SPACES, ids=lambda a: "-".join(map(str, a)))
def test_each_budget_has_exactly_the_mechanisms_law(name, args):
    manifold = get_manifold(*args)
    mech = get_mechanism(name, manifold)
    calibrations = [mech.calibrate(t, 0.2) for t in _targets(name)]
    assert all(mech.coupling_reason(c) is None for c in calibrations)
    center = generic_center(manifold)
    out = mech.sample_coupled(center, calibrations, N_KS, np.random.default_rng(11))
    assert out.shape == (len(calibrations), N_KS) + tuple(manifold.point_shape)
    sigmas = [c.noise["sigma"] for c in calibrations]
    assert len(set(sigmas)) == len(sigmas)  # distinct laws: a single-scale bug would fail some KS test
    for calibration, releases in zip(calibrations, out):
        assert np.all(manifold.belongs(releases, atol=1e-6))
        radii = manifold.dist(center, releases)
        assert stats.kstest(radii, lambda r, c=calibration: mech.distance_cdf(c, r)).pvalue > ALPHA


@pytest.mark.parametrize("args", [("sphere", 3), ("hyperbolic", 2), ("kendall", 4), ("so3", 3)],
                         ids=lambda a: "-".join(map(str, a)))
def test_coupling_is_monotone_and_keeps_the_direction(args):
    """As the budget grows every release moves towards the summary along its own geodesic: the distance is
    non-increasing and the unit direction of Log_η is the same at every budget."""
    manifold = get_manifold(*args)
    mech = get_mechanism("riemannian_laplace", manifold)
    calibrations = []
    for eps in (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0):
        try:
            calibrations.append(mech.calibrate(ApproxDP(eps, 1e-5), 0.1))
        except UnavailableError:  # hyperbolic Laplace is not normalisable at small ε
            pass
    assert len(calibrations) >= 5
    center = generic_center(manifold)
    out = mech.sample_coupled(center, calibrations, 500, np.random.default_rng(3))
    dist = np.stack([manifold.dist(center, frame) for frame in out])
    assert np.all(np.diff(dist, axis=0) <= 1e-12 * np.maximum(dist[:-1], 1.0))
    assert np.all(np.diff(dist, axis=0) < 0)  # strictly: the σ's differ
    coords = np.stack([manifold.to_frame(center, manifold.log(center, frame)) for frame in out])
    units = coords / np.linalg.norm(coords, axis=-1, keepdims=True)
    inside = dist.max(axis=0) < 0.9 * manifold.injectivity_radius  # Log is the inverse of Exp there
    assert inside.sum() > 100
    assert np.allclose(units[:, inside], units[0, inside], atol=1e-6)


def test_the_coupled_draw_is_reproducible_and_independent_of_the_calibration_list_length():
    manifold = get_manifold("sphere", 2)
    mech = get_mechanism("riemannian_gaussian", manifold)
    cals = [mech.calibrate(GDP(m), 0.2) for m in (0.5, 1.0, 2.0)]
    center = manifold.default_center()
    a = mech.sample_coupled(center, cals, 50, np.random.default_rng(5))
    b = mech.sample_coupled(center, cals[1:], 50, np.random.default_rng(5))
    assert np.array_equal(a[1:], b)  # one budget's releases do not depend on which other budgets are drawn


def test_mechanisms_without_a_coupled_sampler_say_why():
    spd = get_manifold("spd", 2)  # affine-invariant: the polar sampler's direction law depends on σ
    laplace = get_mechanism("riemannian_laplace", spd)
    cal = laplace.calibrate(PureDP(5.0), 0.1)
    reason = laplace.coupling_reason(cal)
    assert reason and "direction" in reason
    with pytest.raises(UnavailableError) as info:
        laplace.sample_coupled(spd.default_center(), [cal], 10, np.random.default_rng(0))
    assert info.value.param == "calibrations"
    sphere = get_manifold("sphere", 2)
    mh = get_mechanism("riemannian_laplace", sphere).calibrate(PureDP(1.0), 0.1, sampler="mh")
    assert "approximate" in get_mechanism("riemannian_laplace", sphere).coupling_reason(mh)
    bm = get_mechanism("brownian_motion", sphere)
    assert "no coupled sampler" in bm.coupling_reason(bm.calibrate(ApproxDP(1.0, 1e-5), 0.1))


def test_bad_arguments_are_named():
    manifold = get_manifold("sphere", 2)
    mech = get_mechanism("riemannian_laplace", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.1)
    with pytest.raises(InvalidParameterError) as info:
        mech.sample_coupled(manifold.default_center(), [cal], -1, np.random.default_rng(0))
    assert info.value.param == "size"
    with pytest.raises(InvalidParameterError) as info:
        mech.sample_coupled(np.array([np.nan, 0.0, 1.0]), [cal], 5, np.random.default_rng(0))
    assert info.value.param == "center"
