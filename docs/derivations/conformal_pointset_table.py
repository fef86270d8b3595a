"""The derivation note's table (a study, not a benchmark: timings are in benchmarks/run.py). Utility and runtime of the conformal mechanism by dimension and point count (public point sets; meshes on d = 2).

Setting: n = 500 records, wrapped Gaussian around the public centre (typical radius 0.3), clipped to the public
ball B(centre, 0.7); summary = Fréchet mean, Δ = its sensitivity; total ε = 1 (ε_φ = 0.3); 4 calibrations
(sanitisation seeds) × 250 releases each. Utility = mean dist(release, true mean). Reference columns:
"floor" = distance from the true mean to the nearest public point (the resolution of the discretisation) and
the Riemannian Laplace mechanism at the same ε and Δ (exact sampler). Domains: "wide" = the whole S^d or
B(c, 2) of H^d (as the meshes); "ball" = the public ball B(c, 1.5 r) (a cap on S^d; the pipeline's default). Times: cold calibration (builds the
public point set, its kNN graph and the certified bound B), warm calibration (point set cached) and one release.

    .venv/bin/python docs/derivations/conformal_pointset_table.py            # writes docs/derivations/conformal_pointset_table.json
"""

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from geodp_core.data.clipping import clip_to_ball
from geodp_core.geometry import get_manifold
from geodp_core.geometry.point_sets import pairwise_distances, point_set_kind
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import PureDP
from geodp_core.summaries import frechet_mean, frechet_mean_sensitivity

N_RECORDS, RADIUS, SPREAD, EPS = 500, 0.7, 0.3, 1.0
CALIBRATIONS, RELEASES = 4, 250
#: The spaces of the table (the conformal paper's spheres, and hyperbolic spaces).
SPACES = ("sphere", "hyperbolic")


def run(space, dim, n_points, domain):
    manifold = get_manifold(space, dim)
    center = manifold.default_center()
    rng = np.random.default_rng(dim)
    coords = rng.standard_normal((N_RECORDS, dim)) * SPREAD / math.sqrt(dim)
    raw = manifold.exp(np.broadcast_to(center, (N_RECORDS, len(center))), manifold.from_frame(center, coords))
    data, _ = clip_to_ball(manifold, raw, center, RADIUS)
    mean = frechet_mean(manifold, data)
    delta = float(frechet_mean_sensitivity(N_RECORDS, RADIUS, manifold.curvature_bounds[1]))
    mech = get_mechanism("conformal", manifold)
    opts = {"data": data, "radius": RADIUS}
    wide = 2.0 if domain == "wide" else 1.5 * RADIUS  # "wide": whole S^d / B(c, 2); "ball": B(c, 1.5 r)
    if not manifold.is_compact:
        opts.update(ball_center=center, domain_center=center, domain_radius=wide)
    elif domain == "ball":
        opts.update(domain_center=center, domain_radius=wide)
    if dim == 2:
        opts.update(mesh_size=n_points, sampler="vertex")
    else:
        opts.update(n_points=n_points)
    errors, cold, warm, per_release = [], None, [], []
    for k in range(CALIBRATIONS):
        t0 = time.perf_counter()
        cal = mech.calibrate(PureDP(EPS), delta, seed=k, **opts)
        elapsed = time.perf_counter() - t0
        if k == 0:
            cold = elapsed
        else:
            warm.append(elapsed)
        t0 = time.perf_counter()
        z = mech.sample(mean, cal, RELEASES, np.random.default_rng(100 + k))
        per_release.append((time.perf_counter() - t0) / RELEASES)
        errors.append(manifold.dist(mean, z))
    fields = mech.fields(cal)
    public = fields.vertices if dim == 2 else fields.point_set.points
    kind = point_set_kind(manifold)  # the distance kind of the mesh too: "sphere" or "hyperbolic_ball"
    floor = float(pairwise_distances(kind, mean[None], public).min())
    rl = get_mechanism("riemannian_laplace", manifold)
    rl_cal = rl.calibrate(PureDP(EPS), delta)
    rl_err = float(manifold.dist(mean, rl.sample(mean, rl_cal, 1000, np.random.default_rng(7))).mean())
    errors = np.concatenate(errors)
    return dict(space=space, d=dim, domain=domain, discretisation="mesh" if dim == 2 else "points", N=n_points, delta=delta,
                utility=float(errors.mean()), utility_se=float(errors.std(ddof=1) / math.sqrt(errors.size)),
                floor=floor, riemannian_laplace=rl_err, B_margin=float(cal.noise["kernel_mass_bound"]),
                phi_ratio=float(fields.phi_max / fields.phi_min), cold_s=cold, warm_s=float(np.median(warm)),
                release_us=1e6 * float(np.median(per_release)))


def main():
    rows = []
    for space in SPACES:
        for dim in (2, 3, 5, 10, 50, 100):
            for n_points, domain in ((500, "wide"), (2000, "wide"), (500, "ball"), (2000, "ball")):
                if dim == 2 and domain == "ball":
                    continue  # meshes: whole S², H² ball of radius 2
                row = run(space, dim, n_points, domain)
                rows.append(row)
                print(f"{space:10s} d={dim:3d} N={n_points:5d} {domain:4s} utility={row['utility']:.3f}±{row['utility_se']:.3f} "
                      f"floor={row['floor']:.3f} RL={row['riemannian_laplace']:.3f} φ-ratio={row['phi_ratio']:.3g} "
                      f"cold={row['cold_s']:.2f}s warm={row['warm_s']:.3f}s release={row['release_us']:.0f}µs",
                      flush=True)
    out = Path(__file__).with_name("conformal_pointset_table.json")
    out.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
