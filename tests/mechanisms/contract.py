"""Reusable contract every mechanism test class inherits (docs/architecture.md §10).

Subclass :class:`MechanismContract` and set:

- ``name``: registry name, ``manifold_args``: arguments of ``get_manifold``;
- ``target`` and ``sensitivity`` for the default calibration; ``calibrate_options``;
- ``unavailable_on``: list of ``get_manifold`` argument tuples where the mechanism must be
  unavailable (the reason must be non-empty and ``calibrate`` must raise ``UnavailableError``).

Law test every subclass inherits: the Euclidean limit. As the noise shrinks, the geometry is flat at its
scale, so dist(center, release) must follow the flat radial law of the mechanism's noise: Gamma(d, sigma)
(Laplace), sigma chi_d (Gaussian), sqrt(2t) chi_d (heat diffusion). A KS test at alpha = 1e-6 with 3000
releases catches a wrong noise scale (a factor 2 in sigma or t, a missing sqrt 2) or a wrong radial exponent.
Mechanisms without a closed-form limit here (conformal, exponential-wrapped away from its footpoint,
Metropolis baselines) set ``euclidean_limit = None``.
"""

import numpy as np
import pytest
from scipy import stats

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import HONESTY_LABELS, Calibration, get_mechanism
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP, implies

ALL_TARGETS = [PureDP(1.0), ApproxDP(1.0, 1e-5), GDP(1.0), RDP(2.0, 1.0), ZCDP(0.5)]
#: Flat radial law of dist(center, release) in the small-noise limit, by mechanism name.
EUCLIDEAN_LIMITS = {
    "riemannian_laplace": lambda noise, d: stats.gamma(d, scale=noise["sigma"]),
    "riemannian_gaussian": lambda noise, d: stats.chi(d, scale=noise["sigma"]),
    "tangent_gaussian": lambda noise, d: stats.chi(d, scale=noise["sigma"]),
    "brownian_motion": lambda noise, d: stats.chi(d, scale=np.sqrt(2.0 * noise["t"])),
    "langevin": lambda noise, d: stats.chi(d, scale=np.sqrt(2.0 * noise["t"])),
}
LAW_ALPHA = 1e-6


class MechanismContract:
    name = None
    manifold_args = None
    target = PureDP(1.0)
    sensitivity = 0.1
    calibrate_options = {}
    unavailable_on = []
    n_samples = 64
    #: Whether the Euclidean-limit law test applies (default: when the mechanism has a known flat limit and
    #: the sampler is not a Metropolis baseline).
    euclidean_limit = True

    @pytest.fixture
    def manifold(self):
        return get_manifold(*self.manifold_args)

    @pytest.fixture
    def mechanism(self, manifold):
        return get_mechanism(self.name, manifold)

    @pytest.fixture
    def center(self, manifold):
        base = manifold.default_center()
        coords = np.linspace(0.1, 0.3, manifold.dim)
        return manifold.exp(base, manifold.from_frame(base, coords))

    @pytest.fixture
    def calibration(self, mechanism):
        return mechanism.calibrate(self.target, self.sensitivity, **self.calibrate_options)

    def test_available_here(self, mechanism):
        ok, reason = mechanism.available()
        assert ok, reason

    def test_unavailable_elsewhere_with_reason(self):
        for args in self.unavailable_on:
            other = get_mechanism(self.name, get_manifold(*args))
            ok, reason = other.available()
            assert not ok and len(reason) > 10
            with pytest.raises(UnavailableError):
                other.calibrate(self.target, self.sensitivity, **self.calibrate_options)

    def test_calibration_record(self, calibration, manifold):
        assert isinstance(calibration, Calibration)
        assert calibration.mechanism == self.name and calibration.manifold == manifold.label
        assert calibration.label in HONESTY_LABELS
        assert implies(calibration.achieved, self.target)
        assert calibration.noise and all(
            np.isfinite(v) and v > 0 for v in calibration.noise.values() if np.isscalar(v) and not isinstance(v, str)
        )
        assert calibration.notes, "a calibration must say which theorem/conversion it used"
        assert isinstance(calibration.to_dict(), dict)

    def test_sample_shape_and_on_manifold(self, mechanism, calibration, center, manifold):
        out = mechanism.sample(center, calibration, self.n_samples, np.random.default_rng(1))
        assert out.shape == (self.n_samples,) + tuple(manifold.point_shape)
        assert manifold.belongs(out, atol=1e-6).all()

    def test_sample_reproducible_with_seed(self, mechanism, calibration, center):
        a = mechanism.sample(center, calibration, 5, np.random.default_rng(3))
        b = mechanism.sample(center, calibration, 5, np.random.default_rng(3))
        np.testing.assert_array_equal(a, b)

    def test_sample_validation(self, mechanism, calibration, center):
        with pytest.raises(InvalidParameterError, match="size"):
            mechanism.sample(center, calibration, 0, np.random.default_rng(0))
        with pytest.raises(InvalidParameterError, match="rng"):
            mechanism.sample(center, calibration, 3, None)
        with pytest.raises(InvalidParameterError, match="center"):
            mechanism.sample(np.full_like(center, np.nan), calibration, 3, np.random.default_rng(0))
        with pytest.raises(InvalidParameterError, match="calibration"):
            mechanism.sample(center, "not a calibration", 3, np.random.default_rng(0))

    @pytest.mark.parametrize("bad", [-1.0, 0.0, float("nan"), float("inf"), True, "0.1"])
    def test_bad_sensitivity(self, mechanism, bad):
        with pytest.raises(InvalidParameterError, match="sensitivity"):
            mechanism.calibrate(self.target, bad, **self.calibrate_options)

    def test_bad_target(self, mechanism):
        with pytest.raises(InvalidParameterError, match="target"):
            mechanism.calibrate(1.0, self.sensitivity, **self.calibrate_options)

    @pytest.mark.parametrize("target", ALL_TARGETS, ids=lambda t: t.notion)
    def test_every_target_met_or_refused_with_reason(self, mechanism, target):
        try:
            cal = mechanism.calibrate(target, self.sensitivity, **self.calibrate_options)
        except UnavailableError as exc:
            assert len(str(exc)) > 20
            return
        assert implies(cal.achieved, target), (cal.achieved, target)
        assert type(cal.achieved) is type(target)

    def test_euclidean_limit_of_the_release_law(self, mechanism, manifold, center):
        law = EUCLIDEAN_LIMITS.get(self.name)
        if not self.euclidean_limit or law is None or self.calibrate_options.get("sampler") == "mh":
            pytest.skip("no closed-form flat limit for this mechanism or sampler")
        calibration = mechanism.calibrate(self.target, 1e-4, **self.calibrate_options)  # noise ~ 1e-4
        releases = mechanism.sample(center, calibration, 3000, np.random.default_rng(11))
        radii = manifold.dist(center, releases)
        flat = law(calibration.noise, manifold.dim)
        assert stats.kstest(radii, flat.cdf).pvalue > LAW_ALPHA, (calibration.noise, np.median(radii), flat.median())
