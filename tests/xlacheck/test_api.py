"""check_paths / fix_paths: discovery, pre-filter, cache, jobs, per-file-ignores, suppressions."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_fakes import CALLS, TF_HEADER, fake_engine  # noqa: F401  (fixture)

from xlacheck.api import check_paths, fix_paths, is_internal_error
from xlacheck.config import Settings
from xlacheck.diagnostics import FileResult, RunResult


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_engine) -> Path:  # noqa: F811
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(TF_HEADER + "y = x.numpy()\nif tf.reduce_any(m):\n    pass\n")
    (tmp_path / "pkg" / "plain.py").write_text("print('no framework here')\n")
    return tmp_path


def codes(result) -> list[tuple[str, int, str]]:  # type: ignore[no-untyped-def]
    return [(d.path, d.line, d.code) for d in result.diagnostics]


def test_lints_ml_files_and_skips_others_unparsed(project: Path) -> None:
    result = check_paths(["."], Settings(cache=False))
    assert codes(result) == [("pkg/model.py", 2, "XLA301"), ("pkg/model.py", 3, "XLA101")]
    skipped = {f.path: f.skipped for f in result.files}
    assert skipped == {"pkg/model.py": False, "pkg/plain.py": True}
    assert CALLS == ["pkg/model.py"]  # the engine never saw plain.py
    assert {f.path: f.lines for f in result.files} == {"pkg/model.py": 4, "pkg/plain.py": 1}


def test_default_path_is_cwd_and_settings_come_from_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.xlacheck]\nignore = ["XLA3"]\ncache-dir = "c"\n')
    result = check_paths([])
    assert codes(result) == [("pkg/model.py", 3, "XLA101")]
    assert (project / "c").is_dir()


def test_default_excludes_but_explicit_paths_are_linted(project: Path) -> None:
    site = project / ".venv" / "lib" / "site-packages" / "transformers"
    site.mkdir(parents=True)
    (site / "modeling_tf_x.py").write_text(TF_HEADER + "a = b.numpy()\n")
    (project / "build").mkdir()
    (project / "build" / "gen.py").write_text(TF_HEADER + "a = b.numpy()\n")
    walked = check_paths(["."], Settings(cache=False))
    assert {f.path for f in walked.files} == {"pkg/model.py", "pkg/plain.py"}
    named = check_paths([str(site), "build/gen.py"], Settings(cache=False))
    assert codes(named) == [
        (".venv/lib/site-packages/transformers/modeling_tf_x.py", 2, "XLA301"),
        ("build/gen.py", 2, "XLA301"),
    ]
    forced = check_paths(["build/gen.py"], Settings(cache=False, force_exclude=True))
    assert forced.files == ()


def test_missing_path_is_a_reported_error_not_an_exception(project: Path) -> None:
    result = check_paths(["nope.py"], Settings(cache=False))
    (error,) = result.errors
    assert error.path == "nope.py" and "no such file" in error.message and not is_internal_error(error)


def test_syntax_error_is_reported_and_the_run_goes_on(project: Path) -> None:
    (project / "pkg" / "broken.py").write_text(TF_HEADER + "def f(:\n")
    result = check_paths(["."], Settings(cache=False))
    (error,) = result.errors
    assert error.path == "pkg/broken.py" and error.line == 2 and not is_internal_error(error)
    assert codes(result)[0][0] == "pkg/model.py"


def test_undecodable_file_is_a_reported_error(project: Path) -> None:
    (project / "pkg" / "bad.py").write_bytes(b"import tensorflow\nx = '\xff\xfe'\n")
    (error,) = check_paths(["pkg/bad.py"], Settings(cache=False)).errors
    assert "cannot decode" in error.message


def test_cache_hit_skips_the_engine_and_returns_equal_results(project: Path) -> None:
    settings = Settings(cache_dir=project / "cache")
    cold = check_paths(["."], settings)
    assert CALLS == ["pkg/model.py"] and not any(f.cached for f in cold.files)
    CALLS.clear()
    warm = check_paths(["."], settings)
    assert CALLS == []
    assert warm.diagnostics == cold.diagnostics
    assert [f.cached for f in warm.files if not f.skipped] == [True]
    assert (project / "cache" / "CACHEDIR.TAG").is_file()
    assert not list((project / "cache").rglob(".tmp-*"))  # atomic writes leave no temp files


def test_cache_key_covers_content_and_selection(project: Path) -> None:
    settings = Settings(cache_dir=project / "cache")
    check_paths(["."], settings)
    CALLS.clear()
    check_paths(["."], settings.with_overrides(select=["XLA1"]))
    assert CALLS == ["pkg/model.py"]  # other selected codes: another key
    CALLS.clear()
    (project / "pkg" / "model.py").write_text(TF_HEADER + "z = w.numpy()\n")
    result = check_paths(["."], settings)
    assert CALLS == ["pkg/model.py"] and codes(result) == [("pkg/model.py", 2, "XLA301")]


def test_cache_key_covers_the_path(project: Path) -> None:
    """The same bytes at another path are analyzed again: the engine's answer depends on the path
    (a test module's test functions run eagerly; module names decide AutoGraph's do-not-convert
    list and the project's facts)."""
    settings = Settings(cache_dir=project / "cache")
    check_paths(["."], settings)
    CALLS.clear()
    (project / "pkg" / "test_model.py").write_text((project / "pkg" / "model.py").read_text())
    check_paths(["."], settings)
    assert CALLS == ["pkg/test_model.py"]


def test_corrupt_cache_entry_is_a_miss(project: Path) -> None:
    settings = Settings(cache_dir=project / "cache")
    check_paths(["."], settings)
    for entry in (project / "cache").rglob("*.json"):
        entry.write_text("{not json")
    CALLS.clear()
    result = check_paths(["."], settings)
    assert CALLS == ["pkg/model.py"] and len(result.diagnostics) == 2


def test_no_cache_writes_nothing(project: Path) -> None:
    check_paths(["."], Settings(cache=False, cache_dir=project / "cache"))
    assert not (project / "cache").exists()


def test_suppressions_apply_after_cache(project: Path) -> None:
    (project / "pkg" / "model.py").write_text(TF_HEADER + "y = x.numpy()  # noqa: XLA3\nif tf.a:  # xlacheck: ignore[XLA101]\n    pass\n")
    settings = Settings(cache_dir=project / "cache")
    assert check_paths(["."], settings).diagnostics == ()
    assert check_paths(["."], settings).diagnostics == ()  # from the cache, still suppressed


def test_jobs_give_the_same_result_as_one_process(project: Path) -> None:
    for i in range(12):
        (project / "pkg" / f"m{i}.py").write_text(TF_HEADER + f"v{i} = t.numpy()\n" * (i % 3 + 1))
    one = check_paths(["."], Settings(cache=False, jobs=1))
    two = check_paths(["."], Settings(cache=False, jobs=2))
    assert one == two and len(one.diagnostics) == 2 + sum(i % 3 + 1 for i in range(12))


def test_internal_engine_error_is_flagged_and_not_cached(project: Path) -> None:
    (project / "pkg" / "crash.py").write_text(TF_HEADER + "CRASH_RULE = 1\n")
    settings = Settings(cache_dir=project / "cache")
    (error,) = check_paths(["pkg/crash.py"], settings).errors
    assert is_internal_error(error)
    CALLS.clear()
    check_paths(["pkg/crash.py"], settings)
    assert CALLS == ["pkg/crash.py"]


def test_fix_paths_writes_safe_fixes_and_reports_what_remains(project: Path) -> None:
    run = fix_paths(["."], Settings(cache=False))
    assert (project / "pkg" / "model.py").read_text() == TF_HEADER + "y = x\nif tf.reduce_any(m):\n    pass\n"
    assert codes(run.result) == [("pkg/model.py", 3, "XLA101")]
    (fix,) = run.fixes
    assert fix.written and [d.code for d in fix.fixed] == ["XLA301"]


def test_fix_paths_without_write_changes_nothing(project: Path) -> None:
    before = (project / "pkg" / "model.py").read_text()
    run = fix_paths(["."], Settings(cache=False), write=False)
    assert (project / "pkg" / "model.py").read_text() == before
    (fix,) = run.fixes
    assert fix.changed and not fix.written and fix.text.startswith(TF_HEADER + "y = x\n")


def test_fix_respects_suppressions_and_unsafe_flag(project: Path) -> None:
    path = project / "pkg" / "model.py"
    path.write_text(TF_HEADER + "a = x.numpy()  # noqa\nb = tf.boolean_mask(x, m)\n")
    fix_paths(["."], Settings(cache=False))
    assert path.read_text() == TF_HEADER + "a = x.numpy()  # noqa\nb = tf.boolean_mask(x, m)\n"
    fix_paths(["."], Settings(cache=False), unsafe=True)
    assert path.read_text() == TF_HEADER + "a = x.numpy()  # noqa\nb = masked_select(x, m)\n"


def test_fix_that_breaks_syntax_is_never_written(project: Path) -> None:
    path = project / "pkg" / "model.py"
    path.write_text(TF_HEADER + "a = x.item()\n")
    run = fix_paths(["."], Settings(cache=False))
    assert path.read_text() == TF_HEADER + "a = x.item()\n"
    (fix,) = run.fixes
    assert fix.error is not None and "does not parse" in fix.error and not fix.written
    assert codes(run.result) == [("pkg/model.py", 2, "XLA302")]


def test_result_is_json_serializable_through_the_reporter(project: Path) -> None:
    from xlacheck.reporters import render

    payload = json.loads(render("json", check_paths(["."], Settings(cache=False))))
    assert [d["code"] for d in payload["diagnostics"]] == ["XLA301", "XLA101"]
    assert os.sep not in payload["diagnostics"][0]["path"] or os.sep == "/"


def test_concurrent_runs_share_the_cache_safely(project: Path) -> None:
    """Several processes filling one cache at once: every entry readable, results identical."""
    from concurrent.futures import ProcessPoolExecutor

    for i in range(20):
        (project / "pkg" / f"m{i}.py").write_text(TF_HEADER + f"v{i} = t.numpy()\n")
    settings = Settings(cache_dir=project / "cache", jobs=1)
    with ProcessPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(check_paths, [["."]] * 4, [settings] * 4))
    assert all(r.diagnostics == results[0].diagnostics for r in results)
    for entry in (project / "cache").rglob("*.json"):
        json.loads(entry.read_text())
    assert not list((project / "cache").rglob(".tmp-*"))
    CALLS.clear()
    assert check_paths(["."], settings).diagnostics == results[0].diagnostics and CALLS == []


