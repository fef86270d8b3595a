"""The mechanism registry: every mechanism declared once beside its code (``spec``), read by every consumer.

The central test writes a new mechanism in THIS file only (a class with a spec and ``@register_mechanism``) and
checks that it appears everywhere a mechanism must appear — ``get_mechanism``, ``MECHANISM_NAMES``, the Scenario,
the pipeline, the Learn cards and try-it scenarios, the colour map of every figure, the audit — without editing any
other file.
"""

import re

import numpy as np
import pytest

from geodp_core import audit as audit_module
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import (
    DATASET_MECHANISM_NAMES,
    MECHANISM_COLORS,
    MECHANISM_NAMES,
    Card,
    DatasetMechanism,
    KNGGeodesicRegression,
    Mechanism,
    MechanismSpec,
    get_mechanism,
    mechanism_class,
    mechanism_spec,
    mechanism_specs,
    register_mechanism,
    registry,
)
from geodp_core.mechanisms.cards import CARD_FIELDS, CARD_ORDER, CARDS
from geodp_core.mechanisms.riemannian_laplace import RiemannianLaplace
from geodp_core.pipeline import evaluate, prepare, public_options
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP
from geodp_core.scenario import Scenario

#: The menu order of the shipped mechanisms. Random streams are keyed by a mechanism's index in this tuple
#: (experiments, reproductions), so the order is part of every number the app shows: it must not change.
SHIPPED = ("riemannian_laplace", "riemannian_gaussian", "tangent_gaussian", "ew_laplace", "ew_gaussian",
           "brownian_motion", "langevin", "conformal")
TARGETS = [PureDP(1.0), ApproxDP(1.0, 1e-5), GDP(1.0), RDP(2.0, 1.0), ZCDP(0.5)]


def test_shipped_mechanisms_keep_their_names_and_order():
    assert tuple(MECHANISM_NAMES) == SHIPPED and MECHANISM_NAMES == SHIPPED
    assert tuple(DATASET_MECHANISM_NAMES) == ("kng_regression",)
    assert MECHANISM_NAMES.index("conformal") == 7 and MECHANISM_NAMES[:2] == SHIPPED[:2]
    assert list(CARD_ORDER) == [*SHIPPED, "kng_regression"]


def test_every_spec_is_complete_and_consistent():
    colors = [spec.color for spec in mechanism_specs().values()]
    assert len(set(colors)) == len(colors) and all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colors)
    variants = set(audit_module.VARIANTS) | {"data_tau"}
    for name, spec in mechanism_specs().items():
        cls = registry._CLASSES[name]
        assert cls.spec is spec and (cls.name, cls.title) == (spec.name, spec.title)
        card = CARDS[name]
        assert tuple(card) == CARD_FIELDS and all(isinstance(v, str) and v.strip() for v in card.values())
        assert set(spec.audit_variants) <= variants and set(spec.audit_controls) <= variants
        if spec.public_options is not None:
            assert spec.options, f"{name}: the options its public_options sets must be declared with constraints"
        if issubclass(cls, Mechanism):
            scenario = Scenario(**spec.try_it)  # a valid ready scenario that shows this mechanism
            assert name in scenario.mechanisms
        else:
            assert spec.try_it is None  # a mechanism on a dataset has a page of its own


def test_public_options_are_declared_and_public():
    manifold = get_manifold("hyperbolic", 2)
    center = manifold.default_center()
    data = np.repeat(center[None], 5, axis=0)
    for name in MECHANISM_NAMES:
        options = public_options(name, manifold, center, 0.5, data, 3)
        assert set(options) <= set(mechanism_spec(name).options), name
        for key in ("footpoint", "anchor", "domain_center", "ball_center"):
            if key in options:
                assert options[key] is center  # the PUBLIC centre, never a function of the data


@pytest.mark.parametrize("name", SHIPPED)
def test_declared_notions_are_exactly_the_ones_met(name):
    """A target whose notion the spec does not declare is refused (UnavailableError) on every space; every declared
    notion is met on at least one space."""
    spaces = [("sphere", 2), ("hyperbolic", 2), ("euclidean", 2), ("kendall", 4)]
    spec = mechanism_spec(name)
    met = set()
    rng = np.random.default_rng(0)
    for args in spaces:
        manifold = get_manifold(*args)
        mechanism = get_mechanism(name, manifold)
        if not mechanism.available() or (name == "conformal" and args[0] != "sphere"):
            continue
        center = manifold.default_center()
        data = manifold.exp(center, manifold.from_frame(center, 0.2 * rng.standard_normal((30, manifold.dim))))
        options = public_options(name, manifold, center, 0.5, data, 1)
        for target in TARGETS:
            try:
                mechanism.calibrate(target, 0.1, **options)
            except UnavailableError:
                continue
            assert target.notion in spec.notions, (name, args, target)
            met.add(target.notion)
    assert met == set(spec.notions), (name, met)


