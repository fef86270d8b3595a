r"""Teaching cards: one plain-text card per mechanism, and a glossary (no Streamlit).

The Learn page renders these; a notebook can print them. Every card has the keys of
:data:`CARD_FIELDS`: ``title``, ``idea``, ``formula`` (LaTeX for ``st.latex`` /
MathJax), ``guarantee``, ``assumptions``, ``sampler``, ``source`` and ``notion``.
The statements follow docs/specification.md §4, §5 and §8, including where this
project deliberately departs from a paper to keep the guarantee honest.
"""

__all__ = ["CARD_FIELDS", "CARDS", "CARD_ORDER", "GLOSSARY", "get_card"]

CARD_FIELDS = ("title", "notion", "idea", "formula", "guarantee", "assumptions", "sampler", "source")

CARDS = {
    "riemannian_laplace": dict(
        title="Riemannian Laplace (RL)",
        notion="ε-DP",
        idea=(
            "Replace the absolute difference of the Euclidean Laplace mechanism by the geodesic distance: the "
            "release is drawn from a density that decays exponentially with the distance to the private Fréchet "
            "mean. The triangle inequality bounds the privacy loss by Δ/σ."
        ),
        formula=(
            r"\begin{gathered}p_\eta(y) \propto \exp\!\Big(-\frac{\mathrm{dist}(\eta, y)}{\sigma}\Big) \\ "
            r"\sigma = \frac{\Delta}{\varepsilon}\ \text{(homogeneous spaces)},\quad \frac{2\Delta}{\varepsilon}\ "
            r"\text{otherwise}\end{gathered}"
        ),
        guarantee=(
            "ε-DP, exact. Other targets through valid conversions of ε-DP: (ε, δ)-DP trivially, μ-GDP with "
            "μ = -2Φ⁻¹(1/(1+e^ε)), RDP by the randomized-response curve, zCDP with ρ = ε²/2."
        ),
        assumptions=(
            "Data in a PUBLIC geodesic ball B(m₀, r) with r < r* (π/4 on the unit sphere, ∞ on Hadamard spaces), "
            "so that the Fréchet mean is unique and Δ = 2r(2-h)/(nh) holds. The law must be normalisable: on Hᵈ "
            "only for σ < 1/(d-1), i.e. ε > (d-1)Δ; on affine-invariant SPD(m) only for σ below a constant — "
            "below these budgets the mechanism is shown as unavailable."
        ),
        sampler=(
            "Exact, no MCMC: radius from the radial law ∝ exp(−r/σ) J(r) by rejection (sphere: Gamma(d, σ) "
            "proposal accepted with prob. (sin r / r)ᵈ⁻¹; Hᵈ: Gamma with rate 1/σ − (d−1)), direction uniform in "
            "the tangent space at η, release Exp_η(r u). SPD affine: polar coordinates (Said et al. 2017). A Riemannian "
            "Metropolis–Hastings sampler is available as the labelled 'approximate sampler' baseline."
        ),
        source="Reimherr, Bharath & Soto (2021), Differential privacy over Riemannian manifolds, NeurIPS.",
    ),
    "riemannian_gaussian": dict(
        title="Riemannian Gaussian (RG)",
        notion="μ-GDP",
        idea=(
            "A Gaussian in the geodesic distance. Its privacy is measured by the whole privacy profile δ(ε); on "
            "spaces of constant curvature one pair of neighbouring means at distance Δ determines it, and μ is "
            "the smallest value whose Gaussian profile δ_μ dominates it."
        ),
        formula=(
            r"\begin{gathered}p_\eta(y) \propto \exp\!\Big(-\frac{\mathrm{dist}(\eta, y)^2}{2\sigma^2}\Big) \\ "
            r"\delta(\varepsilon) = \int_A p_{\eta_1} - e^{\varepsilon}\!\int_A p_{\eta_2} \le \delta_\mu(\varepsilon)"
            r"\ \ \forall \varepsilon \ge 0\end{gathered}"
        ),
        guarantee=(
            "μ-GDP, exact on Sᵈ, Hᵈ, ℝᵈ (μ(σ, Δ) computed by deterministic quadrature in geodesic polar "
            "coordinates — not the paper's Monte Carlo — and σ found by a monotone root search, verified on the "
            "safe side) and on the flat SPD metrics (μ = Δ/σ). (ε, δ), RDP and zCDP targets through GDP "
            "conversions; a pure ε-DP target is unavailable (unbounded privacy loss). On affine-invariant SPD "
            "no exact accounting is known: labelled 'no formal guarantee'."
        ),
        assumptions=(
            "A homogeneous space (the normaliser does not depend on η) and the public ball of the Fréchet-mean "
            "sensitivity. On Hᵈ, μ(σ) does not tend to 0 as σ grows: very small μ targets are unreachable."
        ),
        sampler="Exact: radial law ∝ exp(−r²/(2σ²)) J(r) by rejection, uniform direction, Exp_η (as RL).",
        source=("Jiang, Chang, Liu, Ding, Kong & Jiang (2023), Gaussian differential privacy on Riemannian "
                "manifolds, NeurIPS."),
    ),
    "tangent_gaussian": dict(
        title="Tangent Gaussian (TG)",
        notion="(ε, δ)-DP / μ-GDP",
        idea=(
            "On SPD matrices with the log-Euclidean metric the matrix logarithm is an isometry onto a Euclidean "
            "space: add ordinary Gaussian noise to log η (isometric vectorisation, off-diagonals × √2) and map "
            "back with exp."
        ),
        formula=(
            r"\begin{gathered}\tilde\eta = \exp\big(\log \eta + Z\big),\quad Z \sim N(0, \sigma^2 I_d) \\ "
            r"\sigma = \Delta/\mu\ \ \text{or the analytic } (\varepsilon,\delta) \text{ calibration}\end{gathered}"
        ),
        guarantee=(
            "Exact on flat spaces (SPD log-Euclidean, log-Cholesky, ℝᵈ): it is the Euclidean Gaussian mechanism. "
            "(ε, δ) by the analytic calibration of Balle & Wang (2018); the paper's classical "
            "Δ√(2 ln(1.25/δ))/ε only as its baseline (valid for ε < 1). On the sphere, Hᵈ and affine SPD it is the "
            "conformal paper's baseline at the data-dependent mean: 'no formal guarantee'."
        ),
        assumptions="A flat metric for the guarantee; the sensitivity in the Riemannian distance (= L2 in the chart).",
        sampler="Exact: Gaussian coordinates in an orthonormal frame, pushed by Exp_η.",
        source=("Utpala, Vepakomma & Miolane (2023), Differentially private Fréchet mean on the manifold of SPD "
                "matrices with log-Euclidean metric, TMLR."),
    ),
    "ew_laplace": dict(
        title="Exponential-wrapped Laplace (EWL)",
        notion="ε-DP",
        idea=(
            "Move the problem to ONE fixed tangent space: take Log at a PUBLIC footpoint p₀, add Euclidean K-norm "
            "Laplace noise there, and wrap back with Exp. On a Hadamard space Log at p₀ is 1-Lipschitz, so the "
            "tangent summary has sensitivity at most Δ and the release is post-processing."
        ),
        formula=(
            r"\begin{gathered}\tilde\eta = \mathrm{Exp}_{p_0}\big(\mathrm{Log}_{p_0}\eta + z\big),\quad "
            r"p(z) \propto e^{-|z|/\sigma},\quad \sigma = \Delta/\varepsilon \\ "
            r"\mathbb{E}\,\mathrm{dist} \le \sigma d + 2\,\mathrm{dist}(p_0, \eta)\end{gathered}"
        ),
        guarantee=("ε-DP, exact. Optional two-stage footpoint: spend ε₀ on a coarse private mean used as p₀ and "
                   "compose."),
        assumptions=(
            "Hadamard space only (complete, simply connected, curvature ≤ 0): Hᵈ, SPD (all three metrics), ℝᵈ. "
            "Unavailable on the sphere (Exp is not injective). The footpoint must never be computed from the data."
        ),
        sampler="Exact: radius Gamma(d, σ), uniform direction in the tangent space at p₀, then Exp at p₀. No MCMC.",
        source="Exponential-wrapped mechanisms: differential privacy on Hadamard manifolds made practical (ICLR 2026).",
    ),
    "ew_gaussian": dict(
        title="Exponential-wrapped Gaussian (EWG)",
        notion="μ-GDP / (ε, δ) / RDP / zCDP",
        idea="As EWL with Gaussian noise in the tangent space at p₀: the Euclidean Gaussian mechanism, wrapped by Exp at p₀.",
        formula=(
            r"\begin{gathered}\tilde\eta = \mathrm{Exp}_{p_0}\big(\mathrm{Log}_{p_0}\eta + z\big),\quad "
            r"z \sim N(0, \sigma^2 I_d) \\ "
            r"\mu = \Delta/\sigma,\quad \varepsilon_{\mathrm{RDP}}(\alpha) = \frac{\alpha\Delta^2}{2\sigma^2}\end{gathered}"
        ),
        guarantee=(
            "Exactly (Δ/σ)-GDP, hence the analytic (ε, δ) calibration, (α, αΔ²/(2σ²))-RDP and Δ²/(2σ²)-zCDP. "
            "Utility: E dist ≤ σ√2 Γ((d+1)/2)/Γ(d/2) + 2 dist(p₀, η)."
        ),
        assumptions="Hadamard space only; PUBLIC footpoint (default: the public ball centre).",
        sampler="Exact: Gaussian coordinates in an orthonormal frame of the tangent space at p₀, then Exp at p₀.",
        source="Exponential-wrapped mechanisms: differential privacy on Hadamard manifolds made practical (ICLR 2026).",
    ),
    "brownian_motion": dict(
        title="Brownian motion (heat diffusion, BM)",
        notion="(α, ε)-RDP = ρ-zCDP",
        idea=(
            "Release the position of a Brownian motion started at the private mean and run for time t. The Ricci "
            "curvature lower bound Ric ≥ -K controls how fast two heat kernels started Δ apart merge."
        ),
        formula=(
            r"\begin{gathered}\varepsilon(\alpha) = \frac{K\alpha\Delta^2}{2(1 - e^{-2Kt})}\ \ "
            r"\Big(K = 0:\ \frac{\alpha\Delta^2}{4t}\Big) \\ "
            r"t = \frac{\log(2\varepsilon) - \log(2\varepsilon - K\alpha\Delta^2)}{2K}\end{gathered}"
        ),
        guarantee=(
            "(α, ε)-RDP for every α with ε linear in α, i.e. ρ-zCDP with ρ = KΔ²/(2(1 − exp(−2Kt))); (ε, δ) by the "
            "zCDP conversion. GDP and pure-DP targets are unavailable. With K > 0 (negative curvature) there is a "
            "privacy floor ε > KαΔ²/2: below it BM cannot reach the target (use Langevin). Utility: "
            "E dist ≤ √(2dt) when Ric ≥ 0."
        ),
        assumptions="Ric ≥ -K with K the manifold's Ricci constant; the Fréchet-mean sensitivity Δ.",
        sampler=(
            "Exact on every sphere Sᵈ: for small t by rejection against the flat Brownian radius with the sphere's "
            "exact correction weight (simulated along the path), otherwise by inverse CDF of the heat-kernel "
            "Legendre / Gegenbauer series with a certified truncation bound (on S³ also the closed-form image "
            "sum); exact at every t for 3 ≤ d ≤ 32, and on S² for t ≳ 4·10⁻⁹. On H³ from the closed-form heat kernel (the radius is the length "
            "of a Gaussian vector N((2t, 0, 0), 2t I₃)), and on flat spaces N(η, 2tI) in the chart. Elsewhere — "
            "Hᵈ with d ≠ 3, SPD affine, and on Sᵈ with d ≥ 33 a band of diffusion times between the two exact "
            "samplers (e.g. t ≈ 0.004–0.008 on S¹⁰⁰) — the geodesic random walk of the paper's Algorithm 1, "
            "labelled 'approximate sampler' (step count shown)."
        ),
        source=("Chang, Jiang, Mostajeran & Hu (2026), Geometric Rényi differential privacy: Ricci curvature "
                "characterized by heat diffusion mechanisms, arXiv:2604.20761."),
    ),
    "langevin": dict(
        title="Langevin diffusion",
        notion="(α, ε)-RDP = ρ-zCDP",
        idea=(
            "Add a pull towards a PUBLIC anchor o with the potential V = λ dist(o, ·)²/2. With λ > K the diffusion "
            "contracts, so its privacy budget decays to 0 — no privacy floor, even in negative curvature."
        ),
        formula=(
            r"\begin{gathered}dX_t = \lambda\,\mathrm{Log}_{X_t}(o)\,dt + \sqrt2\,dW_t \\ "
            r"t = \frac{\log\big(1 + (\lambda - K)\alpha\Delta^2/(2\varepsilon)\big)}{2(\lambda - K)}\end{gathered}"
        ),
        guarantee=(
            "ρ-zCDP with ρ = (λ−K)Δ²/(2(exp(2(λ−K)t) − 1)), so (α, ρα)-RDP for every α and (ε, δ) by conversion. "
            "Utility: E dist ≤ √(2d/λ + (dist(o, a) + √((d−1)K)/λ)²) · √(1 − exp(−λt))."
        ),
        assumptions="Hadamard manifold only (unavailable on the sphere); λ > K; the anchor is public, never from data.",
        sampler=(
            "Exact Ornstein–Uhlenbeck law on flat spaces; elsewhere geodesic Euler–Maruyama (paper Algorithm 2), "
            "labelled 'approximate sampler'."
        ),
        source=("Chang, Jiang, Mostajeran & Hu (2026), Geometric Rényi differential privacy: Ricci curvature "
                "characterized by heat diffusion mechanisms, arXiv:2604.20761."),
    ),
    "conformal": dict(
        title="Density-aware conformal mechanism",
        notion="(ε_φ + ε_conf)-DP",
        idea=(
            "Spend part of the budget on a private density estimate, turn it into a conformal factor φ = exp(2s) "
            "(solve a Helmholtz equation), and release a Laplace-type point in the conformal metric: less noise "
            "where the data are dense."
        ),
        formula=(
            r"\begin{gathered}(-\Delta_g + \upsilon)\,s = \tilde c - \tilde f,\quad \phi = e^{2s} \\ "
            r"p(z) \propto \exp\!\big(-\lambda^* \rho^*(\eta, z)\big)\,d\mu^*,\quad "
            r"\lambda^* = \frac{\varepsilon_{\mathrm{conf}}}{2\sqrt{\phi_{\max}}\,\Delta}\end{gathered}"
        ),
        guarantee=(
            "(ε_φ + ε_conf)-DP by composition: ε_φ for the Laplace-sanitised kernel density on a PUBLIC mesh, "
            "ε_conf for the release with conformal sensitivity √φ_max Δ. On S^d, H^d, R^d (d ≥ 3, or on request "
            "on S²/H²): the same on a PUBLIC quasi-random point set with a kNN graph, with a certified bound of the "
            "kernel mass."
        ),
        assumptions=(
            "A compact public domain: the sphere S^d, or a public geodesic ball of H^d or R^d. Surfaces (S², H²) use "
            "a public triangle mesh; d ≥ 3 a public point set (scrambled Halton points, kNN graph). Unlike the paper, "
            "the Laplacian is built on PUBLIC points, not on the data points (which would make φ data-dependent "
            "outside the sanitised channel; that variant is kept, labelled 'no formal guarantee'). The output "
            "resolution is the point spacing, ~N^(-1/d): utility degrades with the dimension at a fixed point count."
        ),
        sampler=(
            "Exact, no MCMC. Default: the continuous law ∝ φ̂(z) exp(−λ* ρ*(η, z)) by rejection from a Riemannian "
            "Laplace proposal (ρ* extended off the mesh, still √φ_max-Lipschitz in η). Option 'vertex': a vertex "
            "with probability ∝ w_j φ_j^(d/2) exp(−λ* ρ*_j) (ρ* by multi-source Dijkstra), then a uniform point of "
            "its public cell (data-independent post-processing); on a point set, a public point with that "
            "probability, then a public jitter. The paper's MCMC is kept as a cross-check (meshes)."
        ),
        source=("He, Tang, Rahimian & Joshi, Density-aware noise mechanisms for differential privacy on Riemannian "
                "manifolds via conformal transformation."),
    ),
    "kng_regression": dict(
        title="K-norm gradient geodesic regression (KNG)",
        notion="(ε_p + ε_v)-DP",
        idea=(
            "Privatise the two parameters of geodesic regression y ≈ Exp(p, x v) one after the other with the K-norm "
            "gradient mechanism: parameters where the gradient of the least-squares energy is small are "
            "exponentially more likely. Only the footpoint p̃ of the first stage is released, then the shooting "
            "vector ṽ at p̃."
        ),
        formula=(
            r"\begin{gathered}(\tilde p, \cdot) \sim \exp\!\Big(-\frac{\sqrt{|\nabla_p E_\tau|^2 + "
            r"|\nabla_v E_\tau|^2}}{\sigma_p}\Big) \\ "
            r"\tilde v \sim \exp\!\Big(-\frac{|\nabla_v E_\tau(\tilde p, v; D)|}{\sigma_v}\Big),\quad "
            r"\sigma = \frac{2\Delta}{\varepsilon}\end{gathered}"
        ),
        guarantee=(
            "(ε_p + ε_v)-DP by composition, under the sampler's approximation: the chains are Metropolis–Hastings, "
            "labelled 'approximate sampler' with their length. σ = 2Δ/ε is rigorous (the normalising constant "
            "depends on D); the paper's σ = Δ/ε, and its first stage with v held at the non-private v̂(D), are "
            "offered only as labelled 'no formal guarantee' options."
        ),
        assumptions=(
            "A PUBLIC residual level τ: residuals are clipped at τ (a Huber energy E_τ) so the sensitivities hold "
            "for every dataset — the paper takes τ = max |e_i| from the data, which is not DP. Sensitivities "
            "Δ_p = 2τ/n when the curvature is ≥ 0, with a cosh factor in negative curvature; a public "
            "domain d(m₀, p) ≤ R, |v| ≤ v_max."
        ),
        sampler=("Random-walk Metropolis–Hastings: on the tangent bundle for the first stage (an exact Hastings "
                 "ratio via the geodesic flow), in frame coordinates of T_p̃ M for the second; burn-in and chain "
                 "length shown."),
        source="Differentially private geodesic regression (K-norm gradient mechanism), under review.",
    ),
}

#: Display order of the cards: the registry's eight mechanisms, then KNG regression.
CARD_ORDER = (
    "riemannian_laplace", "riemannian_gaussian", "tangent_gaussian", "ew_laplace", "ew_gaussian",
    "brownian_motion", "langevin", "conformal", "kng_regression",
)

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


def get_card(name):
    """The card of a mechanism (a registry name or ``"kng_regression"``), as a new dict."""
    from geodp_core._validation import check_option

    return dict(CARDS[check_option(name, "name", CARD_ORDER)])
