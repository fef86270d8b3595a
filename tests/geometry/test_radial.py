"""Tests of the exact radial laws (geodp_core.geometry.radial).

Statistical tests: one-sample Kolmogorov-Smirnov against the deterministic quadrature CDF,
fixed seeds, type-I error alpha = 1e-6 per test (reject iff p < 1e-6). The references
for the CDF itself are closed forms and mpmath quadrature at 30 digits.
"""

import math

import mpmath
import numpy as np
import pytest
from scipy import integrate, stats

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry.radial import (
    MIN_ACCEPTANCE,
    RadialLaw,
    get_radial_law,
    laplace_scale_limit,
    log_radial_jacobian,
    log_sinh,
    sample_radius,
)

ALPHA = 1e-6
SEED = 20261121

# (space, dim, profile, scale): d = 1, 2, 3, 5; small, moderate and large scales
KS_CASES = [
    ("sphere", 1, "laplace", 0.5),
    ("sphere", 1, "gaussian", 3.0),
    ("sphere", 2, "laplace", 0.3),
    ("sphere", 2, "gaussian", 0.05),
    ("sphere", 3, "gaussian", 0.4),
    ("sphere", 5, "laplace", 0.2),
    ("sphere", 2, "laplace", 50.0),  # large scale: uniform-on-[0, pi] envelope regime
    ("sphere", 3, "gaussian", 10.0),
    ("sphere", 5, "laplace", 1e-5),
    ("hyperbolic", 1, "laplace", 2.0),
    ("hyperbolic", 1, "gaussian", 0.7),
    ("hyperbolic", 2, "laplace", 0.5),
    ("hyperbolic", 3, "laplace", 0.45),  # close to the limit 1/(d-1) = 0.5
    ("hyperbolic", 5, "laplace", 0.1),
    ("hyperbolic", 2, "gaussian", 0.3),
    ("hyperbolic", 2, "gaussian", 2.0),
    ("hyperbolic", 5, "gaussian", 1.0),
    ("hyperbolic", 3, "gaussian", 30.0),
    ("euclidean", 1, "laplace", 0.3),
    ("euclidean", 3, "laplace", 1.0),
    ("euclidean", 2, "gaussian", 2.0),
    ("euclidean", 5, "gaussian", 0.1),
    ("sphere", 1, "uniform", 1.0),
    ("sphere", 2, "uniform", 2.0),
    ("sphere", 3, "uniform", 4.0),  # radius >= pi: the whole sphere
    ("sphere", 5, "uniform", 0.5),
    ("hyperbolic", 1, "uniform", 1.0),
    ("hyperbolic", 2, "uniform", 3.0),
    ("hyperbolic", 3, "uniform", 2.0),
    ("hyperbolic", 5, "uniform", 10.0),
    ("euclidean", 1, "uniform", 2.0),
    ("euclidean", 3, "uniform", 1.0),
    # the papers' high dimensions (the conformal paper's S^999, exponential-wrapped H^15 and beyond)
    ("sphere", 100, "laplace", 0.05),
    ("sphere", 1000, "laplace", 0.01),
    ("sphere", 1000, "gaussian", 0.03),
    ("hyperbolic", 1000, "laplace", 0.0005),
    ("hyperbolic", 1000, "gaussian", 0.01),
]


def _id(case):
    return "-".join(str(x) for x in case)


@pytest.mark.parametrize("case", KS_CASES, ids=_id)
def test_default_sampler_matches_quadrature_cdf(case):
    # KS, alpha = 1e-6. Power against: wrong volume factor J(r), wrong envelope ratio,
    # wrong truncation at pi, biased batch bookkeeping.
    law = RadialLaw(*case)
    x = law.sample(20_000, np.random.default_rng(SEED))
    assert x.shape == (20_000,)
    assert np.all((x >= 0) & (x <= law.upper))
    assert stats.kstest(x, law.cdf).pvalue > ALPHA


def _method_cases():
    out = []
    for case in KS_CASES:
        law = RadialLaw(*case)
        for method, rate in law.acceptance_rates().items():
            if method != law.default_method and rate >= 0.02:
                out.append((case, method))
    return out


@pytest.mark.parametrize("case,method", _method_cases(), ids=lambda v: v if isinstance(v, str) else _id(v))
def test_every_envelope_is_exact(case, method):
    # KS, alpha = 1e-6, 10^4 draws per non-default envelope (each one must be exact on its own).
    law = RadialLaw(*case)
    x = law.sample(10_000, np.random.default_rng(SEED + 1), method=method)
    assert stats.kstest(x, law.cdf).pvalue > ALPHA


