"""The sensitivity a release uses follows from the space's own facts, checked against worst neighbouring shifts."""

import numpy as np
import pytest

from geodp_core.geometry import get_manifold
from geodp_core.pipeline import prepare
from geodp_core.scenario import Scenario
from geodp_core.summaries import frechet_mean


@pytest.mark.parametrize("radius, n", [(0.5, 10), (0.3, 7), (0.75, 50)])
def test_circle_uses_the_flat_sensitivity_that_its_worst_neighbours_attain(radius, n):
    r"""S¹ is flat (no 2-planes): the Fréchet mean of data in an arc B(m₀, r), r < π/2, is the mean angle, and moving
    one record from one end of the arc to the other moves it by exactly 2r/n — the sensitivity every S¹ release
    uses (the curved bound with κ = 1 was 2.1× larger at r = 0.5)."""
    circle = get_manifold("sphere", 1)
    center = circle.default_center()
    ends = circle.exp(center, circle.from_frame(center, np.array([[radius], [-radius]])))
    rest = np.repeat(center[None], n - 1, axis=0)
    shift = float(circle.dist(frechet_mean(circle, np.vstack([rest, ends[:1]])),
                              frechet_mean(circle, np.vstack([rest, ends[1:]]))))
    sensitivity = prepare(Scenario(manifold="sphere", dim=1, radius=radius, n=n)).sensitivity
    assert shift == pytest.approx(2 * radius / n, rel=1e-9)
    assert sensitivity == pytest.approx(shift, rel=1e-9)


def test_the_two_sphere_keeps_its_curved_bound():
    sphere = get_manifold("sphere", 2)
    assert sphere.sensitivity_curvature == 1.0
    assert prepare(Scenario(manifold="sphere", dim=2, radius=0.5, n=10)).sensitivity == pytest.approx(0.21148154493098045)
