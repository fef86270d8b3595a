r"""Teaching cards: one plain-text card per mechanism, and a glossary (no Streamlit).

Each mechanism declares its card beside its code (``spec.card``, a
:class:`~geodp_core.mechanisms.registry.Card`); this module reads them from the registry. The Learn page
renders them; a notebook can print them. Every card has the keys of :data:`CARD_FIELDS`: ``title``, ``idea``,
``formula`` (LaTeX for ``st.latex`` / MathJax), ``guarantee``, ``assumptions``, ``sampler``, ``source`` and
``notion``. The statements follow docs/specification.md §4, §5 and §8, including where this project deliberately
departs from a paper to keep the guarantee honest.
"""

from collections.abc import Mapping
from dataclasses import asdict, fields

from geodp_core.mechanisms.registry import Card, mechanism_specs

__all__ = ["CARD_FIELDS", "CARDS", "CARD_ORDER", "GLOSSARY"]

CARD_FIELDS = tuple(f.name for f in fields(Card))


class _Cards(Mapping):
    """``{name: card as a dict}`` of every registered mechanism, read live from the registry."""

    def __getitem__(self, name):
        return asdict(mechanism_specs()[name].card)

    def __iter__(self):
        return iter(tuple(mechanism_specs()))

    def __len__(self):
        return len(mechanism_specs())


#: Every mechanism's card, by registry name (a live view: a newly registered mechanism's card appears).
CARDS = _Cards()


class _CardOrder:
    """Display order of the cards: the registry's order (summary mechanisms, then those on a dataset)."""

    def __iter__(self):
        return iter(tuple(mechanism_specs()))

    def __len__(self):
        return len(mechanism_specs())

    def __contains__(self, name):
        return name in mechanism_specs()

    def __getitem__(self, index):
        return tuple(mechanism_specs())[index]


CARD_ORDER = _CardOrder()

GLOSSARY = {
    "Fréchet mean": (
        "The point minimising the sum of squared geodesic distances to the data, argmin_y Σ dist(y, x_i)². It is "
        "the summary every mechanism privatises; unique when the data lie in a ball of radius r < r*."
    ),
    "Sensitivity Δ": (
        "The largest change of the summary, in geodesic distance, when one record is replaced. For the Fréchet "
        "mean of data in a PUBLIC ball B(m₀, r): Δ = 2r(2-h)/(nh), h = 2r√κ cot(2r√κ) (h = 1 when κ ≤ 0). It "
        "shrinks like 1/n and grows with the curvature."
    ),
    "Public ball B(m₀, r)": (
        "A ball chosen WITHOUT looking at the data; the data are assumed (or clipped) inside. Its centre and "
        "radius are public inputs — computing them from the data would leak."
    ),
    "Hadamard manifold": (
        "Complete, simply connected, curvature ≤ 0 (ℝᵈ, Hᵈ, SPD matrices). Exp at any point is a global "
        "diffeomorphism and Log is 1-Lipschitz, which the exponential-wrapped and Langevin mechanisms need."
    ),
    "Injectivity radius": (
        "The largest r such that Exp is a diffeomorphism on every tangent ball of radius r: π on the unit sphere, "
        "∞ on Hadamard spaces. Beyond it geodesics stop being unique (the noise 'wraps around')."
    ),
    "Ricci lower bound K": (
        "Ric ≥ -K: K = -(d-1) on Sᵈ, d-1 on Hᵈ, 0 on flat spaces. It drives the heat-diffusion mechanisms; K > 0 "
        "(negative curvature) creates Brownian motion's privacy floor."
    ),
    "ε-DP": "Pr[M(D) ∈ S] ≤ e^ε Pr[M(D') ∈ S] for all neighbours D ~ D' and all events S (pure DP).",
    "(ε, δ)-DP": "Pr[M(D) ∈ S] ≤ e^ε Pr[M(D') ∈ S] + δ: pure DP except on an event of probability at most δ.",
    "GDP": (
        "μ-Gaussian DP: telling D from D' is at least as hard as telling N(0,1) from N(μ,1). Equivalent to "
        "(ε, δ_μ(ε))-DP for every ε, δ_μ(ε) = Φ(-ε/μ+μ/2) - e^ε Φ(-ε/μ-μ/2). Composition: μ's add in quadrature."
    ),
    "RDP": (
        "(α, ε)-Rényi DP: the Rényi divergence of order α between M(D) and M(D') is at most ε. Adds under "
        "composition at the same α; converts to (ε', δ)-DP. A single order implies no GDP."
    ),
    "zCDP": "ρ-zero-concentrated DP: (α, ρα)-RDP for every α > 1. μ-GDP implies (μ²/2)-zCDP, not conversely.",
    "Privacy profile": "δ(ε): the smallest δ with (ε, δ)-DP, for every ε. A lower curve is a stronger guarantee.",
    "Trade-off curve": (
        "The smallest type-II error of any test between M(D) and M(D') at type-I error α. GDP's is "
        "Φ(Φ⁻¹(1-α) - μ); a higher curve is more private."
    ),
    "ONE target guarantee": (
        "A comparison calibrates every mechanism to the same stated guarantee, natively or through a valid "
        "conversion; where no valid conversion exists the mechanism is shown unavailable with the reason."
    ),
    "Honesty labels": (
        "Every result carries one: exact guarantee; guarantee under an approximate sampler (MCMC, discretised "
        "diffusion — the approximation is stated); no formal guarantee (a paper baseline); unavailable "
        "(not Hadamard, below the privacy floor, not normalisable, …, with the reason)."
    ),
}

