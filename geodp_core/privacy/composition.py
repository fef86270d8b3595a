"""Composition of guarantees of the same notion (docs/specification.md §4.4)."""

import math

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy.guarantees import GDP, RDP, ZCDP, ApproxDP, Guarantee, PureDP

__all__ = ["compose"]


def compose(guarantees):
    """Guarantee of the adaptive composition of mechanisms with the given guarantees.

    All guarantees must share one notion:

    .. math::
        \\textstyle
        \\varepsilon\\text{-DP}: \\sum_i \\varepsilon_i;\\quad
        (\\varepsilon,\\delta)\\text{-DP (basic)}: (\\sum_i \\varepsilon_i, \\sum_i \\delta_i);\\quad
        \\mu\\text{-GDP}: \\sqrt{\\sum_i \\mu_i^2};\\quad
        (\\alpha,\\varepsilon)\\text{-RDP}: (\\alpha, \\sum_i \\varepsilon_i);\\quad
        \\rho\\text{-zCDP}: \\sum_i \\rho_i .

    Sources: Dwork & Roth 2014 Thm. 3.16 (basic); Dong, Roth & Su 2022 Cor. 3.3
    (GDP); Mironov 2017 Prop. 1 (RDP, same order); Bun & Steinke 2016 Lemma 2.3 (zCDP).

    Parameters
    ----------
    guarantees : sequence of Guarantee
        At least one guarantee, all of the same notion (RDP: same ``alpha``).

    Returns
    -------
    Guarantee

    Raises
    ------
    InvalidParameterError
        Empty input, non-guarantee items, mixed notions, RDP at different
        orders, or composed ``delta >= 1`` (vacuous).
    """
    if isinstance(guarantees, Guarantee) or not hasattr(guarantees, "__iter__"):
        raise InvalidParameterError(
            f"guarantees must be a sequence of guarantee objects; got {type(guarantees).__name__}",
            param="guarantees",
        )
    items = list(guarantees)
    if not items:
        raise InvalidParameterError("guarantees must contain at least one guarantee; got an empty sequence",
                                    param="guarantees")
    for i, g in enumerate(items):
        if not isinstance(g, Guarantee):
            raise InvalidParameterError(
                f"guarantees[{i}] must be a PureDP, ApproxDP, GDP, RDP or ZCDP; got {type(g).__name__}",
                param="guarantees",
            )
    kinds = {type(g) for g in items}
    if len(kinds) > 1:
        names = ", ".join(sorted(g.describe() for g in items))
        raise InvalidParameterError(
            "guarantees must all have the same notion to be composed; got "
            f"{names}. Convert them to one notion first (e.g. with the budget helpers): "
            "mixed-notion composition is not defined here",
            param="guarantees",
        )
    kind = kinds.pop()

    def total(values, what):
        try:
            value = math.fsum(values)
        except OverflowError:  # fsum raises on an intermediate overflow
            value = math.inf
        if not math.isfinite(value):
            raise InvalidParameterError(
                f"the composed {what} (the sum over guarantees) exceeds the double-precision range (1.8e308); "
                f"each {what} and their sum must be finite", param="guarantees")
        return value

    if kind is PureDP:
        return PureDP(total((g.eps for g in items), "eps"))
    if kind is ApproxDP:
        delta = total((g.delta for g in items), "delta")
        if delta >= 1.0:
            raise InvalidParameterError(
                f"the composed delta must be in (0, 1); got {delta!r} (sum of the deltas), "
                "which is a vacuous guarantee",
                param="guarantees",
            )
        return ApproxDP(total((g.eps for g in items), "eps"), delta)
    if kind is GDP:
        scale = max(g.mu for g in items)  # sqrt(sum mu_i^2) = m sqrt(sum (mu_i/m)^2): no overflow of the squares
        return GDP(scale * math.sqrt(total(((g.mu / scale) ** 2 for g in items), "mu")) if scale > 0 else 0.0)
    if kind is RDP:
        alphas = sorted({g.alpha for g in items})
        if len(alphas) > 1:
            raise InvalidParameterError(
                f"RDP guarantees compose only at the same order alpha; got alphas {alphas}",
                param="guarantees",
            )
        return RDP(alphas[0], total((g.eps for g in items), "eps"))
    return ZCDP(total((g.rho for g in items), "rho"))
