"""Every method of the package against the command it mirrors (issue 24, item 5)."""
import json
import os
import warnings

import numpy as np
import pytest

import tlop
from conftest import BCAST, RDA, SHM, ROOT, run_cli


def test_load_path_and_text():
    m = tlop.load(BCAST)
    assert "bcast_binomial" in m.algorithms and "allgather_rda" in m.algorithms
    assert m.params("bcast_binomial") == ["m", "P", "M"]  # M, the nodes; map is not a number
    assert m.parameters["allgather_rda"] == ["m", "P", "M"]
    assert m.platforms == []
    t = tlop.load("platform p { channel c { L(m, τ) = 1 us; o(m) = 0 us; } }\n"
                  "algorithm a(m: size, P: count) = P * L(m, 1);\n", name="mine.tlop")
    assert t.algorithms == ["a"] and t.platforms == ["p"]
    assert t.eval("a", m=1, P=3) == pytest.approx(3e-6)


def test_claims_and_prove_match_expectations():
    m = tlop.load(RDA)
    assert len(m.claims) == 5
    want = [l.split(":")[1].strip() for l in open(RDA) if l.startswith("# expect:")]
    got = m.prove()
    assert [v.verdict for v in got] == want
    assert got[0].proved and bool(got[0]) and got[0].counterexample is None
    assert got[1].verdict == "refuted" and "counterexample" in got[1].counterexample[0]
    assert any("normal form" in (w or "") for _, w in got[0].steps)
    assert "rda(m, P) >= 2 * scatter(m, P)" in got[0].claim
    assert m.claims[4].prove().proved
    latex = m.prove(claims=[0], format="latex")[0]
    assert "\\begin{itemize}" in latex.derivation


def test_compare_bound():
    c = tlop.load(RDA).compare("rda(m, P)", "scatter(m, P)")
    cli = run_cli("compare", RDA, "rda(m, P)", "scatter(m, P)").stdout
    assert c.ge == "proved" and c.le == "refuted" and c.bound == 2.0
    for s, _ in c.steps:
        assert s in cli


def test_eval_units_and_engines():
    m = tlop.load(BCAST)
    v = m.eval("bcast_binomial(m, P)", m="1MiB", P=64)
    cli = float(run_cli("eval", BCAST, "bcast_binomial(m, P)", "--set", "m=1MiB,P=64",
                        "--format", "plain").stdout)
    assert v == cli
    assert m.eval("bcast_binomial", m=1048576, P=64) == v
    assert m.eval("bcast_binomial", m="1024 KiB", P="64") == v
    assert m.eval("bcast_binomial", m="1MiB", P=64, engine="jit") == v
    assert m.kind("bcast_binomial") == "time"


def test_eval_platform_tables_and_analytic():
    m = tlop.load(BCAST)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tlop.TlopWarning)
        v = m.eval("bcast_binomial", m="8KiB", P=8, params=SHM)
        cli = float(run_cli("eval", BCAST, "bcast_binomial", "--set", "m=8KiB,P=8", "--params", SHM,
                            "--format", "plain").stdout)
        assert v == cli
        assert m.eval("bcast_binomial", m="8KiB", P=8, platform=tlop.Platform(tables=SHM)) == v
        assert m.eval("bcast_binomial", m="8KiB", P=8,
                      platform=tlop.Platform("generic", tables={"shm": SHM})) == v
    toy = tlop.Platform(source="platform toy { channel c { L(m, τ) = 1 us + m / 1 GB/s; "
                               "o(m) = 0.5 us; } }")
    a = m.eval("bcast_binomial", m=0, P=2, platform=toy)
    assert a == pytest.approx(0.5e-6 + 2e-6)
    pf = m.platform(params=SHM)
    ms, vs = pf.table()
    assert ms[0] == 1 and vs.shape == (len(ms), 9) and vs[0, 0] == 4.0e-07
    assert pf.name == "generic"


def test_warning_is_issued():
    m = tlop.load(BCAST)
    with pytest.warns(tlop.TlopWarning, match="beyond the table"):
        m.eval("bcast_binomial", m="8KiB", P=64, params=SHM)


def test_explain_rows_match_cli():
    m = tlop.load(BCAST)
    rows = m.explain("bcast_binomial(m, P)", m="1MiB", P=8)
    cli = json.loads(run_cli("explain", BCAST, "bcast_binomial(m, P)", "--set", "m=1MiB,P=8",
                             "--format", "json").stdout)
    assert [r.index for r in rows] == [s["stage"] for s in cli["stages"]]
    assert [r.expr for r in rows] == [s["expr"] for s in cli["stages"]]
    assert [r.cost for r in rows] == [s["cost"] for s in cli["stages"]]
    assert rows[-1].cumulative == cli["total"]


@pytest.mark.parametrize("fmt", ["unicode", "tlop", "latex"])
def test_simplify_matches_cli(fmt):
    m = tlop.load(RDA)
    s = m.simplify("rda", assume="P = 2^p, p >= 1, m = k*S", format=fmt)
    cli = run_cli("simplify", RDA, "rda", "--assume", "P = 2^p, p >= 1, m = k*S", "--format",
                  fmt).stdout.rstrip("\n")
    assert s == cli
    assert s._repr_latex_().startswith("$") and "\\" in s._repr_latex_()
    assert m.simplify("rda", assume=["P = 2^p", "p >= 1", "m = k*S"], format=fmt) == s