def test_a_warm_run_never_starts_a_pool(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    for i in range(20):
        (project / "pkg" / f"m{i}.py").write_text(TF_HEADER + f"v{i} = t.numpy()\n")
    settings = Settings(cache_dir=project / "cache")  # jobs=None: automatic
    cold = check_paths(["."], settings)  # 21 small misses: one process (PARALLEL_MIN_BYTES)

    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool was started for cached files")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    assert check_paths(["."], settings) == RunResult(tuple(FileResult(f.path, f.diagnostics, f.error, f.skipped, not f.skipped, f.lines) for f in cold.files))


def test_a_small_package_is_linted_without_a_pool(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 (start-up on a small package): 30 short files stay in one process; a pool starts
    only when there is enough source to pay for it (PARALLEL_MIN_BYTES)."""
    import concurrent.futures

    import xlacheck.api

    for i in range(30):
        (project / "pkg" / f"m{i}.py").write_text(TF_HEADER + f"v{i} = t.numpy()\n")
    started: list[int] = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def counting_pool(*args: object, **kwargs: object) -> concurrent.futures.ProcessPoolExecutor:
        started.append(1)
        return real_pool(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counting_pool)
    small = check_paths(["."], Settings(cache=False))
    assert started == [] and len(small.files) == 32
    monkeypatch.setattr(xlacheck.api, "PARALLEL_MIN_BYTES", 1)
    pooled = check_paths(["."], Settings(cache=False))
    assert started == [1] and pooled == small


def test_rewrites_attach_fixes_before_suppression_and_into_the_cache(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md (## Fixes): attach_fixes runs after check_source and before suppressions; the cache keeps its fixes."""
    import dataclasses

    import xlacheck.rewrites
    from xlacheck.diagnostics import Edit, Fix

    seen: list[list[str]] = []

    def attach(source, tree, diagnostics):  # type: ignore[no-untyped-def]
        seen.append([d.code for d in diagnostics])
        return tuple(
            dataclasses.replace(d, fix=Fix("use tf.cond", (Edit(d.start, d.end, "if not tf."),))) if d.fix is None else d
            for d in diagnostics
        )

    monkeypatch.setattr(xlacheck.rewrites, "attach_fixes", attach)
    (project / "pkg" / "model.py").write_text(TF_HEADER + "y = x.numpy()  # noqa\nif tf.reduce_any(m):\n    pass\n")
    settings = Settings(cache_dir=project / "cache")
    cold = check_paths(["."], settings)
    assert seen == [["XLA301", "XLA101"]]  # suppressed XLA301 still went through attach_fixes
    (d,) = cold.diagnostics
    assert d.code == "XLA101" and d.fix is not None and d.fix.message == "use tf.cond"
    assert check_paths(["."], settings).diagnostics == cold.diagnostics and len(seen) == 1  # fixes from the cache
    fix_paths(["."], Settings(cache=False))
    assert (project / "pkg" / "model.py").read_text().splitlines()[2] == "if not tf.reduce_any(m):"