@pytest.fixture
def clean_registry(monkeypatch):
    """A copy of the registry for this test: a mechanism registered here is gone afterwards."""
    monkeypatch.setattr(registry, "_CLASSES", dict(registry._CLASSES))


def _new_mechanism():
    """A new mechanism, declared in this test module only (the Riemannian Laplace law under another name)."""

    @register_mechanism
    class TestOnlyLaplace(RiemannianLaplace):
        spec = MechanismSpec(
            name="test_only_laplace",
            title="Test-only Laplace",
            color="#123456",
            notions=("pure_dp", "approx_dp", "gdp", "rdp", "zcdp"),
            card=Card(title="Test-only Laplace (TOL)", notion="ε-DP", idea="The Riemannian Laplace law, renamed.",
                      formula=r"p(y) \propto e^{-d(\eta, y)/\sigma}", guarantee="ε-DP.", assumptions="None new.",
                      sampler="As Riemannian Laplace.", source="This test."),
            try_it=dict(notion="pure_dp", eps=1.0, mechanisms=("test_only_laplace", "riemannian_laplace")),
            public_options=lambda manifold, center, radius, data, seed: {"sampler": "exact"},
            options={"sampler": "the exact sampler"},
            audit_controls=("understated_noise",),
        )

    return TestOnlyLaplace


def test_a_new_mechanism_declared_in_one_file_appears_everywhere(clean_registry):
    from geodp_core.viz import MECHANISM_COLORS as VIZ_COLORS

    cls = _new_mechanism()
    name = "test_only_laplace"
    sphere = get_manifold("sphere", 2)
    assert isinstance(get_mechanism(name, sphere), cls) and mechanism_class(name) is cls
    assert name in MECHANISM_NAMES and MECHANISM_NAMES[-1] == name and MECHANISM_NAMES[: len(SHIPPED)] == SHIPPED
    assert cls.title == "Test-only Laplace"
    assert CARDS[name]["title"] == "Test-only Laplace (TOL)" and name in CARD_ORDER
    assert MECHANISM_COLORS[name] == VIZ_COLORS[name] == "#123456"
    assert public_options(name, sphere, sphere.default_center(), 0.5, None, 0) == {"sampler": "exact"}
    assert audit_module.variant_applies("understated_noise", name)
    assert (name, "understated_noise") in audit_module._control_rows()
    scenario = Scenario(**mechanism_spec(name).try_it)  # the Learn page's try-it scenario
    prepared = prepare(scenario)
    outcome = evaluate(prepared, name, scenario.target, 20, np.random.default_rng(0))
    assert outcome.status == "ok" and outcome.title == "Test-only Laplace" and outcome.releases.shape == (20, 3)
    reference = evaluate(prepared, "riemannian_laplace", scenario.target, 20, np.random.default_rng(0))
    np.testing.assert_array_equal(outcome.releases, reference.releases)  # the same law and stream
    assert outcome.calibration.mechanism == name


def test_the_registry_is_restored_after_a_test_mechanism():
    assert "test_only_laplace" not in MECHANISM_NAMES and "test_only_laplace" not in CARDS


def test_registration_errors_name_the_problem(clean_registry):
    with pytest.raises(InvalidParameterError, match="spec"):
        register_mechanism(type("NoSpec", (RiemannianLaplace,), {"spec": None}))
    duplicate = type("Duplicate", (RiemannianLaplace,), {"spec": mechanism_spec("riemannian_laplace")})
    with pytest.raises(InvalidParameterError, match="already registered"):
        register_mechanism(duplicate)
    with pytest.raises(InvalidParameterError, match="notions"):
        MechanismSpec(name="x", title="x", color="#000000", notions=("dp",), card=Card(**CARDS["riemannian_laplace"]))


def test_kng_regression_is_a_mechanism_on_a_dataset():
    assert issubclass(KNGGeodesicRegression, DatasetMechanism) and not issubclass(KNGGeodesicRegression, Mechanism)
    assert not any(hasattr(KNGGeodesicRegression, m) for m in ("_calibrate", "_sample", "release"))
    assert "kng_regression" in CARDS and "kng_regression" not in MECHANISM_NAMES
    with pytest.raises(InvalidParameterError, match="name"):
        get_mechanism("kng_regression", get_manifold("sphere", 2))