def test_best_and_tuning_file(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tlop.TlopWarning)
        d = tlop.best(BCAST, "bcast", m="1KiB..1MiB:*4", P=[4, 16], params=SHM, refine=True)
        out = tmp_path / "cli.rules"
        r = run_cli("best", BCAST, "--collective", "bcast", "--params", SHM, "--grid",
                    "m=1KiB..1MiB:*4", "--grid", "P=4,16", "--refine", "--emit", "ompi-rules",
                    "-o", str(out))
    assert d.candidates == ["bcast_binomial", "bcast_scatter_rda", "bcast_scatter_ring"]
    assert d.ranges[1].m_from == 353961 and d.ranges[0].winner == "bcast_binomial"
    assert "353961 B" in r.stdout and "353961 B" in str(d)
    assert d.winner(400000, 4) == "bcast_binomial"
    py = tmp_path / "py.rules"
    d.write(py, "ompi-rules")
    assert py.read_text() == out.read_text()
    for fmt in ("ompi-json", "mpich-json", "ompi-rules-v1"):
        assert d.tuning(fmt)
    tab = d.table(frame=False)
    assert list(tab["P"]) == [4, 4, 16]
    with pytest.raises(ValueError):
        d.tuning("nonsense")


def test_errors_carry_file_line_col(tmp_path):
    bad = tmp_path / "bad.tlop"
    bad.write_text("algorithm a(m: size) =\n  m + ;\n")
    with pytest.raises(tlop.Error) as e:
        tlop.load(str(bad))
    f, line, col, msg = e.value.diagnostics[0]
    assert (f, line, col) == (str(bad), 2, 7) and "expected" in msg
    assert e.value.status == "syntax error"
    assert "bad.tlop:2:7" in str(e.value)
    with pytest.raises(tlop.Error) as e:
        tlop.load("algorithm a(m: size) = nothere(m);", name="t.tlop")
    assert e.value.diagnostics[0][:3] == ("t.tlop", 1, 24)
    m = tlop.load(BCAST)
    with pytest.raises(tlop.Error, match="undefined name 'Mib'"):
        m.eval("bcast_binomial", m="1Mib", P=4)
    with pytest.raises(tlop.Error, match="'no_such_algo' is not an algorithm"):
        m.sweep(["no_such_algo"], m=[1], P=[2])
    with pytest.raises(tlop.Error) as e:  # an expression: the checker's diagnostic
        m.sweep(["bcast_binomial(m, P) + nothere"], m=[1], P=[2])
    assert e.value.diagnostics[0].line == 1 and "nothere" in e.value.diagnostics[0].message
    with pytest.raises(tlop.Error, match="P"):
        m.sweep(["bcast_binomial"], m=[1], P=[1.5])
    with pytest.raises(tlop.Error, match="neither a parameter"):
        m.sweep(["bcast_binomial"], m=[1], P=[2], q=[1, 2])
    with pytest.raises(tlop.Error):
        tlop.load(os.path.join(ROOT, "no", "such.tlop"))
    with pytest.raises(tlop.Error):
        m.eval("bcast_binomial", m=1, P=2, platform="no_such_platform")
    with pytest.raises(ValueError):
        m.sweep(["bcast_binomial"], m=[1], P=[2], engine="fast")
    # a failure leaves the model usable
    assert m.eval("bcast_binomial", m=1, P=2) > 0


def test_sweep_dict_without_pandas_and_frame_with_it():
    m = tlop.load(BCAST)
    out = m.sweep(["bcast_binomial", "allgather_rda"], m=[1, 1024], P=[2, 4, 8], frame=False)
    assert list(out) == ["m", "P", "bcast_binomial", "allgather_rda"]
    assert list(out["m"]) == [1, 1, 1, 1024, 1024, 1024] and list(out["P"]) == [2, 4, 8] * 2
    try:
        import pandas  # noqa: F401
    except ImportError:
        assert isinstance(m.sweep("bcast_binomial", m=[1], P=[2]), dict)
        return
    df = m.sweep(["bcast_binomial", "allgather_rda"], m=[1, 1024], P=[2, 4, 8])
    assert list(df.columns) == list(out)
    assert (df["allgather_rda"].to_numpy() == out["allgather_rda"]).all()


def test_helpers():
    assert tlop.format_size(1048576) == "1 MiB"
    assert "µs" in tlop.format_time(1.235e-5)
    assert "L(m" in tlop.axioms()
    assert tlop.__version__


def test_strict_turns_warnings_into_errors():
    m = tlop.load(BCAST, strict=True)
    with pytest.raises(tlop.Error, match="beyond the table"):
        m.eval("bcast_binomial", m="8KiB", P=64, params=SHM)
    with pytest.raises(tlop.Error, match="beyond the table"):
        m.sweep("bcast_binomial", m=[8192], P=[64], params=SHM, frame=False)
    # within the table: no warning, a value (a former error does not stick)
    assert m.sweep("bcast_binomial", m=[8192], P=[4], params=SHM, frame=False)["bcast_binomial"][0] > 0


def test_prove_with_evidence_grid_and_assume():
    m = tlop.load(RDA)
    v = m.prove(claims=[1], grid={"m": "1KiB..1MiB:*4", "P": [2, 4, 8]}, params=SHM)
    assert v[0].verdict == "refuted"
    with pytest.raises(tlop.Error):
        m.prove(grid={"nothere": [1, 2]})
    with pytest.raises(IndexError):
        m.prove(claims=[99])
