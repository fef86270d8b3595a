"""Data kinds: each declared once (geodp_core/data/kinds.py), read by the Scenario, the pipeline and the sidebar."""

import numpy as np
import pytest

from geodp_core.data import kinds
from geodp_core.data.kinds import DataKind, data_kind, data_kinds, data_kinds_for, register_data_kind
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES
from geodp_core.pipeline import REAL_DATASETS, prepare, typical_spread_distance
from geodp_core.scenario import LABELLED_DATA, Scenario, data_classes_for

#: The display order of the data kinds on each space (the sidebar's menu; a change of space keeps the first).
OFFERED = {
    "sphere": ("vmf", "vmf_mixture", "uniform_ball", "wrapped_normal", "cities", "upload"),
    "hyperbolic": ("uniform_ball", "wrapped_normal", "wrapped_normal_mixture", "karate", "upload"),
    "spd": ("uniform_ball", "wrapped_normal", "wishart", "connectomes", "digits_covariance",
            "image_patches_covariance", "upload"),
    "euclidean": ("uniform_ball", "wrapped_normal", "upload"),
    "kendall": ("shape_perturbation", "uniform_ball", "wrapped_normal", "planar_cells"),  # its default leads (as before)
    "so3": ("uniform_ball", "wrapped_normal", "hand_orientations"),
}


def test_every_space_offers_its_data_kinds_in_display_order():
    assert {code: data_kinds_for(code) for code in MANIFOLD_NAMES} == OFFERED
    assert REAL_DATASETS == ("cities", "connectomes", "karate", "digits_covariance", "image_patches_covariance",
                             "planar_cells", "hand_orientations")
    assert LABELLED_DATA == ("connectomes", "karate", "digits_covariance", "image_patches_covariance",
                             "hand_orientations")


def test_every_declaration_is_complete():
    for code, kind in data_kinds().items():
        assert kind.code == code and kind.label.strip() and callable(kind.make)
        assert kind.labelled == bool(data_classes_for(code)) if kind.source == "dataset" else not kind.labelled
        if not callable(kind.spaces):  # a kind that exists on named spaces says why it is not offered elsewhere
            assert kind.where.strip(), code


def test_the_sidebar_labels_every_declared_kind():
    pytest.importorskip("streamlit")
    from geodp_app.sidebar import DATA_LABELS, DATA_WHERE

    assert DATA_LABELS == {code: kind.label for code, kind in data_kinds().items()}
    assert set(DATA_WHERE) <= set(DATA_LABELS)


@pytest.mark.parametrize(("data", "expected"), [("vmf", 0.1 * np.sqrt(100)), ("wrapped_normal", 0.1 * np.sqrt(100)),
                                                  ("uniform_ball", None)])
def test_spread_distance_is_declared_with_the_kind(data, expected):
    scenario = Scenario(manifold="sphere", dim=100, data=data, spread=0.1)
    assert typical_spread_distance(scenario) == (None if expected is None else pytest.approx(expected))


def test_declaration_errors():
    with pytest.raises(InvalidParameterError, match="source"):
        DataKind("x", "x", lambda *a: None, ("sphere",), source="web")
    with pytest.raises(InvalidParameterError, match="spaces"):
        DataKind("x", "x", lambda *a: None, ("moon",))
    with pytest.raises(InvalidParameterError, match="already declared"):
        register_data_kind("vmf", "again", ("sphere",))(lambda *a: None)
    with pytest.raises(InvalidParameterError, match="data"):
        data_kind("no_such_kind")


def test_a_new_data_kind_declared_in_one_place_is_offered_and_generated(monkeypatch):
    """A kind declared here only: the Scenario offers it where its predicate holds, prepare() makes its data."""
    monkeypatch.setattr(kinds, "_KINDS", dict(kinds._KINDS))

    @register_data_kind("test_only_centre_copies", "copies of the public centre", lambda cls: cls.is_hadamard,
                        where="a test kind on Hadamard spaces")
    def make(scenario, manifold, center, rng, points=None):
        return np.repeat(center[None], scenario.n, axis=0), "n copies of the public centre"

    assert data_kinds_for("hyperbolic")[-1] == "test_only_centre_copies"
    assert "test_only_centre_copies" not in data_kinds_for("sphere")
    prepared = prepare(Scenario(manifold="hyperbolic", dim=2, data="test_only_centre_copies", n=7))
    assert prepared.data.shape == (7, 3) and prepared.data_note == "n copies of the public centre"
    np.testing.assert_allclose(prepared.true_mean, prepared.center, atol=1e-12)
    with pytest.raises(InvalidParameterError, match="data"):
        Scenario(manifold="sphere", data="test_only_centre_copies")
