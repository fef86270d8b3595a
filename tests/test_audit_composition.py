"""Audit of composed releases: a correctly composed claim is never refuted; composition counted as the maximum
(one release's ε for k releases) is refuted. Level alpha = 0.05 per audit (a refutation of a correct claim would be
a 5% event per run; the fixed seeds below never give one), evaluated on independent halves."""

import pytest

from geodp_core.audit import audit_composition
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.privacy import GDP, PureDP

SPACES = [("sphere", 2), ("hyperbolic", 2), ("euclidean", 2), ("so3", 3)]
MECHANISMS = [("riemannian_laplace", PureDP(0.5)), ("riemannian_gaussian", GDP(0.5))]


@pytest.mark.parametrize("space, dim", SPACES)
@pytest.mark.parametrize("mechanism, target", MECHANISMS)
@pytest.mark.parametrize("k", [1, 10])
def test_a_tightly_composed_claim_is_never_refuted(space, dim, mechanism, target, k):
    result = audit_composition(mechanism, get_manifold(space, dim), target, k, "tight", n_observations=1000, seed=3)
    assert not result.claim_refuted, result.summary()
    assert result.claimed_eps > 0 and 0 <= result.eps_lower_bound


@pytest.mark.parametrize("space, dim", [("hyperbolic", 2), ("euclidean", 2)])
@pytest.mark.parametrize("mechanism, target, k", [("riemannian_laplace", PureDP(0.5), 10),
                                                  ("riemannian_gaussian", GDP(0.5), 40)])
@pytest.mark.parametrize("seed", [0, 1])
def test_composition_counted_as_the_maximum_is_refuted(space, dim, mechanism, target, k, seed):
    """Power: k releases reveal about √k (Gaussian) or k (Laplace, in the tails) times one release's loss."""
    result = audit_composition(mechanism, get_manifold(space, dim), target, k, "maximum", n_observations=2000,
                               seed=seed)
    assert result.claim_refuted, result.summary()
    tight = audit_composition(mechanism, get_manifold(space, dim), target, k, "tight", n_observations=2000, seed=seed)
    assert not tight.claim_refuted and tight.claimed_eps > result.claimed_eps


@pytest.mark.parametrize("kwargs, param", [({"k": 0}, "k"), ({"k": 201}, "k"), ({"accounting": "sum"}, "accounting"),
                                           ({"k": 100, "n_observations": 5000}, "n_observations")])
def test_bad_arguments_name_the_parameter(kwargs, param):
    args = {"k": 2, **kwargs}
    with pytest.raises(InvalidParameterError) as info:
        audit_composition("riemannian_laplace", get_manifold("sphere", 2), PureDP(1.0), **args)
    assert info.value.param == param
