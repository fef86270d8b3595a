"""The DP geodesic-regression shape ids on a user's corpus-callosum file (``data_file`` / ``--data-dir``)."""

import math

import numpy as np
import pandas as pd
import pytest

from geodp_core.exceptions import DataFileError, InvalidParameterError
from geodp_core.studies.regression_lab import figures, regression_demo
from geodp_core.studies.reproductions import REPRODUCTIONS, kng
from geodp_core.studies.reproductions import cli as rp_cli

_K = 50  # landmarks per outline, as in the paper's corpus-callosum data


def _outlines(ages, seed=0):
    """Closed outlines of ``_K`` landmarks: ellipses bent more with age, slightly noisy, randomly rotated."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 2.0 * np.pi, _K, endpoint=False)
    shapes = []
    for age in ages:
        bend = 0.1 + 0.4 * (age - 50.0) / 40.0
        x, y = 2.0 * np.cos(t), 0.5 * np.sin(t)
        y = y + bend * (1.0 - (x / 2.0) ** 2)
        xy = np.stack([x, y], axis=1) + rng.normal(scale=0.02, size=(_K, 2))
        angle = rng.uniform(0.0, 2.0 * np.pi)
        rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        shapes.append(3.0 * xy @ rotation.T + rng.normal(size=2))
    return np.asarray(shapes)


def _write_csv(path, ages, seed=0, age_column="age"):
    shapes = _outlines(ages, seed)
    header = ",".join(f"x{i},y{i}" for i in range(1, _K + 1)) + f",{age_column}"
    rows = [",".join(f"{v:.6f}" for v in shape.ravel()) + f",{age:g}" for shape, age in zip(shapes, ages)]
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A folder with ``corpus_callosum.csv``: 20 outlines of 50 landmarks, ages between 50 and 90."""
    folder = tmp_path_factory.mktemp("shapes")
    ages = np.random.default_rng(1).uniform(50.0, 90.0, size=20).round(1)
    return _write_csv(folder / kng.KNG_SHAPE_FILES[0], ages)


def _finite(table, columns):
    for column in columns:
        values = table[column].to_numpy(dtype=float)
        assert np.all(np.isfinite(values)), column


_MSPE = ["mspe_nonprivate", "mspe_mean", "mspe_se", "log_mspe_mean", "max_rhat"]


def test_kng_kendall_runs_on_the_file(corpus):
    result = kng.reproduce_kng_regression(space="kendall", eps_values=(0.5, 5.0), n=20, n_fits=4, n_footpoints=2,
                                          chain_length=50, seed=0, data_file=str(corpus))
    assert result.numbers["real_data"] is True
    assert corpus.name in result.setup and "n = 20 corpus-callosum outlines" in result.setup
    assert "50–90" in result.setup and "not available offline" not in result.setup
    assert any(corpus.name in note and "Real data" in note for note in result.notes)
    assert corpus.name in result.claims[0].where and "synthetic" not in result.claims[0].where
    assert len(result.table) == 2 * 2
    _finite(result.table, _MSPE)
    assert np.all(result.table["mspe_mean"] >= 0.99 * result.table["mspe_nonprivate"])
    assert result.status in ("reproduced", "partly reproduced", "not reproduced", "inconclusive")
    assert result.verdict and result.clauses


def test_kng_kendall_split_runs_on_the_file(corpus):
    result = kng.reproduce_kng_budget_split(space="kendall", eps_p_values=(0.02, 1.01, 2.0), n=20, n_fits=2,
                                            chain_length=50, seed=0, data_file=corpus)
    assert result.numbers["real_data"] is True and corpus.name in result.setup
    assert len(result.table) == 3 * 2
    _finite(result.table, _MSPE)
    assert result.verdict and result.clauses


def test_kng_shapes_runs_on_the_file_without_a_true_geodesic(corpus):
    result = kng.reproduce_kng_shapes(n=20, n_fits=2, chain_length=50, seed=0, data_file=str(corpus))
    assert result.numbers["real_data"] is True and corpus.name in result.setup
    assert "truth" not in set(result.table["version"]) and "template_distance" not in result.numbers
    assert set(result.table["version"]) == {"nonprivate", "rigorous", "paper"}
    _finite(result.table, ["x_coord", "y_coord", "distance_to_nonprivate"])
    _finite(result.tables["distances"], ["distance_mean", "distance_se", "data_spread", "mspe_mean"])
    assert result.tables["data"]["record"].nunique() == 20
    assert result.tables["data"]["landmark"].nunique() == 12  # resampled to the regression space Σ¹²₂
    assert corpus.name in result.verdict and result.clauses
    from geodp_core.viz.reproduce import reproduction_figures

    assert len(reproduction_figures(result)) == 1


def test_n_keeps_the_files_first_shapes(corpus):
    shapes = kng._load_shape_file(corpus, 8, "kendall")
    assert shapes.n == 8 and shapes.y.shape == (8, 12, 2) and shapes.n_landmarks == _K
    ages = pd.read_csv(corpus)["age"].to_numpy()[:8]
    np.testing.assert_allclose(shapes.x, (ages - 50.0) / 40.0)


def test_ages_outside_the_public_range_are_clamped(tmp_path):
    ages = np.array([40.0, 95.0, 60.0, 70.0, 80.0, 55.0, 89.0])
    path = _write_csv(tmp_path / "corpus_callosum.csv", ages)
    shapes = kng._load_shape_file(path, 100, "kendall")
    assert shapes.n == 7 and shapes.n_clamped == 2
    assert shapes.x[0] == 0.0 and shapes.x[1] == 1.0 and np.all((shapes.x >= 0) & (shapes.x <= 1))
    text = kng._kng_data_text("kendall", 0.05, shapes, shapes.n)
    assert "2 age(s) outside it clamped" in text


