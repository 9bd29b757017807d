"""The eager-vs-XLA divergence table: the lookups XLA318 relies on, and (with TensorFlow) a new measurement."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import divergence_table

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "xlacheck" / "data" / "tf_xla_divergence.json"


def test_loader_does_not_import_tensorflow_or_numpy() -> None:
    code = (
        "import sys\n"
        "from xlacheck import divergence_table\n"
        "divergence_table.divergence('tf.argmax', 'nan'); divergence_table.table_info()\n"
        "print(','.join(sorted(m for m in ('tensorflow', 'numpy') if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_header_names_tensorflow_backend_and_command() -> None:
    info = divergence_table.table_info()
    assert info["tensorflow"].startswith("2.")
    assert info["generated_by"] == "python tools/generate_divergence_table.py"
    assert "XLA_CPU_JIT" in info["backend"]
    assert set(info["classes"]) >= {"out_of_range_index", "nan", "int_overflow", "narrowing_cast", "empty"}


@pytest.mark.parametrize(
    ("spelling", "measured"),
    [("tf.math.argmax", "tf.math.argmax"), ("tf.argmax", "tf.math.argmax"),
     ("tf.keras.backend.argmax", "tf.math.argmax"), ("tf.reduce_max", "tf.math.reduce_max"),
     ("tf.nn.top_k", "tf.math.top_k"), ("tf.maximum", "tf.math.maximum")],
)
def test_other_spellings_map_to_the_measured_kernel(spelling: str, measured: str) -> None:
    assert divergence_table.measured_api(spelling) == measured


def test_unknown_and_plumbing_only_names_map_to_nothing() -> None:
    assert divergence_table.measured_api("tf.not_a_function") is None
    assert divergence_table.measured_api("tf.identity") is None  # only plumbing ops: no signature
    assert divergence_table.probes("tf.not_a_function", "nan") == ()


def test_measured_facts_the_rule_relies_on() -> None:
    argmax = divergence_table.divergence("tf.argmax", "nan")
    assert argmax is not None and argmax.outcome == "differs" and argmax.how == "XLA picks the NaN"
    reduce_max = divergence_table.divergence("tf.reduce_max", "nan")
    assert reduce_max is not None and reduce_max.how == "XLA ignores NaN"
    assert divergence_table.divergence("tf.clip_by_value", "nan") is None  # NaN propagated in both modes
    assert divergence_table.divergence("tf.nn.relu", "nan") is None
    gather = divergence_table.divergence("tf.gather", "out_of_range_index")
    assert gather is not None and gather.outcome == "eager_error" and gather.how == "XLA clamps the index"
    casts = [p for p in divergence_table.probes("tf.cast", "narrowing_cast") if p.input.endswith("-> int32")]
    assert casts and casts[0].outcome == "differs" and casts[0].how == "XLA saturates and maps NaN to 0"


def test_integer_sign_forms_xla314_relies_on() -> None:
    """XLA folds a sign test of an integer square or abs, and shifts a floor division of a square;
    a clamp is computed (the control)."""
    for api in ("tf.math.multiply", "tf.math.square", "tf.math.pow"):
        tests = [p for p in divergence_table.probes(api, "int_overflow") if p.form == "sign_test_of_square"]
        assert {p.input.split()[0] for p in tests} == {"int8", "int16", "int32", "int64"}, api
        assert all(p.outcome == "differs" and p.how == "XLA folds the test to False" for p in tests), api
    assert divergence_table.divergence("tf.abs", "int_overflow", "sign_test_of_abs") is not None
    assert divergence_table.divergence("tf.multiply", "int_overflow", "floordiv_of_square") is not None
    clamps = [p for p in divergence_table.probes("tf.math.multiply", "int_overflow") if p.form == "clamp_of_square"]
    assert clamps and all(p.outcome == "equal" for p in clamps)


def test_decomposition_signs_xla319_relies_on() -> None:
    """XLA's eigh/svd return some vectors negated; the values and the sign-free products agree."""
    for api in ("tf.linalg.eigh", "tf.linalg.svd"):
        measured = divergence_table.probes(api, "decomposition_sign")
        vectors = [p for p in measured if p.form == "vectors"]
        assert vectors and all(p.outcome == "differs" and p.how == "XLA flips the sign of some vectors"
                               for p in vectors), api
        assert all(p.outcome in ("equal", "close") for p in measured if p.form in ("values", "product")), api
    assert all(p.outcome in ("equal", "close") for p in divergence_table.probes("tf.linalg.qr", "decomposition_sign"))


