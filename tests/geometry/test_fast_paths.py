"""Fast paths of the exact samplers against the computations they replace (same values, or the same law).

Statistical tests: alpha = 1e-6 per statistic, fixed seeds.
"""


import numpy as np
import pytest
from scipy import stats

from geodp_core.geometry import get_manifold
from geodp_core.geometry.radial import RadialLaw
from geodp_core.geometry.spd import _smallest_eigenvalue_positive
from geodp_core.geometry.spd_polar import _vandermonde_directions, haar_orthogonal

ALPHA = 1e-6
SEED = 20261127


def _base_point(manifold, rng):
    """A base point away from the default one (frames there are not the identity's columns)."""
    center = manifold.default_center()
    coords = rng.standard_normal(manifold.dim)
    return manifold.exp(center, manifold.from_frame(center, 0.7 * coords / np.linalg.norm(coords)))


@pytest.mark.parametrize("args", [("sphere", 2), ("sphere", 7), ("hyperbolic", 2), ("hyperbolic", 5), ("kendall", 4),
                                  ("kendall", 12), ("euclidean", 3), ("spd", 2, "log_euclidean"), ("spd", 3, "affine")])
def test_exp_polar_is_exp_of_the_frame_vector(args):
    manifold = get_manifold(*args)
    rng = np.random.default_rng(SEED)
    for base in (manifold.default_center(), _base_point(manifold, rng)):
        coords = rng.standard_normal((300, manifold.dim))
        coords /= np.linalg.norm(coords, axis=1, keepdims=True)
        radii = rng.uniform(0.0, 1.4, 300)
        tangent = manifold.from_frame(base, coords) * radii.reshape((-1,) + (1,) * len(manifold.point_shape))
        expected = manifold.exp(base, tangent)
        got = manifold.exp_polar(base, radii, coords)
        np.testing.assert_allclose(got, expected, rtol=0.0, atol=1e-12)
        assert manifold.belongs(got, atol=1e-10).all()


def test_a_subclass_with_its_own_metric_gets_the_generic_polar_exponential():
    # The sphere's closed form cos r p + sin r u holds for the unit sphere only: the sphere of radius 2 (metric 4 g,
    # frame halved) must take Exp_p(r u) (geodesic length r: cos(r/2) p + sin(r/2) 2u), not the closed form.
    from geodp_core.geometry import Manifold, Sphere

    class Doubled(Sphere):
        name = "test_doubled_sphere"

        def inner(self, base_point, tangent_a, tangent_b):
            return 4.0 * super().inner(base_point, tangent_a, tangent_b)

        def from_frame(self, base_point, coords):
            return 0.5 * super().from_frame(base_point, coords)

    class Again(Doubled):
        pass

    assert Doubled._exp_polar is Manifold._exp_polar and Again._exp_polar is Manifold._exp_polar
    assert Sphere._exp_polar is not Manifold._exp_polar
    space, unit = Again(2), get_manifold("sphere", 2)
    base = _base_point(unit, np.random.default_rng(SEED))
    coords = np.array([[1.0, 0.0], [0.6, 0.8]])
    radii = np.array([0.5, 2.0])
    got = space.exp_polar(base, radii, coords)
    directions = unit.from_frame(base, coords)
    expected = np.cos(radii / 2)[:, None] * base + np.sin(radii / 2)[:, None] * directions
    np.testing.assert_allclose(got, expected, atol=1e-14)
    assert not np.allclose(unit.exp_polar(base, radii, coords), got)


def test_exp_polar_sphere_at_the_reflection_fixed_point():
    # At p = e_0 the frame is the identity's columns 1..d (the Householder reflection degenerates).
    sphere = get_manifold("sphere", 3)
    base = np.array([1.0, 0.0, 0.0, 0.0])
    coords = np.array([[1.0, 0.0, 0.0], [0.0, 0.6, 0.8]])
    got = sphere.exp_polar(base, np.array([0.5, 1.0]), coords)
    expected = sphere.exp(np.broadcast_to(base, (2, 4)), np.array([[0.0, 0.5, 0.0, 0.0], [0.0, 0.0, 0.6, 0.8]]))
    np.testing.assert_allclose(got, expected, atol=1e-15)


