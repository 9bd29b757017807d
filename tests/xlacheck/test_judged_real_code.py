"""benchmarks/judged_real_code.py and tools/export_corpora.py on a small synthetic batch (no network).

A batch of one TensorFlow corpus and one PyTorch corpus is written under tmp_path with its manifest and
judgments; the scorer must lint both with the CLI (`--torch-xla` for the PyTorch one), as a user runs it,
match judgments by text (after the line moved), fall back to the line when the text changed, list
unjudged findings and stale judgments, and count true/true°/false, true % and false per 10k lines.
The exporter is run on a bare git repository made here.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


TF_FILE = """import tensorflow as tf


@tf.function(jit_compile=True, autograph=False)
def scale(x):
    if tf.reduce_sum(x) > 10.0:
        x = x / 2.0
    return x


@tf.function(jit_compile=True, autograph=False)
def clip(x):
    if tf.reduce_max(x) > 1.0:
        x = x - 1.0
    return x
"""

TORCH_FILE = """import torch
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


def train(model, loader, opt):
    losses = []
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        losses.append(loss.item())
        loss.backward()
        xm.optimizer_step(opt)
    return losses
"""


def _batch(tmp_path: Path) -> tuple[Path, Path]:
    root, manifests = tmp_path / "corpora", tmp_path / "real_code"
    (root / "7" / "tf" / "a+b").mkdir(parents=True)
    (root / "7" / "torch" / "c+d" / "pkg").mkdir(parents=True)
    (root / "7" / "tf" / "a+b" / "m.py").write_text(TF_FILE)
    (root / "7" / "tf" / "a+b" / "broken.py").write_text("import tensorflow as tf\n\ndef (:\n")
    (root / "7" / "torch" / "c+d" / "pkg" / "train.py").write_text(TORCH_FILE)
    manifests.mkdir()
    rows = [{"corpus": "a/b", "commit": "0" * 40, "kind": "tf", "subdirs": [], "lines": 20000, "note": ""},
            {"corpus": "c/d", "commit": "1" * 40, "kind": "torch", "subdirs": [], "lines": 10000, "note": ""}]
    (manifests / "manifest-7-tf.json").write_text(json.dumps(rows[:1]))
    (manifests / "manifest-7-torch.json").write_text(json.dumps(rows[1:]))
    judged = [
        # the text matches although the line moved (judged when it was line 4)
        {"corpus": "a/b", "path": "m.py", "line": 4, "code": "XLA101", "text": "if tf.reduce_sum(x) > 10.0:",
         "verdict": "true", "reason": "jit_compile", "checked": "read", "judged_at": "x", "preview": False},
        # the text changed: the line decides
        {"corpus": "a/b", "path": "m.py", "line": 13, "code": "XLA101", "text": "if old_text:",
         "verdict": "false", "reason": "r", "checked": "read", "judged_at": "x", "preview": False},
        # no finding: stale
        {"corpus": "a/b", "path": "gone.py", "line": 1, "code": "XLA101", "text": "x", "verdict": "false",
         "reason": "r", "checked": "read", "judged_at": "x", "preview": False},
        {"corpus": "c/d", "path": "pkg/train.py", "line": 10, "code": "XLA350", "text": "losses.append(loss.item())",
         "verdict": "true°", "reason": "per step", "checked": "read", "judged_at": "x", "preview": False},
    ]
    (manifests / "judgments-7.jsonl").write_text("".join(json.dumps(j, ensure_ascii=False) + "\n" for j in judged))
    return root, manifests


def test_score_matches_counts_and_lists(tmp_path: Path) -> None:
    scorer = _load("judged_real_code", ROOT / "benchmarks" / "judged_real_code.py")
    root, manifests = _batch(tmp_path)
    report = scorer.score(root, [7], False, directory=manifests)
    tf = {r["corpus"]: r for r in report["corpora"]}["a/b"]
    assert (tf["findings"], tf["true"], tf["false"], tf["unjudged"]) == (2, 1, 1, 0)
    assert tf["true_pct"] == 50.0 and tf["false_per_10k"] == 0.5
    torch = {r["corpus"]: r for r in report["corpora"]}["c/d"]
    codes = [r["code"] for r in report["rules"] if r["kind"] == "torch"]
    assert "XLA350" in codes
    assert torch["true°"] == 1 and torch["true"] == 0
    # any other PyTorch finding is listed unjudged with its path and text
    assert torch["unjudged"] == torch["findings"] - 1
    assert all(u["corpus"] == "c/d" and u["path"] == "pkg/train.py" for u in report["unjudged"])
    assert [s["path"] for s in report["stale"]] == ["gone.py"]
    assert len(report["errors"]) == 1 and report["errors"][0].startswith("not linted: 7 a/b broken.py: syntax error")
    text = scorer.render(report)
    assert "| a/b | 20,000 | 2 | 1 | 0 | 0 | 1 | 0 | 50.0% | 0.50 |" in text
    assert "| corpus | lines | findings | true | true° | true* | false | unjudged | true % | false per 10k lines |\n" \
        "|---|---|---|---|---|---|---|---|---|---|\n" in text
    assert "stale: 7 a/b gone.py:1: XLA101 (false) x" in text


def test_absent_corpus_and_bad_judgment(tmp_path: Path) -> None:
    scorer = _load("judged_real_code", ROOT / "benchmarks" / "judged_real_code.py")
    root, manifests = _batch(tmp_path)
    report = scorer.score(tmp_path / "elsewhere", [7], False, directory=manifests)
    assert len(report["absent"]) == 2 and report["corpora"] == []
    (manifests / "judgments-7-extra.jsonl").write_text(json.dumps({"corpus": "a/b", "verdict": "maybe"}) + "\n")
    with pytest.raises(ValueError, match="bad judgment"):
        scorer.load_judgments(7, manifests)


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def _committed_tree(work: Path, files: dict[str, str]) -> str:
    """A git repository at ``work`` with ``files`` committed; its commit."""
    for rel, text in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text)
    _git("init", "-q", cwd=work)
    _git("add", ".", cwd=work)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x", cwd=work)
    return _git("rev-parse", "HEAD", cwd=work)


def test_export_from_a_bare_snapshot(tmp_path: Path) -> None:
    exporter = _load("export_corpora", ROOT / "tools" / "export_corpora.py")
    work = tmp_path / "work"
    commit = _committed_tree(work, {"src/train.py": "a = 1\nb = 2\n", "src/tests/test_x.py": "c = 3\n",
                                    "other/x.py": "d\n", "configs/run.yaml": "x: 1\n", "tests/fixture.json": "{}\n",
                                    "docs/conf.toml": "\n"})
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    _git("clone", "-q", "--bare", str(work), str(mirror / "o+n" / "repo"), cwd=tmp_path)
    manifests = tmp_path / "real_code"
    manifests.mkdir()
    rows = [{"corpus": "o/n", "commit": commit, "kind": "torch", "subdirs": ["src"], "lines": 3, "note": ""},
            {"corpus": "o/missing", "commit": commit, "kind": "tf", "subdirs": [], "lines": 1, "note": ""},
            {"corpus": "o/n2", "commit": "f" * 40, "kind": "tf", "subdirs": [], "lines": 1, "note": ""}]
    (manifests / "manifest-3.json").write_text(json.dumps(rows))
    _git("clone", "-q", "--bare", str(work), str(mirror / "o+n2" / "repo"), cwd=tmp_path)
    root = tmp_path / "corpora"
    assert exporter.main(["--root", str(root), "--batch", "3", "--mirror", str(mirror),
                          "--manifests", str(manifests)]) == 1
    got = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert got == ["3/torch/o+n/configs/run.yaml", "3/torch/o+n/src/tests/test_x.py", "3/torch/o+n/src/train.py"]
    lines = [exporter.export(exporter.load_manifest(3, manifests)[i], root, mirror) for i in range(3)]
    assert lines[0].startswith("present: o/n")
    assert lines[1].startswith("missing snapshot: o/missing")
    assert lines[2].startswith("missing commit: o/n2 " + "f" * 40)


def test_match_takes_one_judgment_per_finding_on_a_line() -> None:
    scorer = _load("judged_real_code", ROOT / "benchmarks" / "judged_real_code.py")
    finding = scorer.Finding(1, "a/b", "torch", "m.py", 10, 5, "XLA250", "msg", "x[m] = y[m]")
    other = scorer.Finding(1, "a/b", "torch", "m.py", 10, 12, "XLA250", "msg", "x[m] = y[m]")
    first = scorer.Judgment(1, "a/b", "m.py", 10, "XLA250", "x[m] = y[m]", "true", "r")
    second = scorer.Judgment(1, "a/b", "m.py", 10, "XLA250", "x[m] = y[m]", "false", "r")
    verdicts, stale = scorer.match([finding, other], [first, second])
    assert [j.verdict for j in verdicts] == ["true", "false"] and stale == []
    # one judgment, two findings: the judgment is of one of them, the other is unjudged (review20: it was
    # counted judged, so a new finding on a line whose text repeats a judged one was never listed)
    verdicts, stale = scorer.match([finding, other], [second])
    assert verdicts == [second, None] and stale == []
    elsewhere = scorer.Finding(1, "a/b", "torch", "m.py", 80, 5, "XLA250", "msg", "x[m] = y[m]")
    verdicts, stale = scorer.match([finding, elsewhere], [first])
    assert verdicts == [first, None] and stale == []
    # a finding whose text changed falls back to an unused judgment of its line
    changed = scorer.Finding(1, "a/b", "torch", "m.py", 10, 5, "XLA250", "msg", "x[mask] = y[mask]")
    verdicts, stale = scorer.match([finding, changed], [first, second])
    assert verdicts == [first, second] and stale == []
    moved = scorer.Finding(1, "a/b", "torch", "m.py", 30, 5, "XLA250", "msg", "x[m] = y[m]")
    near = scorer.Judgment(1, "a/b", "m.py", 28, "XLA250", "x[m] = y[m]", "true°", "r")
    verdicts, stale = scorer.match([moved], [second, near])
    assert verdicts[0] is near and stale == [second]
    # another code on the same line is not matched
    verdicts, _ = scorer.match([scorer.Finding(1, "a/b", "torch", "m.py", 10, 5, "XLA350", "m", "x[m] = y[m]")],
                               [first])
    assert verdicts == [None]


def test_committed_manifests_and_judgments_are_well_formed() -> None:
    """Every eval_cases/real_code/manifest-N*.json and judgments-N*.jsonl (any lane's) loads, names corpora of
    its own batch's manifest, and carries the keys the scorer and a later judge need."""
    scorer = _load("judged_real_code", ROOT / "benchmarks" / "judged_real_code.py")
    exporter = _load("export_corpora", ROOT / "tools" / "export_corpora.py")
    found = exporter.batches()
    assert 20 in found
    for batch in found:
        corpora = {row.corpus: row for row in exporter.load_manifest(batch)}
        for row in corpora.values():
            assert len(row.commit) == 40 and int(row.commit, 16) >= 0 and row.lines > 0, row
        for path in exporter.batch_files(exporter.MANIFESTS, "judgments", ".jsonl", batch):
            for text in path.read_text().splitlines():
                raw = json.loads(text)
                assert raw["checked"] in ("read", "rebuilt") and raw["reason"] and raw["judged_at"], raw
                assert isinstance(raw["preview"], bool) and raw["line"] > 0 and raw["text"], raw
        judged = scorer.load_judgments(batch)
        assert all(j.corpus in corpora for j in judged), sorted({j.corpus for j in judged} - set(corpora))


def test_tf_corpus_files_are_not_dropped_by_gitignore_or_default_excludes(tmp_path: Path) -> None:
    """review20: the CLI respected a .gitignore inside an exported corpus (every exported file is tracked there)
    and skipped build/, dist/ ... folders silently, while the manifest's lines count them."""
    scorer = _load("judged_real_code", ROOT / "benchmarks" / "judged_real_code.py")
    root, manifests = tmp_path / "corpora", tmp_path / "real_code"
    corpus = root / "5" / "tf" / "a+b"
    (corpus / "build").mkdir(parents=True)
    (corpus / "m.py").write_text(TF_FILE)
    (corpus / "build" / "gen.py").write_text(TF_FILE)
    (corpus / ".gitignore").write_text("m.py\n")
    manifests.mkdir()
    (manifests / "manifest-5.json").write_text(json.dumps(
        [{"corpus": "a/b", "commit": "0" * 40, "kind": "tf", "subdirs": [], "lines": 32, "note": ""}]))
    report = scorer.score(root, [5], False, directory=manifests)
    assert report["corpora"][0]["findings"] == 2 and report["corpora"][0]["unjudged"] == 2
    assert report["errors"] == ["not linted: 5 a/b build/gen.py: in a build/ folder, which the CLI excludes by default"]


def test_export_leaves_out_blobs_the_snapshot_lacks_and_says_so(tmp_path: Path) -> None:
    """A fetched snapshot may list its largest files in the tree without their blobs (tfjax-prec20: the
    exporter crashed on learned_optimization, ott and evojax); the rest is exported, the line names them."""
    exporter = _load("export_corpora", ROOT / "tools" / "export_corpora.py")
    work = tmp_path / "work"
    commit = _committed_tree(work, {"pkg/model.py": "a = 1\n", "pkg/data.json": '{"big": 1}\n'})
    blob = _git("rev-parse", "HEAD:pkg/data.json", cwd=work)
    repo = tmp_path / "mirror" / "o+n" / "repo"
    repo.parent.mkdir(parents=True)
    _git("clone", "-q", "--bare", str(work), str(repo), cwd=tmp_path)
    loose = repo / "objects" / blob[:2] / blob[2:]
    assert loose.is_file()
    loose.unlink()  # the snapshot lacks this blob
    manifests = tmp_path / "real_code"
    manifests.mkdir()
    (manifests / "manifest-4.json").write_text(json.dumps(
        [{"corpus": "o/n", "commit": commit, "kind": "tf", "subdirs": [], "lines": 1, "note": ""}]))
    line = exporter.export(exporter.load_manifest(4, manifests)[0], tmp_path / "corpora", tmp_path / "mirror")
    assert line.startswith("exported: o/n")
    assert line.endswith("1 .py files, 1 lines; 1 files absent from the snapshot (pkg/data.json)")
    assert (tmp_path / "corpora" / "4" / "tf" / "o+n" / "pkg" / "model.py").read_text() == "a = 1\n"