def test_the_hook_finds_the_file_and_none_in_an_empty_folder(tmp_path, corpus):
    assert kng._real_file(tmp_path) is None
    found = kng._real_file(corpus.parent)
    assert found.arguments == dict(data_file=str(corpus)) and str(corpus) in found.source
    npz = tmp_path / kng.KNG_SHAPE_FILES[1]
    np.savez(npz, landmarks=_outlines([60.0] * 6), age=np.full(6, 60.0))
    assert kng._real_file(tmp_path).arguments == dict(data_file=str(npz))
    assert kng._load_shape_file(npz, 100, "kendall").n == 6
    for key in ("kng_kendall", "kng_kendall_split", "kng_shapes"):
        assert REPRODUCTIONS[key].real_data is kng._real_file
    assert REPRODUCTIONS["kng"].real_data is None and REPRODUCTIONS["kng_spd_equal"].real_data is None


def test_the_command_line_picks_the_file_from_data_dir(corpus, tmp_path, monkeypatch, capsys):
    spec = REPRODUCTIONS["kng_shapes"]
    monkeypatch.setitem(spec.sizes, "quick", dict(n=20, n_fits=2, chain_length=50))
    assert rp_cli.main(["kng_shapes", "--quick", "--data-dir", str(corpus.parent), "--out", str(tmp_path)]) == 0
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert summary.loc[0, "data"].startswith(f"real files: {corpus}")
    assert "data: real files:" in capsys.readouterr().out
    table = pd.read_csv(tmp_path / "kng_shapes.csv")
    assert "truth" not in set(table["version"]) and np.all(np.isfinite(table["distance_to_nonprivate"]))


@pytest.mark.parametrize("runner", ["regression", "split", "shapes"])
def test_bad_files_raise_errors_naming_data_file(tmp_path, runner):
    small = dict(n=20, n_fits=2, chain_length=50)
    call = {"regression": lambda f: kng.reproduce_kng_regression(space="kendall", eps_values=(1.0,), data_file=f,
                                                                 **small),
            "split": lambda f: kng.reproduce_kng_budget_split(space="kendall", data_file=f, **small),
            "shapes": lambda f: kng.reproduce_kng_shapes(data_file=f, **small)}[runner]
    no_age = _write_csv(tmp_path / "no_age.csv", np.full(8, 60.0), age_column="weight")
    few = _write_csv(tmp_path / "few.csv", np.array([55.0, 65.0, 75.0]))
    garbage = tmp_path / "garbage.csv"
    garbage.write_text("x1,y1,age\nfoo,bar,baz\n", encoding="utf-8")
    for bad, words in ((tmp_path / "missing.csv", "not an existing file"), (no_age, "age"), (few, "at least 5"),
                       (garbage, "garbage.csv"), (tmp_path, "not an existing file")):
        with pytest.raises(DataFileError) as info:
            call(str(bad))
        assert info.value.param == "data_file" and "data_file" in str(info.value) and words in str(info.value)
    with pytest.raises(InvalidParameterError) as info:
        call(12)
    assert info.value.param == "data_file"


def test_a_data_file_needs_kendall_shape_space(corpus):
    with pytest.raises(InvalidParameterError, match="kendall") as info:
        kng.reproduce_kng_regression(space="sphere", eps_values=(1.0,), n=20, n_fits=2, chain_length=50,
                                     data_file=str(corpus))
    assert info.value.param == "data_file"


def test_without_a_file_the_runners_are_unchanged():
    small = dict(n=20, n_fits=2, chain_length=50, seed=4)
    for run in (lambda **kw: kng.reproduce_kng_regression(space="kendall", eps_values=(0.5, 5.0), **small, **kw),
                lambda **kw: kng.reproduce_kng_shapes(**small, **kw)):
        before, after = run(), run(data_file=None)
        pd.testing.assert_frame_equal(before.table, after.table)
        assert before.numbers == after.numbers and before.numbers["real_data"] is False
        assert "not available offline" in after.setup


def test_given_data_use_the_same_releases_as_the_demo():
    """``regression_demo(data=(x, y))`` on the demo's own data draws exactly the demo's releases (one code path);
    the true geodesic is then unknown and the figures leave it out."""
    args = ("kendall", 20, 0.05, "circle → arch", 2.0, 0.5, 0.2, 1.0, 50, 2, 7)
    demo = regression_demo(*args, owner_diagnostics=False)
    given = regression_demo(*args, owner_diagnostics=False, data=(demo.x, demo.y))
    np.testing.assert_array_equal(given.result.footpoints, demo.result.footpoints)
    np.testing.assert_array_equal(given.result.shooting_vectors, demo.result.shooting_vectors)
    assert given.mspe_nonprivate == demo.mspe_nonprivate
    assert given.true_footpoint is None and given.true_shooting_vector is None and math.isnan(given.mspe_truth)
    assert len(figures(given)) == 2
    for bad in ((demo.x * 2.0, demo.y), (demo.x[:4], demo.y[:4]), (demo.x, demo.y[:-1]), (demo.x,)):
        with pytest.raises(InvalidParameterError) as info:
            regression_demo(*args, owner_diagnostics=False, data=bad)
        assert info.value.param == "data"