def test_every_entry_is_well_formed() -> None:
    data = json.loads(TABLE.read_text())
    outcomes = set(data["outcomes"])
    for api, entry in data["entries"].items():
        assert set(entry) == {"raw_ops", "probes"}, api
        for input_class, measured in entry["probes"].items():
            assert input_class in data["classes"], (api, input_class)
            for probe in measured:
                assert probe["outcome"] in outcomes, (api, probe)
                errors = ("error" in probe["eager"], "error" in probe["xla"])
                expected = {(True, True): "both_error", (True, False): "eager_error",
                            (False, True): "xla_error"}.get(errors)
                if expected is not None:
                    assert probe["outcome"] == expected, (api, probe)
                else:
                    assert probe["outcome"] in {"equal", "close", "differs"}, (api, probe)
                    if probe["outcome"] == "equal":
                        assert probe["eager"] == probe["xla"], (api, probe)
                if "how" in probe:
                    assert probe["how"].startswith("XLA ") and probe["outcome"] != "equal", (api, probe)


_REMEASURE = """
import json, sys
sys.path.insert(0, "tools")
import generate_divergence_table as g
tf, np = g._import_tf()
wanted = {tuple(k) for k in json.loads(sys.argv[1])}
out = [[p.api, p.input_class, g.run_probe(tf, np, p)] for p in g._probes(tf)
       if (p.api, p.input_class, p.input) in wanted]
print(json.dumps(out))
"""


@pytest.mark.tf
@pytest.mark.slow
def test_a_sample_of_entries_agrees_with_tensorflow() -> None:
    """Re-measure every divergent probe and every fifth other probe with the default XLA flags
    (in a child process: the test session sets XLA flags of its own) and compare with the file."""
    pytest.importorskip("tensorflow")
    data = json.loads(TABLE.read_text())["entries"]
    recorded = {(api, cls, p["input"]): p for api, entry in data.items()
                for cls, measured in entry["probes"].items() for p in measured}
    keys = sorted(recorded)
    sample = [k for i, k in enumerate(keys) if recorded[k]["outcome"] != "equal" or i % 5 == 0]
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    out = subprocess.run([sys.executable, "-c", _REMEASURE, json.dumps(sample)], capture_output=True,
                         text=True, check=True, cwd=ROOT, env=env, timeout=600)
    measured = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(measured) == len(sample)
    for api, cls, entry in measured:
        assert _same_measurement(entry, recorded[(api, cls, entry["input"])]), (api, cls, entry["input"])


def _same_measurement(measured: dict, recorded: dict) -> bool:
    """The same verdict (outcome, how, error types, dtypes, shapes) and the same values up to the last
    bits: a float32 decomposition's XLA values differ by ~1e-7 relative between CPUs (tf.linalg.eigh's
    eigenvectors on this machine and on the one that wrote the table), which is no other answer."""
    if set(measured) != set(recorded) or any(measured[k] != recorded[k] for k in measured if k not in ("eager", "xla")):
        return False
    return all(_same_result(measured[k], recorded[k]) for k in ("eager", "xla"))


def _same_result(measured: dict | list, recorded: dict | list) -> bool:
    if isinstance(measured, list) or isinstance(recorded, list):  # a tuple of results (tf.unique: values, idx)
        return isinstance(measured, list) and isinstance(recorded, list) and len(measured) == len(recorded) \
            and all(_same_result(m, r) for m, r in zip(measured, recorded))
    if set(measured) != set(recorded) or any(measured[k] != recorded[k] for k in measured if k != "values"):
        return False
    if "values" not in measured:
        return True
    return len(_flat(measured["values"])) == len(_flat(recorded["values"])) and all(
        _close(a, b) for a, b in zip(_flat(measured["values"]), _flat(recorded["values"])))


def _flat(values: object) -> list:
    return [v for item in values for v in _flat(item)] if isinstance(values, list) else [values]


def _close(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (a != a and b != b) or abs(a - b) <= 1e-6 + 1e-5 * abs(b)
    return a == b
