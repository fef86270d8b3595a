"""The facts views, studies and solvers ask a space (instead of testing its name): each is checked against the maths.

View kind, chooser label, tangent projection, complex structure, rounding scale of Log, closed-form initial guess of
the mean, Jacobi model of dExp, upload format, mesh kind, distance unit and the random-guess level.
"""

import math

import numpy as np
import pytest
from scipy import integrate

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES, Sphere, get_manifold, manifold_class
from geodp_core.summaries import frechet_mean

SEED = 20261127
SPACES = [("sphere", 2), ("sphere", 4), ("hyperbolic", 2), ("hyperbolic", 3), ("euclidean", 3), ("spd", 2),
          ("spd", 3, "log_euclidean"), ("spd", 3, "log_cholesky"), ("kendall", 5)]
VIEWS = {"sphere3d", "poincare_disk", "spd_ellipses", "spd_spectrum", "shapes", "rotation_ball", "tangent"}


def _points(manifold, n, radius, rng):
    center = manifold.default_center()
    coords = rng.standard_normal((n, manifold.dim))
    coords *= radius * rng.uniform(0.1, 1.0, (n, 1)) / np.linalg.norm(coords, axis=1, keepdims=True)
    return manifold.exp(center, manifold.from_frame(center, coords))


@pytest.mark.parametrize("args", SPACES, ids=str)
def test_to_tangent_is_the_orthogonal_projection(args):
    manifold = get_manifold(*args)
    rng = np.random.default_rng(SEED)
    base = _points(manifold, 1, 0.5, rng)[0]
    tangent = manifold.from_frame(base, rng.standard_normal(manifold.dim))
    np.testing.assert_allclose(manifold.to_tangent(base, tangent), tangent, atol=1e-12)  # fixes tangent vectors
    drift = rng.standard_normal(manifold.point_shape)
    projected = manifold.to_tangent(base, drift)
    manifold.validate_tangent(base, projected)  # tangent
    np.testing.assert_allclose(manifold.to_tangent(base, projected), projected, atol=1e-12)  # idempotent
    # orthogonal: the removed part is orthogonal to every tangent vector (in the ambient form of the metric)
    removed = drift - projected
    frame = manifold.tangent_frame(base)
    if manifold.jacobi_model == "quadric":
        assert np.allclose(manifold.ambient_inner(frame, removed[None]), 0.0, atol=1e-12)


@pytest.mark.parametrize("args", SPACES, ids=str)
def test_view_and_chooser_label(args):
    manifold = get_manifold(*args)
    assert manifold.view in VIEWS
    assert manifold.chooser_label.strip() and manifold.symbol in manifold.chooser_label


def test_views_and_labels_of_each_space():
    expected = {("sphere", 2): ("sphere3d", "Sphere S²"), ("sphere", 1): ("tangent", "Circle S¹"),
                ("hyperbolic", 2): ("poincare_disk", "Hyperbolic H²"), ("hyperbolic", 5): ("tangent", "Hyperbolic H⁵"),
                ("spd", 2): ("spd_ellipses", "SPD(2), affine-invariant"),
                ("spd", 3): ("spd_spectrum", "SPD(3), affine-invariant"),
                ("euclidean", 1): ("tangent", "Real line ℝ¹"), ("euclidean", 2): ("tangent", "Euclidean ℝ²"),
                ("kendall", 12): ("shapes", "Kendall shapes Σ¹²₂ (12 landmarks)")}
    for args, (view, label) in expected.items():
        manifold = get_manifold(*args)
        assert (manifold.view, manifold.chooser_label) == (view, label), args
    assert get_manifold("sphere", 2).mesh_kind == "sphere" and get_manifold("hyperbolic", 2).mesh_kind == "hyperbolic_ball"
    assert get_manifold("sphere", 3).mesh_kind is None and get_manifold("euclidean", 2).mesh_kind is None


from geodp_core.regression import _JACOBI_MODELS  # noqa: E402


def test_every_registered_space_answers_the_callers_facts():
    for code in MANIFOLD_NAMES:
        cls = manifold_class(code)
        manifold = get_manifold(code, cls.default_size)
        assert manifold.view in VIEWS and manifold.chooser_label and manifold.distance_unit
        assert cls.size_sweep_steps >= 1 and cls.domain_radius_max > 0
        assert manifold.mesh_kind in (None, "sphere", "hyperbolic_ball")
        assert manifold.jacobi_model is None or manifold.jacobi_model in _JACOBI_MODELS  # a model regression knows
        assert manifold.upload_format in (None, "unit_vector", "hyperboloid", "symmetric_matrix", "cartesian")


