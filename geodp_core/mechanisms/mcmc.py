r"""Generic Riemannian random-walk Metropolis–Hastings (the fallback sampler and benchmark baseline).

Many independent chains are run side by side (vectorised over chains); each
chain contributes its final state, so ``n_chains`` chains give ``n_chains``
independent draws from a law *close to* the target (the closeness depends on
the chain length: a mechanism sampled this way carries the honesty label
"approximate sampler", docs/specification.md §8).

Proposal (wrapped Gaussian)
---------------------------
From the current state :math:`y`, draw :math:`z \sim N(0, I_d)` in an
orthonormal frame :math:`(e_k(y))` of :math:`T_y M` and propose

.. math::
    y' = \mathrm{Exp}_y\Big(s \sum_{k=1}^d z_k\, e_k(y)\Big),

accepted with probability :math:`\min\{1, \pi(y')/\pi(y)\}`, where
:math:`\pi` is the target density with respect to the Riemannian volume.

Why no Hastings correction is needed on our spaces
--------------------------------------------------
The tangent vector :math:`v = s\sum_k z_k e_k(y)` is the isotropic Gaussian
:math:`N(0, s^2 g_y^{-1})` of :math:`T_y M`; it does not depend on the frame.
Hence the proposal kernel :math:`q(y' \mid y)` (a density w.r.t. the volume)
is defined intrinsically and every isometry :math:`\phi` satisfies
:math:`q(\phi y' \mid \phi y) = q(y' \mid y)` (isometries commute with
:math:`\mathrm{Exp}` and map isotropic Gaussians to isotropic Gaussians).
All spaces of docs/specification.md §1 are Riemannian *symmetric* spaces — the spheres,
hyperbolic spaces, SPD(m) with the affine-invariant metric, and the flat spaces
(Euclidean, SPD log-Euclidean and log-Cholesky, globally isometric to
:math:`\mathbb{R}^d` through their charts). On a symmetric space the geodesic
symmetry :math:`s_m` at a midpoint :math:`m` of :math:`y, y'` is an isometry
that swaps them, so

.. math::
    q(y' \mid y) = q(s_m y' \mid s_m y) = q(y \mid y'),

i.e. the proposal is symmetric and the Metropolis ratio :math:`\pi(y')/\pi(y)`
is the exact Hastings ratio. (Equivalently: :math:`q(y'\mid y)` is a function
of :math:`\mathrm{dist}(y, y')` only — on the sphere a sum over the several
preimages of :math:`y'` under :math:`\mathrm{Exp}_y`, each a function of the
distance; on Hadamard spaces the single term
:math:`N(\mathrm{Log}_y y'; 0, s^2)\, e^{-\text{log\_volume\_jacobian}}`.) On a
manifold that is not symmetric this argument fails and the Jacobian correction
(``log_volume_jacobian``) would be required; :func:`riemannian_metropolis_hastings`
therefore refuses non-homogeneous manifolds.

Burn-in and adaptation
----------------------
The first ``burn_in`` steps may adapt each chain's own proposal scale (Robbins–
Monro on :math:`\log s`, towards ``target_acceptance``); the scale is then
frozen for the remaining ``n_steps`` steps, during which every chain is a
time-homogeneous Metropolis chain that leaves the target invariant. Chains
never share information, so the returned states are independent.
"""

from dataclasses import dataclass

import numpy as np

from geodp_core._validation import check_int, check_real, check_rng
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.base import Manifold

__all__ = ["MCMCResult", "riemannian_metropolis_hastings"]

_MAX_TOTAL_STEPS = 1_000_000


@dataclass(frozen=True)
class MCMCResult:
    """Output of :func:`riemannian_metropolis_hastings`.

    Attributes
    ----------
    samples : ndarray, shape ``(n_chains, *point_shape)``
        Final state of every chain (one approximately-target draw per chain).
    acceptance_rate : float
        Mean acceptance over chains and the post-burn-in steps.
    chain_acceptance : ndarray, shape ``(n_chains,)``
        Per-chain post-burn-in acceptance rate.
    proposal_scale : ndarray, shape ``(n_chains,)``
        Proposal scale used after burn-in (after adaptation, if any).
    n_chains, n_steps, burn_in : int
        Number of chains, post-burn-in steps and burn-in steps per chain.
    """

    samples: np.ndarray
    acceptance_rate: float
    chain_acceptance: np.ndarray
    proposal_scale: np.ndarray
    n_chains: int
    n_steps: int
    burn_in: int

    def describe(self):
        """One line for calibration notes."""
        return (
            f"random-walk Metropolis–Hastings (wrapped-Gaussian proposal): {self.n_chains} independent chains, "
            f"burn-in {self.burn_in} + {self.n_steps} steps each, acceptance rate {self.acceptance_rate:.3f}"
        )


def _evaluate(log_target, points, n_chains):
    values = np.asarray(log_target(points), dtype=float)
    if values.shape != (n_chains,):
        raise InvalidParameterError(
            f"log_target must map a batch of {n_chains} points to an array of shape ({n_chains},); "
            f"got shape {values.shape}",
            param="log_target",
        )
    if np.isnan(values).any() or (values == np.inf).any():
        raise InvalidParameterError(
            "log_target must return finite values or -inf (zero density); got NaN or +inf", param="log_target"
        )
    return values