@pytest.mark.parametrize("case", KS_CASES[:18], ids=_id)
def test_envelopes_dominate_target(case):
    # Deterministic consequence of a valid envelope: every acceptance probability is <= 1.
    law = RadialLaw(*case)
    rng = np.random.default_rng(SEED)
    for method in law.acceptance_rates():
        if method == "exact":
            continue
        _, log_acc = law._proposer(method)(5000, rng)
        assert np.max(log_acc) <= 1e-9, method


def test_negative_control_missing_volume_factor_is_rejected():
    # The KS test has power against the "missing sin^(d-1) factor" bug: radii drawn from
    # Gamma(d, s) truncated to [0, pi] (the Euclidean radial law) are rejected at alpha = 1e-6.
    law = RadialLaw("sphere", 3, "laplace", 0.5)
    rng = np.random.default_rng(SEED)
    g = rng.gamma(3, 0.5, 60_000)
    wrong = g[g <= np.pi][:20_000]
    assert stats.kstest(wrong, law.cdf).pvalue < ALPHA
    # ... and against dropping the sinh^(d-1) factor on H^2 (plain Exp(scale) radii).
    law_h = RadialLaw("hyperbolic", 2, "laplace", 0.5)
    wrong_h = rng.gamma(2, 0.5, 20_000)
    assert stats.kstest(wrong_h, law_h.cdf).pvalue < ALPHA
    # while the exact sampler passes with the same sample size
    assert stats.kstest(law.sample(20_000, rng), law.cdf).pvalue > ALPHA


def _mp_integrand(law):
    d, s = law.dim, mpmath.mpf(law.scale)

    def f(r):
        if law.profile == "laplace":
            g = mpmath.exp(-r / s)
        elif law.profile == "gaussian":
            g = mpmath.exp(-(r**2) / (2 * s**2))
        else:
            g = 1
        base = {"sphere": mpmath.sin, "hyperbolic": mpmath.sinh, "euclidean": lambda t: t}[law.space](r)
        return g * base ** (d - 1)

    return f


MP_CASES = [
    ("sphere", 3, "laplace", 0.3),
    ("sphere", 5, "gaussian", 2.0),
    ("sphere", 2, "laplace", 1e-4),
    ("sphere", 1, "gaussian", 0.5),
    ("hyperbolic", 3, "laplace", 0.45),
    ("hyperbolic", 4, "gaussian", 0.7),
    ("hyperbolic", 3, "uniform", 2.5),
    ("euclidean", 5, "gaussian", 0.1),
    ("sphere", 1000, "gaussian", 0.03),
    ("hyperbolic", 1000, "laplace", 0.0005),
]


@pytest.mark.parametrize("case", MP_CASES, ids=_id)
def test_normaliser_and_cdf_match_mpmath(case):
    mpmath.mp.dps = 30
    law = RadialLaw(*case)
    f = _mp_integrand(law)
    upper = law.upper if np.isfinite(law.upper) else mpmath.inf
    pts = [0] + ([law.mode] if 0 < law.mode < law.upper else [])
    if law.dim >= 100:  # a sharp peak (width ~ mode/sqrt(d)): tanh-sinh needs breakpoints across it
        width = 0.02 * law.mode
        pts = [0] + [law.mode + k * width for k in range(-40, 41) if 0 < law.mode + k * width < law.upper]
    z = mpmath.quad(f, pts + [upper])
    assert law.log_normaliser() == pytest.approx(float(mpmath.log(z)), abs=1e-12)
    t = np.array([0.3, 1.0, 2.5]) * law.mode + 1e-3 * law.scale
    t = np.minimum(t, law.upper)
    ref = [float(mpmath.quad(f, [q for q in pts if q < x] + [x]) / z) for x in t]
    np.testing.assert_allclose(law.cdf(t), ref, rtol=0, atol=1e-12)


def test_normaliser_closed_forms():
    s = 0.7
    assert RadialLaw("euclidean", 4, "laplace", s).log_normaliser() == pytest.approx(
        math.lgamma(4) + 4 * math.log(s), rel=1e-13
    )
    assert RadialLaw("euclidean", 3, "gaussian", s).log_normaliser() == pytest.approx(
        0.5 * math.log(2) + math.lgamma(1.5) + 3 * math.log(s), rel=1e-13
    )
    # int_0^pi e^{-r/s} sin r dr = (1 + e^{-pi/s}) / (1 + 1/s^2)
    ref = math.log((1 + math.exp(-math.pi / s)) / (1 + 1 / s**2))
    assert RadialLaw("sphere", 2, "laplace", s).log_normaliser() == pytest.approx(ref, rel=1e-13)
    # int_0^inf e^{-r/s} sinh r dr = s^2 / (1 - s^2)  (s < 1)
    assert RadialLaw("hyperbolic", 2, "laplace", s).log_normaliser() == pytest.approx(
        math.log(s * s / (1 - s * s)), rel=1e-12
    )
    R = 1.3
    assert RadialLaw("sphere", 2, "uniform", R).log_normaliser() == pytest.approx(math.log(1 - math.cos(R)), rel=1e-13)
    assert RadialLaw("sphere", 3, "uniform", R).log_normaliser() == pytest.approx(
        math.log(R / 2 - math.sin(2 * R) / 4), rel=1e-13
    )
    assert RadialLaw("hyperbolic", 2, "uniform", R).log_normaliser() == pytest.approx(
        math.log(math.cosh(R) - 1), rel=1e-13
    )
    # circle: Laplace radius is an exponential truncated to [0, pi]
    law = RadialLaw("sphere", 1, "laplace", s)
    t = np.linspace(0, np.pi, 7)
    np.testing.assert_allclose(law.cdf(t), (1 - np.exp(-t / s)) / (1 - np.exp(-np.pi / s)), atol=1e-14)