def test_kendall_complex_structure_is_a_parallel_isometry_with_square_minus_one():
    manifold = get_manifold("kendall", 6)
    rng = np.random.default_rng(SEED)
    base = _points(manifold, 1, 0.4, rng)[0]
    vec = manifold.from_frame(base, rng.standard_normal(manifold.dim))
    j_vec = manifold.complex_structure(base, vec)
    manifold.validate_tangent(base, j_vec)  # horizontal: J preserves the horizontal space
    assert manifold.norm(base, j_vec) == pytest.approx(manifold.norm(base, vec), rel=1e-12)
    assert manifold.inner(base, vec, j_vec) == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(manifold.complex_structure(base, j_vec), -vec, atol=1e-12)
    # the plane (v, Jv) has curvature 4 = the upper bound: the distance between geodesics from base along v and
    # along v + s Jv grows like sin(2t)/2 (curvature 4), not sin t (curvature 1), measured at t = 0.6
    unit = vec / manifold.norm(base, vec)
    j_unit = manifold.complex_structure(base, unit)
    t, s = 0.6, 1e-4
    far = manifold.dist(manifold.exp(base, t * unit), manifold.exp(base, t * (unit + s * j_unit)))
    assert far / s == pytest.approx(math.sin(2.0 * t) / 2.0, rel=1e-3)
    for args in SPACES[:-1]:
        space = get_manifold(*args)
        assert space.complex_structure(space.default_center(), space.default_center()) is None


def test_rounding_scale_is_the_coordinate_growth():
    h2 = get_manifold("hyperbolic", 2)
    point = h2.projection(np.array([0.0, 30.0, 40.0]))
    assert h2.rounding_scale(point) == pytest.approx(point[0] ** 2)
    spd = get_manifold("spd", 2)
    assert spd.rounding_scale(np.diag([4.0, 0.5])) == pytest.approx(8.0)
    assert get_manifold("spd", 2, "log_euclidean").rounding_scale(np.diag([4.0, 0.5])) == 1.0
    assert get_manifold("sphere", 2).rounding_scale(get_manifold("sphere", 2).default_center()) == 1.0


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 3), ("spd", 2), ("kendall", 5)], ids=str)
def test_mean_initial_guess_is_a_point_near_the_mean(args):
    manifold = get_manifold(*args)
    points = _points(manifold, 40, 0.3, np.random.default_rng(SEED))
    weights = np.full(len(points), 1.0 / len(points))
    guess = manifold.mean_initial_guess(points, weights)
    assert manifold.belongs(guess)
    # a surrogate of the mean: within the data's spread of the Fréchet mean
    assert manifold.dist(guess, frechet_mean(manifold, points)) < 0.1


def test_mean_initial_guess_is_exact_on_symmetric_data_and_absent_when_undefined():
    sphere = get_manifold("sphere", 2)
    north = sphere.default_center()
    pair = sphere.exp(north, np.array([[0.3, 0.0, 0.0], [-0.3, 0.0, 0.0]]))
    np.testing.assert_allclose(sphere.mean_initial_guess(pair, np.array([0.5, 0.5])), north, atol=1e-15)
    antipodal = np.array([north, -north])
    assert sphere.mean_initial_guess(antipodal, np.array([0.5, 0.5])) is None  # extrinsic mean at 0
    assert get_manifold("euclidean", 2).mean_initial_guess(np.zeros((2, 2)), np.array([0.5, 0.5])) is None


@pytest.mark.parametrize("dim", [1, 2, 5])
def test_sphere_random_guess_level_is_the_mean_distance_of_the_uniform_law(dim):
    sphere = get_manifold("sphere", dim)
    volume = sphere.radial_volume
    top = integrate.quad(lambda r: r * math.exp(volume.log_jacobian(r)), 0.0, math.pi)[0]
    mass = integrate.quad(lambda r: math.exp(volume.log_jacobian(r)), 0.0, math.pi)[0]
    assert Sphere.uniform_mean_distance == pytest.approx(top / mass, rel=1e-10)
    assert get_manifold("kendall", 5).uniform_mean_distance is None  # depends on k: no size-free level


def test_regression_refuses_a_space_without_a_closed_form_differential():
    from geodp_core.regression import predict

    class NoJacobi(Sphere):
        jacobi_model = None

    manifold = NoJacobi(2)
    center = manifold.default_center()
    with pytest.raises(InvalidParameterError, match="closed-form differential of Exp") as info:
        predict(manifold, center, np.zeros(3), [0.0, 1.0])
    assert info.value.param == "manifold"


def test_uploads_follow_the_upload_format():
    from geodp_core.data import parse_points

    kendall = get_manifold("kendall", 4)
    with pytest.raises(InvalidParameterError, match="uploads are not offered") as info:
        parse_points(b"1,2\n3,4\n", kendall)
    assert info.value.param == "manifold" and "sphere" in str(info.value)
    r2 = get_manifold("euclidean", 2)
    assert parse_points(b"1,2\n3,4\n", r2).shape == (2, 2)
    with pytest.raises(InvalidParameterError, match="normalise"):
        parse_points(b"1,2\n3,4\n", r2, normalise=True)