def _old_propose_hull(eng, n, rng):
    """The tangent-hull proposal as it was written before its per-piece constants were precomputed."""
    u = rng.random(n) * eng._hull_cumprob[-1]
    j = np.minimum(np.searchsorted(eng._hull_cumprob, u, side="right"), eng._hull_x.size - 1)
    lo, hi, beta = eng._hull_lo[j], eng._hull_hi[j], eng._hull_b[j]
    width = hi - lo
    v = rng.random(n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        flat = np.abs(beta * np.where(np.isinf(width), 1.0, width)) < 1e-12
        safe_beta = np.where(flat, 1.0, beta)
        r_up = hi + np.log1p(-v * (-np.expm1(-safe_beta * width))) / safe_beta
        r_down = lo + np.log1p(-v * (-np.expm1(safe_beta * width))) / safe_beta
        r = np.where(flat, lo + v * np.where(np.isinf(width), 0.0, width), np.where(beta > 0, r_up, r_down))
        r = np.clip(r, lo, hi)
        tangent = eng._hull_c[j] + beta * (r - eng._hull_x[j])
        log_acc = eng._logf(r) - tangent
    return r, np.where(np.isnan(log_acc), -np.inf, log_acc)


@pytest.mark.parametrize("case", [("sphere", 2, "laplace", 0.1), ("sphere", 2, "laplace", 50.0),
                                  ("hyperbolic", 2, "laplace", 0.1), ("hyperbolic", 3, "laplace", 0.45),
                                  ("hyperbolic", 5, "uniform", 3.0), ("kendall", 20, "gaussian", 0.1),
                                  ("kendall", 20, "laplace", 0.1), ("sphere", 1, "uniform", 2.0),
                                  ("euclidean", 1, "laplace", 1.0)])
def test_hull_proposals_are_bitwise_the_old_ones(case):
    eng = RadialLaw(*case)._law
    r_new, acc_new = eng.propose_hull(50_000, np.random.default_rng(SEED))
    r_old, acc_old = _old_propose_hull(eng, 50_000, np.random.default_rng(SEED))
    np.testing.assert_array_equal(r_new, r_old)
    np.testing.assert_array_equal(acc_new, acc_old)


def test_hull_piece_search_is_searchsorted():
    eng = RadialLaw("hyperbolic", 2, "laplace", 0.1)._law
    cum = eng._hull_cumprob
    u = np.concatenate([np.random.default_rng(SEED).random(100_000) * cum[-1], cum, np.nextafter(cum, 0.0),
                        [0.0, cum[-1]]])
    np.testing.assert_array_equal(eng._hull_piece(u), np.searchsorted(cum, u, side="right"))


def _haar_by_qr(m, size, rng):
    z = rng.standard_normal((size, m, m))
    q, rmat = np.linalg.qr(z)
    signs = np.sign(np.diagonal(rmat, axis1=-2, axis2=-1))
    return q * np.where(signs == 0, 1.0, signs)[:, None, :]


@pytest.mark.parametrize("m", [1, 2, 3, 5, 8, 9])
def test_haar_is_the_sign_fixed_qr_factor(m):
    # The orthonormal factor with a positive diagonal of R is unique: Gram-Schmidt gives Householder's U.
    got = haar_orthogonal(m, 2000, np.random.default_rng(SEED))
    expected = _haar_by_qr(m, 2000, np.random.default_rng(SEED))
    np.testing.assert_allclose(got, expected, rtol=0.0, atol=1e-11)
    np.testing.assert_allclose(np.einsum("nji,njk->nik", got, got), np.broadcast_to(np.eye(m), got.shape), atol=1e-13)


@pytest.mark.parametrize("m", [2, 3])
def test_vandermonde_directions_follow_the_goe_law(m):
    # Two-sample KS (alpha = 1e-6 per statistic, 4 statistics) against normalised GOE eigenvalues in random order,
    # whose density on the sphere is proportional to prod |theta_i - theta_j| (the closed forms for m = 2, 3).
    rng = np.random.default_rng(SEED)
    got = _vandermonde_directions(m, 20_000, rng)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-14)
    g = rng.standard_normal((20_000, m, m))
    goe = np.linalg.eigvalsh(0.5 * (g + np.swapaxes(g, 1, 2)))
    goe = rng.permuted(goe / np.linalg.norm(goe, axis=1, keepdims=True), axis=1)
    iu, ju = np.triu_indices(m, 1)
    for stat in (lambda x: x[:, 0], lambda x: np.max(x, axis=1), lambda x: np.sum(x, axis=1),
                 lambda x: np.prod(np.abs(x[:, iu] - x[:, ju]), axis=1)):
        assert stats.ks_2samp(stat(got), stat(goe)).pvalue > ALPHA
    # negative control: uniform directions are rejected (power of the product statistic)
    uniform = rng.standard_normal((20_000, m))
    uniform /= np.linalg.norm(uniform, axis=1, keepdims=True)
    product = np.prod(np.abs(uniform[:, iu] - uniform[:, ju]), axis=1)
    assert stats.ks_2samp(product, np.prod(np.abs(goe[:, iu] - goe[:, ju]), axis=1)).pvalue < ALPHA