@pytest.mark.parametrize("case", [KS_CASES[i] for i in (0, 4, 7, 12, 17, 21, 24, 29)], ids=_id)
def test_cdf_is_monotone_from_0_to_1_and_pdf_integrates_to_1(case):
    law = RadialLaw(*case)
    end = law.upper if np.isfinite(law.upper) else law._law.right * 1.5
    grid = np.linspace(0, end, 2001)
    cdf = law.cdf(grid)
    assert cdf[0] == 0.0
    assert cdf[-1] == pytest.approx(1.0, abs=1e-13)
    assert np.all(np.diff(cdf) >= -1e-15)
    assert law.cdf(np.array([-1.0]))[0] == 0.0
    assert law.cdf(np.array([1e6]))[0] == 1.0
    pts = [law.mode] if 0 < law.mode < end else None
    total, _ = integrate.quad(law.pdf, 0, end, points=pts, limit=200, epsabs=1e-13)
    assert total == pytest.approx(1.0, abs=1e-9)


def test_circle_d1_support_and_density():
    law = RadialLaw("sphere", 1, "gaussian", 2.0)
    assert law.support == (0.0, math.pi)
    r = np.array([0.0, 1.0, 3.0])
    np.testing.assert_allclose(law.log_unnormalised_density(r), -(r**2) / 8)
    assert law.pdf(np.array([3.2]))[0] == 0.0
    np.testing.assert_allclose(log_radial_jacobian("sphere", 1, r), 0.0)


def test_hyperbolic_laplace_not_normalisable_raises():
    assert laplace_scale_limit("hyperbolic", 3) == 0.5
    assert laplace_scale_limit("hyperbolic", 1) == math.inf
    assert laplace_scale_limit("sphere", 3) == math.inf
    for scale in (0.5, 0.8):
        with pytest.raises(UnavailableError, match=r"1/\(dim-1\) = 0\.5.*not normalisable") as info:
            RadialLaw("hyperbolic", 3, "laplace", scale)
        assert info.value.param == "scale"
        assert isinstance(info.value, ValueError)
    RadialLaw("hyperbolic", 3, "laplace", 0.499)  # just inside the limit: fine


def test_hopeless_envelope_raises_instead_of_spinning():
    law = RadialLaw("hyperbolic", 3, "laplace", 0.499)
    rates = law.acceptance_rates()
    assert rates["gamma_tilted"] < MIN_ACCEPTANCE
    assert rates[law.default_method] > 0.5
    with pytest.raises(UnavailableError, match=r"scale is too close to the normalisability limit"):
        law.sample(10, np.random.default_rng(0), method="gamma_tilted")
    assert law.sample(10, np.random.default_rng(0)).shape == (10,)


def test_acceptance_rates_match_empirical_rates():
    # The exact rate Z/Z_env equals the mean acceptance probability of the proposals.
    # Binomial-free check: mean of exp(log_acc) over 2e5 proposals, 6 standard errors.
    law = RadialLaw("sphere", 3, "laplace", 0.6)
    rng = np.random.default_rng(SEED)
    for method, rate in law.acceptance_rates().items():
        p = np.exp(np.minimum(law._proposer(method)(200_000, rng)[1], 0))
        assert abs(p.mean() - rate) < 6 * p.std() / math.sqrt(p.size) + 1e-12, method