def riemannian_metropolis_hastings(
    manifold,
    log_target,
    init,
    n_chains,
    n_steps,
    proposal_scale,
    rng,
    burn_in=100,
    adapt=True,
    target_acceptance=0.3,
):
    r"""Random-walk Metropolis–Hastings on a manifold, vectorised over independent chains.

    Targets :math:`\pi(y) \propto \exp(\text{log\_target}(y))` with respect to
    the Riemannian volume, with the symmetric wrapped-Gaussian proposal

    .. math::
        y' = \mathrm{Exp}_y(s\, v), \qquad v \sim N(0, I) \text{ in an orthonormal frame of } T_yM,
        \qquad \Pr[\text{accept}] = \min\{1, \pi(y')/\pi(y)\}.

    The proposal is symmetric on Riemannian symmetric spaces (all spaces of
    docs/specification.md §1; see the module docstring), so no Hastings correction is needed.

    Parameters
    ----------
    manifold : Manifold
        A homogeneous (symmetric) space from :func:`geodp_core.geometry.get_manifold`.
    log_target : callable
        ``log_target(points)`` with ``points`` of shape ``(n_chains, *point_shape)``
        returns the unnormalised log density, shape ``(n_chains,)`` (``-inf`` allowed
        off the support, never NaN).
    init : array_like
        One starting point (shared by all chains) or ``n_chains`` starting points;
        the target density must be positive there.
    n_chains : int
        Number of independent chains (= number of returned samples), in [1, 10^7].
    n_steps : int
        Post-burn-in Metropolis steps per chain, in [1, 10^6].
    proposal_scale : float
        Initial proposal standard deviation :math:`s > 0` per tangent coordinate.
    rng : numpy.random.Generator
    burn_in : int, default 100
        Steps run first (with scale adaptation when ``adapt``); ``burn_in + n_steps <= 10^6``.
    adapt : bool, default True
        Adapt each chain's :math:`\log s` during burn-in,
        :math:`\log s \mathrel{+}= (a_t - a^*)/(t+1)^{0.6}`; frozen afterwards.
    target_acceptance : float, default 0.3
        Adaptation target :math:`a^* \in (0, 1)`.

    Returns
    -------
    MCMCResult
        Final states, acceptance diagnostics and the frozen proposal scales.
    """
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"manifold must be a geodp_core Manifold (see get_manifold); got {type(manifold).__name__}",
            param="manifold",
        )
    if not manifold.is_homogeneous:
        raise InvalidParameterError(
            f"manifold must be a homogeneous (symmetric) space for the symmetric wrapped-Gaussian proposal; "
            f"{manifold.label} is not",
            param="manifold",
        )
    if not callable(log_target):
        raise InvalidParameterError(
            f"log_target must be callable (points -> log densities); got {type(log_target).__name__}",
            param="log_target",
        )
    n_chains = check_int(n_chains, "n_chains", low=1, high=10_000_000)
    n_steps = check_int(n_steps, "n_steps", low=1, high=_MAX_TOTAL_STEPS)
    burn_in = check_int(burn_in, "burn_in", low=0, high=_MAX_TOTAL_STEPS - n_steps)
    proposal_scale = check_real(proposal_scale, "proposal_scale", low=0.0)
    if not isinstance(adapt, (bool, np.bool_)):
        raise InvalidParameterError(f"adapt must be True or False; got {adapt!r}", param="adapt")
    target_acceptance = check_real(target_acceptance, "target_acceptance", low=0.0, high=1.0)
    rng = check_rng(rng)

    shape = tuple(manifold.point_shape)
    init = manifold.validate_points(init, "init")
    if init.shape == shape:
        state = np.broadcast_to(init, (n_chains,) + shape).copy()
    elif init.shape == (n_chains,) + shape:
        state = init.copy()
    else:
        raise InvalidParameterError(
            f"init must have shape {shape} or {(n_chains,) + shape}; got {init.shape}", param="init"
        )
    log_pi = _evaluate(log_target, state, n_chains)
    if not np.isfinite(log_pi).all():
        idx = int(np.flatnonzero(~np.isfinite(log_pi))[0])
        raise InvalidParameterError(
            f"init must have positive target density; log_target is -inf at chain {idx}", param="init"
        )

    log_scale = np.full(n_chains, np.log(proposal_scale))
    log_scale_low, log_scale_high = log_scale[0] - 15.0, log_scale[0] + 5.0
    accepted = np.zeros(n_chains)
    for step in range(burn_in + n_steps):
        scale = np.exp(log_scale)
        coords = rng.standard_normal((n_chains, manifold.dim)) * scale[:, None]
        proposal = manifold.exp(state, manifold.from_frame(state, coords), check=False)
        log_pi_new = _evaluate(log_target, proposal, n_chains)
        log_u = np.log(rng.uniform(size=n_chains))
        accept = log_u < log_pi_new - log_pi  # -inf - finite = -inf: never accepted
        state = np.where(accept.reshape((n_chains,) + (1,) * len(shape)), proposal, state)
        log_pi = np.where(accept, log_pi_new, log_pi)
        if step < burn_in:
            if adapt:
                log_scale = np.clip(
                    log_scale + (accept - target_acceptance) / (step + 1.0) ** 0.6, log_scale_low, log_scale_high
                )
        else:
            accepted += accept
    chain_acceptance = accepted / n_steps
    return MCMCResult(
        samples=state,
        acceptance_rate=float(chain_acceptance.mean()),
        chain_acceptance=chain_acceptance,
        proposal_scale=np.exp(log_scale),
        n_chains=n_chains,
        n_steps=n_steps,
        burn_in=burn_in,
    )