@pytest.mark.parametrize("m", [1, 2, 3, 5, 11])
def test_positive_definiteness_certificate_agrees_with_eigvalsh(m):
    # adversarial mixture: condition numbers up to e^50, indefinite, singular and nearly singular matrices
    rng = np.random.default_rng(SEED + m)
    n = 20_000
    q, _ = np.linalg.qr(rng.standard_normal((n, m, m)))
    lam = np.exp(rng.normal(0.0, 1.0, (n, m)) * rng.choice([0.1, 1.0, 5.0, 10.0, 17.0, 19.0, 25.0], (n, 1)))
    flip = rng.random(n) < 0.1
    lam[flip, 0] = -lam[flip, 0] * rng.choice([1e-20, 1e-16, 1e-12, 1.0], flip.sum())
    lam[rng.random(n) < 0.05, 0] = 0.0
    a = (q * lam[:, None, :]) @ np.swapaxes(q, 1, 2)
    a = 0.5 * (a + np.swapaxes(a, 1, 2))
    big = np.max(np.abs(a[:10]), axis=(1, 2))[:, None, None]
    a[:5] *= 1e200 / big[:5]  # huge entries, and tiny ones
    a[5:10] *= 1e-200 / big[5:10]
    expected = np.linalg.eigvalsh(a)[:, 0] > 0
    np.testing.assert_array_equal(_smallest_eigenvalue_positive(a), expected)
    assert 0 < expected.mean() < 1
    np.testing.assert_array_equal(_smallest_eigenvalue_positive(a.reshape(2, n // 2, m, m)), expected.reshape(2, -1))



def test_guide_table_search_is_searchsorted_with_empty_cells():
    from geodp_core.geometry.radial import _GuideTable

    rng = np.random.default_rng(SEED)
    for masses in (rng.random(7), np.array([0.0, 0.3, 0.0, 0.0, 1e-12, 0.7, 0.0]), rng.random(3000) ** 8):
        cum = np.cumsum(masses)
        table = _GuideTable(cum, cells=max(4, 4 * cum.size))
        u = np.concatenate([rng.random(50_000) * cum[-1], cum, np.nextafter(cum, 0.0), [0.0, cum[-1]]])
        np.testing.assert_array_equal(table(u), np.searchsorted(cum, u, side="right"))


def test_exp_polar_validates_its_arguments():
    from geodp_core.exceptions import InvalidParameterError, OffManifoldError

    sphere = get_manifold("sphere", 2)
    base = sphere.default_center()
    coords = np.array([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(OffManifoldError, match="base_point"):
        sphere.exp_polar(2.0 * base, [0.1, 0.2], coords)
    with pytest.raises(InvalidParameterError, match="radii"):
        sphere.exp_polar(base, [-0.1, 0.2], coords)
    with pytest.raises(InvalidParameterError, match="radii"):
        sphere.exp_polar(base, [np.nan, 0.2], coords)
    with pytest.raises(InvalidParameterError, match="unit_coords"):
        sphere.exp_polar(base, [0.1, 0.2], 2.0 * coords)
    with pytest.raises(InvalidParameterError, match="unit_coords"):
        sphere.exp_polar(base, [0.1, 0.2, 0.3], coords)
    with pytest.raises(InvalidParameterError, match="unit_coords"):
        sphere.exp_polar(base, [0.1, 0.2], np.ones((2, 3)) / np.sqrt(3.0))


def _hard_symmetric_2x2(rng):
    """Random symmetric 2x2 matrices plus the cases a closed form gets wrong: ties, zeros, diagonal and rotated
    matrices with condition number up to e^60, negative and indefinite ones."""
    a = rng.normal(size=(400, 2, 2))
    cases = [0.5 * (a + np.swapaxes(a, -1, -2)), np.zeros((1, 2, 2)), np.eye(2)[None] * 3.0, -np.eye(2)[None],
             np.diag([np.exp(60.0), 1.0])[None], np.diag([1e-12, 1.0])[None], np.diag([-2.0, 5.0])[None]]
    for log_cond in (5.0, 20.0, 40.0):
        angle = rng.uniform(0, np.pi, 50)
        c, s = np.cos(angle), np.sin(angle)
        rot = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)
        cases.append(rot @ np.diag([1.0, np.exp(-log_cond)]) @ np.swapaxes(rot, -1, -2))
    return np.concatenate(cases)


def test_closed_form_symmetric_eigh_agrees_with_lapack():
    """2x2 eigenvalues within a few ulps of ||A|| of LAPACK's (and exact on diagonal matrices, where m - r would
    lose the small one), orthonormal eigenvectors that rebuild A; small batches and other sizes are LAPACK's."""
    from geodp_core.geometry.functions import CLOSED_FORM_BATCH, symmetric_2x2_eigenvalues, symmetric_eigh

    matrices = _hard_symmetric_2x2(np.random.default_rng(SEED))
    values, vectors = symmetric_eigh(matrices)
    expected = np.linalg.eigvalsh(matrices)
    scale = np.max(np.abs(matrices), axis=(-1, -2), keepdims=False)[:, None]
    assert np.all(np.abs(values - expected) <= 8 * np.finfo(float).eps * scale)
    assert np.all(values[:, 0] <= values[:, 1])
    np.testing.assert_allclose(np.swapaxes(vectors, -1, -2) @ vectors, np.broadcast_to(np.eye(2), matrices.shape),
                               atol=1e-15)
    rebuilt = (vectors * values[:, None, :]) @ np.swapaxes(vectors, -1, -2)
    assert np.all(np.abs(rebuilt - matrices) <= 8 * np.finfo(float).eps * scale[:, :, None])
    low, high = symmetric_2x2_eigenvalues(np.array([np.exp(60.0), 1e-12, 1.0, -3.0]), 0.0,
                                          np.array([1.0, 1.0, 1e-300, 2.0]))
    np.testing.assert_array_equal(low, [1.0, 1e-12, 1e-300, -3.0])
    np.testing.assert_array_equal(high, [np.exp(60.0), 1.0, 1.0, 2.0])
    small = matrices[:CLOSED_FORM_BATCH - 1]  # below the batch threshold: LAPACK's own answer
    np.testing.assert_array_equal(symmetric_eigh(small)[0], np.linalg.eigh(small)[0])
    big = np.random.default_rng(1).normal(size=(5, 3, 3))
    big = big + np.swapaxes(big, -1, -2)
    np.testing.assert_allclose(symmetric_eigh(big)[0], np.linalg.eigvalsh(big), atol=1e-13)