def test_sample_size_reproducibility_and_validation():
    law = get_radial_law("sphere", 2, "gaussian", 0.3)
    assert get_radial_law("sphere", 2, "gaussian", 0.3) is law
    a = law.sample(1234, np.random.default_rng(5))
    b = law.sample(1234, 5)
    np.testing.assert_array_equal(a, b)
    assert law.sample(0, np.random.default_rng(0)).shape == (0,)
    assert law.sample(1, np.random.default_rng(0)).shape == (1,)
    assert sample_radius("euclidean", 2, "laplace", 1.0, 7, np.random.default_rng(0)).shape == (7,)
    with pytest.raises(InvalidParameterError, match="rng"):
        law.sample(3, None)
    with pytest.raises(InvalidParameterError, match="size"):
        law.sample(-1, np.random.default_rng(0))
    with pytest.raises(InvalidParameterError, match="method"):
        law.sample(3, np.random.default_rng(0), method="gamma_tilted")
    bad = [
        (("torus", 2, "laplace", 1.0), "space"),
        (("sphere", 0, "laplace", 1.0), "dim"),
        (("sphere", True, "laplace", 1.0), "dim"),
        (("sphere", 2.0, "laplace", 1.0), "dim"),
        (("sphere", 2, "cauchy", 1.0), "profile"),
        (("sphere", 2, "laplace", 0.0), "scale"),
        (("sphere", 2, "laplace", float("nan")), "scale"),
        (("sphere", 2, "laplace", float("inf")), "scale"),
        (("sphere", 2, "laplace", True), "scale"),
        (("sphere", 2, "laplace", 1e9), "scale"),
    ]
    for args, name in bad:
        with pytest.raises(InvalidParameterError, match=name) as info:
            RadialLaw(*args)
        assert info.value.param == name
        with pytest.raises(InvalidParameterError, match=name):
            get_radial_law(*args)
    with pytest.raises(InvalidParameterError, match="radius"):
        law.cdf([0.1, float("nan")])
    with pytest.raises(InvalidParameterError, match="space"):
        log_radial_jacobian("plane", 2, [0.1])


def test_log_sinh_is_stable():
    x = np.array([0.0, 1e-300, 1e-8, 1.0, 50.0, 800.0])
    with np.errstate(divide="ignore"):
        ref = [-np.inf, math.log(1e-300), math.log(math.sinh(1e-8)), math.log(math.sinh(1.0)),
               math.log(math.sinh(50.0)), 800.0 - math.log(2.0)]
    np.testing.assert_allclose(log_sinh(x), ref, rtol=1e-14)


def test_hull_envelope_is_above_log_density():
    # Validity of the tangent hull on a dense grid (concavity of log(gJ)).
    for case in [("sphere", 4, "gaussian", 0.8), ("hyperbolic", 3, "laplace", 0.45), ("hyperbolic", 5, "uniform", 3.0)]:
        law = RadialLaw(*case)
        eng = law._law
        r = np.linspace(0, min(law.upper, eng.right * 1.2), 20_001)[1:]
        tangents = eng._hull_c[None, :] + eng._hull_b[None, :] * (r[:, None] - eng._hull_x[None, :])
        hull = tangents.min(axis=1)
        assert np.all(law.log_unnormalised_density(r) <= hull + 1e-9)


# ------------------------------------------------------------------ quantile function (quantile coupling)
@pytest.mark.parametrize("space, dim, profile, scale", [
    ("sphere", 2, "laplace", 0.3), ("sphere", 1, "gaussian", 2.0), ("hyperbolic", 3, "gaussian", 0.7),
    ("hyperbolic", 2, "laplace", 0.4), ("euclidean", 3, "laplace", 2.0), ("kendall", 20, "laplace", 0.05),
    ("sphere", 2, "uniform", 0.5), ("sphere", 50, "gaussian", 0.01),
])
def test_ppf_inverts_the_cdf_and_gives_exact_draws(space, dim, profile, scale):
    """F(F⁻¹(u)) = u to 1e-12, and F⁻¹(U) of uniforms follows the law (KS, alpha = 1e-6)."""
    law = get_radial_law(space, dim, profile, scale)
    u = np.random.default_rng(SEED).random(4000)
    radii = law.ppf(u)
    np.testing.assert_allclose(law.cdf(radii), u, atol=1e-12)
    assert np.all(np.diff(radii[np.argsort(u)]) >= 0)
    assert stats.kstest(radii, law.cdf).pvalue > ALPHA
    assert law.ppf(np.array([0.0]))[0] == 0.0


def test_ppf_couples_budgets_monotonically():
    """Quantile coupling: with the same uniforms, every radius shrinks as the Laplace scale shrinks (the radial
    laws are ordered by likelihood ratio, e^{-r/s₁ + r/s₂} decreasing in r for s₁ < s₂)."""
    u = np.random.default_rng(SEED + 1).random(2000)
    radii = [get_radial_law("sphere", 2, "laplace", s).ppf(u) for s in (0.05, 0.1, 0.3, 1.0, 3.0)]
    for small, large in zip(radii, radii[1:]):
        assert np.all(small <= large + 1e-12)


def test_ppf_rejects_values_outside_the_unit_interval():
    with pytest.raises(InvalidParameterError, match="quantile"):
        get_radial_law("sphere", 2, "laplace", 0.3).ppf(np.array([0.5, 1.5]))
