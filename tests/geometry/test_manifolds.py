"""Contract tests every manifold adapter inherits (docs/architecture.md §10)."""

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError, OffManifoldError
from geodp_core.geometry import get_manifold

SEED = 20261121


class ManifoldContract:
    """Shared properties; subclasses set ``args`` and ``max_radius`` (inside the injectivity radius)."""

    args = None
    max_radius = 1.0

    @pytest.fixture
    def manifold(self):
        return get_manifold(*self.args)

    def _random_points(self, manifold, rng, n):
        center = manifold.default_center()
        coords = rng.standard_normal((n, manifold.dim))
        coords *= (self.max_radius * rng.uniform(0, 1, (n, 1))) / np.linalg.norm(coords, axis=1, keepdims=True)
        return manifold.exp(center, manifold.from_frame(center, coords))

    def _random_tangent(self, manifold, base, rng, n, radius):
        coords = rng.standard_normal((n, manifold.dim))
        coords *= (radius * rng.uniform(0.05, 1, (n, 1))) / np.linalg.norm(coords, axis=1, keepdims=True)
        return manifold.from_frame(base, coords)

    def test_points_belong(self, manifold):
        pts = self._random_points(manifold, np.random.default_rng(SEED), 20)
        assert manifold.belongs(pts).all()

    def test_exp_log_inverse(self, manifold):
        rng = np.random.default_rng(SEED)
        base = self._random_points(manifold, rng, 1)[0]
        vecs = self._random_tangent(manifold, base, rng, 30, self.max_radius)
        pts = manifold.exp(base, vecs)
        np.testing.assert_allclose(manifold.log(base, pts), vecs, atol=1e-9 * (1 + np.abs(vecs).max()))
        back = manifold.exp(base, manifold.log(base, pts))
        np.testing.assert_allclose(back, pts, atol=1e-9 * (1 + np.abs(pts).max()))

    def test_dist_symmetric_and_equals_log_norm(self, manifold):
        rng = np.random.default_rng(SEED + 1)
        a = self._random_points(manifold, rng, 25)
        b = self._random_points(manifold, rng, 25)
        d_ab, d_ba = manifold.dist(a, b), manifold.dist(b, a)
        np.testing.assert_allclose(d_ab, d_ba, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(manifold.norm(a, manifold.log(a, b)), d_ab, rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(manifold.dist(a, a), 0.0, atol=1e-7)

    def test_tangent_frame_orthonormal(self, manifold):
        rng = np.random.default_rng(SEED + 2)
        base = self._random_points(manifold, rng, 3)
        frame = manifold.tangent_frame(base)
        assert frame.shape == (3, manifold.dim) + tuple(manifold.point_shape)
        for i in range(3):
            gram = manifold.inner(base[i], frame[i][:, None], frame[i][None, :])
            np.testing.assert_allclose(gram, np.eye(manifold.dim), atol=1e-10)
            assert manifold.validate_tangent(base[i], frame[i]) is not None
        coords = rng.standard_normal((3, manifold.dim))
        np.testing.assert_allclose(manifold.to_frame(base, manifold.from_frame(base, coords)), coords, atol=1e-10)

    def test_random_unit_tangent(self, manifold):
        rng = np.random.default_rng(SEED + 3)
        base = self._random_points(manifold, rng, 1)[0]
        vecs = manifold.random_unit_tangent(base, 400, rng)
        assert vecs.shape == (400,) + tuple(manifold.point_shape)
        np.testing.assert_allclose(manifold.norm(base, vecs), 1.0, atol=1e-10)
        coords = manifold.to_frame(base, vecs)
        # uniform direction: mean of coordinates ~ 0 (|mean| < 6 / sqrt(n), alpha ~ 1e-9 per coordinate)
        assert np.all(np.abs(coords.mean(axis=0)) < 6.0 / np.sqrt(400))

    def test_jacobian_matches_finite_differences(self, manifold):
        """log|det dExp| vs a central finite-difference determinant in orthonormal frames.

        Power: catches a missing or wrong volume factor (e.g. sin vs sinh, r^(d-1) included twice).
        """
        rng = np.random.default_rng(SEED + 4)
        base = self._random_points(manifold, rng, 1)[0]
        for vec in self._random_tangent(manifold, base, rng, 3, 0.8 * self.max_radius):
            coords = manifold.to_frame(base, vec)
            end = manifold.exp(base, vec)
            frame_end = manifold.tangent_frame(end)
            h = 1e-6
            jac = np.empty((manifold.dim, manifold.dim))
            for j in range(manifold.dim):
                step = np.zeros(manifold.dim)
                step[j] = h
                plus = manifold.exp(base, manifold.from_frame(base, coords + step))
                minus = manifold.exp(base, manifold.from_frame(base, coords - step))
                deriv = (plus - minus) / (2 * h)
                jac[:, j] = manifold.inner(end, frame_end, deriv[None])
            expected = np.log(abs(np.linalg.det(jac)))
            np.testing.assert_allclose(manifold.log_volume_jacobian(base, vec), expected, atol=1e-5)

    def test_batching_consistent_with_single_calls(self, manifold):
        rng = np.random.default_rng(SEED + 5)
        a = self._random_points(manifold, rng, 4)
        b = self._random_points(manifold, rng, 4)
        batched = manifold.dist(a, b)
        singles = np.array([manifold.dist(a[i], b[i]) for i in range(4)])
        np.testing.assert_allclose(batched, singles, rtol=1e-12, atol=1e-14)
        logs = manifold.log(a, b)
        for i in range(4):
            np.testing.assert_allclose(logs[i], manifold.log(a[i], b[i]), atol=1e-12)
        # one base point broadcast against many points
        many = manifold.dist(a[0], b)
        np.testing.assert_allclose(many, [manifold.dist(a[0], b[i]) for i in range(4)], rtol=1e-12, atol=1e-14)

    def test_off_manifold_and_nan_rejected(self, manifold):
        good = manifold.default_center()
        bad = 3.0 * good + 0.1 if manifold.name != "euclidean" else None
        if bad is not None:
            if manifold.name == "spd":
                bad = -good
            with pytest.raises(OffManifoldError, match="point_b"):
                manifold.dist(good, bad)
        nan_point = good.copy()
        nan_point.flat[0] = np.nan
        with pytest.raises(InvalidParameterError, match="point_a"):
            manifold.dist(nan_point, good)

    def test_parallel_transport_is_isometry(self, manifold):
        rng = np.random.default_rng(SEED + 6)
        p, q = self._random_points(manifold, rng, 2)
        u, w = self._random_tangent(manifold, p, rng, 2, 1.0)
        tu, tw = manifold.parallel_transport(p, q, u), manifold.parallel_transport(p, q, w)
        assert manifold.validate_tangent(q, tu) is not None
        np.testing.assert_allclose(manifold.inner(q, tu, tw), manifold.inner(p, u, w), atol=1e-9)
        # transporting the initial velocity gives minus the log at the end point
        v = manifold.log(p, q)
        np.testing.assert_allclose(manifold.parallel_transport(p, q, v), -manifold.log(q, p), atol=1e-8)

    # ------------------------------------------------------------- facts the space states about itself
    def test_diameter_is_the_largest_distance(self, manifold):
        """No pair is farther apart than ``diameter``; on a compact space a pair attains it, elsewhere distances
        grow without bound (a point 30 away along a geodesic — 10 on SPD, within its representable range — is that
        far)."""
        rng = np.random.default_rng(SEED + 7)
        base = self._random_points(manifold, rng, 1)[0]
        units = manifold.random_unit_tangent(base, 64, rng)
        reach = manifold.diameter if manifold.is_compact else min(30.0, 0.5 * manifold.representable_radius)
        lengths = reach * rng.uniform(0.0, 1.0, 64)
        lengths[:8] = reach * (1.0 - 1e-7)
        shape = (64,) + (1,) * len(manifold.point_shape)
        far = manifold.exp(base, lengths.reshape(shape) * units)
        dists = manifold.dist(base, far)
        assert np.all(dists <= manifold.diameter + 1e-9)
        np.testing.assert_allclose(dists[:8], reach * (1.0 - 1e-7), rtol=1e-6)
        if manifold.is_compact:
            others = self._random_points(manifold, rng, 200)
            assert np.all(manifold.dist(others[:100], others[100:]) <= manifold.diameter + 1e-12)
            assert manifold.representable_radius is None
        else:
            assert manifold.representable_radius is not None and manifold.representable_radius >= 10.0

    def test_curvature_bounds_by_finite_differences(self, manifold):
        r"""Sectional curvature of random planes from :math:`d(\mathrm{Exp}\,tu, \mathrm{Exp}\,tv)^2 = 2t^2 -
        \tfrac{K}{3}t^4 + O(t^6)` (orthonormal u, v) lies within ``curvature_bounds``, and the curvature the
        sensitivity bound uses is at least every one found (a space of dimension 1 has no planes: flat bound).

        Power: a sphere declared flat (or S¹ given κ = 1 for its sensitivity) fails; error of the estimate ~ t² = 1e-4.
        """
        if manifold.dim == 1:
            assert manifold.sensitivity_curvature <= 0.0
            return
        rng = np.random.default_rng(SEED + 8)
        t = 1e-2
        low, high = manifold.curvature_bounds
        found = []
        for base in self._random_points(manifold, rng, 6):
            for _ in range(8):
                q, _ = np.linalg.qr(rng.standard_normal((manifold.dim, 2)))
                u, v = manifold.from_frame(base, t * q[:, 0]), manifold.from_frame(base, t * q[:, 1])
                d = float(manifold.dist(manifold.exp(base, u), manifold.exp(base, v)))
                found.append(3.0 * (2.0 * t * t - d * d) / t**4)
        found = np.array(found)
        assert np.all(found >= low - 0.02) and np.all(found <= high + 0.02), (found.min(), found.max())
        assert manifold.sensitivity_curvature >= found.max() - 0.02

    def test_radial_volume_matches_the_exponential_jacobian(self, manifold):
        r""":math:`J(r) = r^{d-1}\,|\det d\,\mathrm{Exp}_p(ru)|` for every direction ``u`` (isotropic spaces), the
        Jacobian itself being checked against finite differences above. Power: a wrong curvature scale or a
        missing cos factor fails at 1e-9."""
        volume = manifold.radial_volume
        if volume is None:
            pytest.skip(f"{manifold.label} is not isotropic")
        assert volume.dim == manifold.dim
        assert volume.upper == pytest.approx(manifold.diameter) if manifold.is_compact else np.isinf(volume.upper)
        rng = np.random.default_rng(SEED + 9)
        base = self._random_points(manifold, rng, 1)[0]
        units = manifold.random_unit_tangent(base, 40, rng)
        radii = rng.uniform(0.01, min(self.max_radius, 0.98 * volume.upper), 40)
        shape = (40,) + (1,) * len(manifold.point_shape)
        expected = (manifold.dim - 1) * np.log(radii) + manifold.log_volume_jacobian(base, radii.reshape(shape) * units)
        np.testing.assert_allclose(volume.log_jacobian(radii), expected, atol=1e-9)

    def test_radial_volume_against_monte_carlo_ball_volumes(self, manifold):
        r"""On compact spaces with a uniform sampler: the share of uniform points within ``ρ`` of a point is
        :math:`\int_0^\rho J / \int_0^{\mathrm{diam}} J` (200,000 points, 6 binomial standard errors)."""
        volume = manifold.radial_volume
        if volume is None or not manifold.is_compact or not hasattr(manifold, "random_uniform"):
            pytest.skip("needs a compact isotropic space with a uniform sampler")
        from scipy import integrate

        rng = np.random.default_rng(SEED + 10)
        points = manifold.random_uniform(200_000, rng)
        dists = manifold.dist(manifold.default_center(), points)
        total = integrate.quad(lambda r: float(np.exp(volume.log_jacobian(np.array([r]))[0])), 0, volume.upper)[0]
        for share in (0.1, 0.5, 0.9):
            rho = share * volume.upper
            expected = integrate.quad(lambda r: float(np.exp(volume.log_jacobian(np.array([r]))[0])), 0, rho)[0] / total
            se = np.sqrt(expected * (1 - expected) / dists.size)
            assert abs(np.mean(dists <= rho) - expected) < 6 * se + 1e-12

    def test_size_facts_round_trip(self, manifold):
        cls = type(manifold)
        low, high = cls.size_range
        assert low <= manifold.size <= high
        assert low <= cls.app_size_range[0] <= cls.app_size_range[1] <= high
        assert cls.from_size(manifold.size, manifold.metric) == manifold
        assert get_manifold(manifold.name, manifold.size, manifold.metric) == manifold
        assert 0 < manifold.center_offset_limit <= manifold.diameter
        assert manifold.symbol and manifold.menu_label and manifold.title
        assert manifold.ball_radius_limit <= manifold.diameter


class TestSphere2(ManifoldContract):
    args = ("sphere", 2)
    max_radius = 2.5


class TestSphere1(ManifoldContract):
    args = ("sphere", 1)
    max_radius = 2.5


class TestSphere4(ManifoldContract):
    args = ("sphere", 4)
    max_radius = 2.0


class TestHyperbolic2(ManifoldContract):
    args = ("hyperbolic", 2)
    max_radius = 3.0


class TestHyperbolic3(ManifoldContract):
    args = ("hyperbolic", 3)
    max_radius = 2.0


class TestSPD2Affine(ManifoldContract):
    args = ("spd", 2, "affine")
    max_radius = 2.0


class TestSPD3Affine(ManifoldContract):
    args = ("spd", 3, "affine")
    max_radius = 1.5


class TestSPD2LogEuclidean(ManifoldContract):
    args = ("spd", 2, "log_euclidean")
    max_radius = 2.0


class TestSPD3LogEuclidean(ManifoldContract):
    args = ("spd", 3, "log_euclidean")
    max_radius = 1.5


class TestSPD3LogCholesky(ManifoldContract):
    args = ("spd", 3, "log_cholesky")
    max_radius = 1.5


class TestEuclidean3(ManifoldContract):
    args = ("euclidean", 3)
    max_radius = 5.0


@pytest.mark.parametrize("name, dim", [("sphere", 2), ("sphere", 9), ("hyperbolic", 2), ("hyperbolic", 7), ("euclidean", 4)])
def test_fast_frame_maps_equal_the_frame_matrix(name, dim):
    """from_frame/to_frame (O(d) per point) agree with the orthonormal frame matrix of tangent_frame, also at e₀."""
    from geodp_core.geometry.base import Manifold

    manifold = get_manifold(name, dim)
    rng = np.random.default_rng(5)
    origin = manifold.default_center()
    bases = manifold.exp(np.broadcast_to(origin, (6,) + origin.shape), 0.9 * manifold.random_unit_tangent(origin, 6, rng),
                         check=False)
    bases[0] = origin  # the frame's special point (reflection by the identity on the sphere)
    for base, coords in ((bases, rng.standard_normal((6, dim))), (bases[1], rng.standard_normal((3, dim))),
                         (bases, rng.standard_normal(dim))):
        fast, matrix = manifold.from_frame(base, coords), Manifold.from_frame(manifold, base, coords)
        assert fast.shape == matrix.shape
        np.testing.assert_allclose(fast, matrix, atol=1e-14)
        np.testing.assert_allclose(manifold.to_frame(base, fast), Manifold.to_frame(manifold, base, matrix), atol=1e-14)
        np.testing.assert_allclose(manifold.to_frame(base, fast), np.broadcast_to(coords, fast.shape[:-1] + (dim,)),
                                   atol=1e-14)


class TestKendall3(ManifoldContract):
    """Triangles: CP^1 = S^2(1/2); max_radius inside the injectivity radius pi/2."""

    args = ("kendall", 3)
    max_radius = 1.3


class TestKendall6(ManifoldContract):
    args = ("kendall", 6)
    max_radius = 1.3


class TestSO3(ManifoldContract):
    """Rotations with the bi-invariant metric (curvature 1/4, diameter π)."""

    args = ("so3", 3)
    max_radius = 2.8


@pytest.mark.parametrize("m", [2, 3, 6])
def test_fast_spd_affine_frame_maps_equal_the_frame_matrix(m):
    """SPD affine-invariant from_frame/to_frame (two products) agree with the frame matrix P^½ E_k P^½."""
    from geodp_core.geometry.base import Manifold

    manifold = get_manifold("spd", m, "affine")
    rng = np.random.default_rng(m)
    origin = manifold.default_center()
    bases = manifold.exp(np.broadcast_to(origin, (4,) + origin.shape), 0.8 * manifold.random_unit_tangent(origin, 4, rng),
                         check=False)
    for base, coords in ((bases, rng.standard_normal((4, manifold.dim))), (bases[0], rng.standard_normal((3, manifold.dim)))):
        fast = manifold.from_frame(base, coords)
        np.testing.assert_allclose(fast, Manifold.from_frame(manifold, base, coords), atol=1e-13)
        np.testing.assert_allclose(manifold.to_frame(base, fast), coords, atol=1e-12)
