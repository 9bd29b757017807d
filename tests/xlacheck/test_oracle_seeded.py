"""benchmarks/oracle_seeded.py seeds before each case module the shared oracle imports, and only
then (the oracle's ``_seed`` for TensorFlow cases, NumPy's for JAX ones); its workers start
through the wrapper; the loaded oracle is registered as an import would be (AutoGraph looks up the
module of the oracle's own wrapper lambda there). benchmarks/fix_score.py measures through the
wrapper wherever a corpus uses the shared oracle. No framework is imported."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
oracle_seeded = pytest.importorskip("oracle_seeded")
fix_score = pytest.importorskip("fix_score")


def fake_oracle(calls: list[str]) -> ModuleType:
    oracle = ModuleType("fake_oracle")
    oracle.__file__ = "/shared/eval/xla_cases/oracle.py"
    oracle.detect_framework = lambda path: "jax" if "jax" in path else "tf"  # type: ignore[attr-defined]
    oracle._seed = lambda: calls.append("seed")  # type: ignore[attr-defined]
    oracle._load_module = lambda path, name: calls.append(f"load {name}") or name  # type: ignore[attr-defined]
    return oracle


def test_each_import_of_a_tensorflow_case_follows_a_seed_and_workers_run_the_wrapper():
    calls: list[str] = []
    oracle = fake_oracle(calls)
    oracle_seeded.seed_imports(oracle)
    assert oracle._load_module("tf/case.py", "orig_case") == "orig_case"
    oracle._load_module("fixed/case.py", "fixed_case")
    assert calls == ["seed", "load orig_case", "seed", "load fixed_case"]
    assert oracle.__file__ == str(ROOT / "benchmarks" / "oracle_seeded.py")


def test_a_jax_case_is_imported_after_numpy_is_seeded_not_tensorflow():
    np = pytest.importorskip("numpy")
    calls: list[str] = []
    oracle = fake_oracle(calls)
    oracle_seeded.seed_imports(oracle)
    np.random.seed(123)
    np.random.random()
    oracle._load_module("jax/case.py", "orig_case")
    assert calls == ["load orig_case"]
    np.random.seed(0)
    first = np.random.random()
    np.random.seed(123)
    oracle._load_module("jax/case.py", "fixed_case")
    assert np.random.random() == first  # the state a fresh seed(0) gives


def test_the_loaded_oracle_is_registered_as_an_import(tmp_path):
    path = tmp_path / "oracle.py"
    path.write_text("def main(argv=None):\n    return 0\n")
    module = oracle_seeded.load(path)
    try:
        assert sys.modules[module.__name__] is module
    finally:
        sys.modules.pop(module.__name__, None)


def test_fix_score_measures_through_the_wrapper_only_where_the_shared_oracle_runs(tmp_path):
    shared = fix_score.find_corpus()
    if shared is None:
        pytest.skip("no shared/eval/xla_cases above this checkout")
    repo = ROOT / "eval_cases"
    assert fix_score.harness_script(repo, "seeded") == fix_score.SEEDED_ORACLE
    assert fix_score.harness_script(repo, "shared") == shared / "oracle.py"
    (tmp_path / "oracle.py").write_text("")  # a corpus with an oracle of its own keeps it
    assert fix_score.harness_script(tmp_path, "seeded") == tmp_path / "oracle.py"
