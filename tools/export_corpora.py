"""Export the real-code corpora of eval_cases/real_code/manifest-N*.json out of fetched git snapshots.

    python tools/export_corpora.py --root DIR --batch N [--batch M ...] [--mirror DIR] [--manifests DIR]

Each manifest row ``{"corpus": "owner/name", "commit", "kind": "tf"|"torch", "subdirs", "lines", "note"}``
is exported from the bare git directory ``MIRROR/owner+name/repo`` (the ``fetch`` tool makes it; it
cannot run from a script, so fetch first) into ``ROOT/N/KIND/owner+name``: every ``.py`` file under
``subdirs`` (paths inside the repository, folders or files; ``[]``: the whole repository) and the
config files (``*.yaml *.yml *.json *.toml *.cfg *.ini`` under 2 MB, outside ``tests/`` and ``docs/``
folders, anywhere in the repository: the project facts read them to decide which modules run).
A corpus whose folder exists is left as it is (delete it to export again). A missing snapshot or a
snapshot without the manifest's commit is reported in one line and skipped; prints one line per
corpus exported, with its ``.py`` files and lines (to check against the manifest's ``lines``).
Exits 1 when anything was missing.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFESTS = ROOT / "eval_cases" / "real_code"
MIRROR = Path("/work/.mirror")
CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".cfg", ".ini")
CONFIG_MAX_BYTES = 2 * 1024 * 1024
KINDS = ("tf", "torch")


@dataclass(frozen=True)
class Corpus:
    """One manifest row of batch ``batch``."""

    batch: int
    corpus: str
    commit: str
    kind: str
    subdirs: tuple[str, ...]
    lines: int
    note: str

    @property
    def dirname(self) -> str:
        return self.corpus.replace("/", "+")

    def path(self, root: Path) -> Path:
        """Where tools/export_corpora.py puts it under ``root``."""
        return root / str(self.batch) / self.kind / self.dirname


def batch_files(directory: Path, stem: str, suffix: str, batch: int) -> list[Path]:
    """``STEM-N.SUFFIX`` and ``STEM-N-*.SUFFIX`` (``manifest-20.json``, ``manifest-20-torch.json``)."""
    exact = directory / f"{stem}-{batch}{suffix}"
    return ([exact] if exact.is_file() else []) + sorted(directory.glob(f"{stem}-{batch}-*{suffix}"))


def batches(directory: Path = MANIFESTS) -> list[int]:
    """The batch numbers that have a manifest."""
    found = set()
    for path in directory.glob("manifest-*.json"):
        head = path.stem.split("-")[1]
        if head.isdigit():
            found.add(int(head))
    return sorted(found)


def load_manifest(batch: int, directory: Path = MANIFESTS) -> list[Corpus]:
    """Every row of ``manifest-N*.json`` (ValueError on a malformed row or a corpus listed twice)."""
    rows: list[Corpus] = []
    for path in batch_files(directory, "manifest", ".json", batch):
        for raw in json.loads(path.read_text()):
            missing = {"corpus", "commit", "kind"} - set(raw)
            if missing or raw["kind"] not in KINDS or raw["corpus"].count("/") != 1:
                raise ValueError(f"{path}: bad row {raw!r} (missing {sorted(missing)} or bad kind/corpus)")
            rows.append(Corpus(batch, raw["corpus"], raw["commit"], raw["kind"], tuple(raw.get("subdirs") or ()),
                               int(raw.get("lines", 0)), raw.get("note", "")))
    names = [row.corpus for row in rows]
    if len(names) != len(set(names)):
        raise ValueError(f"batch {batch}: a corpus is listed twice: {sorted(n for n in names if names.count(n) > 1)}")
    return rows


def _git(git_dir: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, check=False, input=stdin)


def _wanted(path: str, size: int, subdirs: tuple[str, ...]) -> bool:
    parts = path.split("/")
    if path.endswith(".py"):
        return not subdirs or any(path == s.rstrip("/") or path.startswith(s.rstrip("/") + "/") for s in subdirs)
    return (path.endswith(CONFIG_SUFFIXES) and size < CONFIG_MAX_BYTES
            and not any(p in ("tests", "test", "docs") for p in parts[:-1]))


def export(corpus: Corpus, root: Path, mirror: Path = MIRROR) -> str:
    """Export one corpus; returns the line to print (``missing ...`` when it could not)."""
    target = corpus.path(root)
    git_dir = mirror / corpus.dirname / "repo"
    if target.exists():
        return f"present: {corpus.corpus} -> {target} (left as it is)"
    if not git_dir.is_dir():
        return f"missing snapshot: {corpus.corpus} (no {git_dir}; fetch github:{corpus.corpus} first)"
    if _git(git_dir, "cat-file", "-e", f"{corpus.commit}^{{commit}}").returncode != 0:
        head = _git(git_dir, "rev-parse", "HEAD").stdout.decode().strip()
        return f"missing commit: {corpus.corpus} {corpus.commit} (the snapshot's HEAD is {head})"
    listing = _git(git_dir, "ls-tree", "-r", "-l", "-z", corpus.commit)
    wanted: dict[str, str] = {}  # path -> blob id
    for entry in listing.stdout.decode(errors="surrogateescape").split("\0"):
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        kind, oid, size = meta.split()[1], meta.split()[2], meta.split()[3]
        if kind == "blob" and _wanted(path, int(size) if size.isdigit() else 0, corpus.subdirs):
            wanted[path] = oid
    # a snapshot may leave its largest files out (listed in the tree, no blob): export the rest and say so
    check = _git(git_dir, "cat-file", "--batch-check", stdin="".join(f"{oid}\n" for oid in wanted.values()).encode())
    absent = {line.split()[0] for line in check.stdout.decode().splitlines() if line.endswith(" missing")}
    files = [path for path, oid in wanted.items() if oid not in absent]
    left_out = [path for path, oid in wanted.items() if oid in absent]
    archive = _git(git_dir, "archive", "--format=tar", corpus.commit, "--", *files) if files else None
    if archive is not None and archive.returncode != 0:
        return f"missing files: {corpus.corpus} (git archive: {archive.stderr.decode(errors='replace').strip()})"
    target.mkdir(parents=True)
    py_files = lines = 0
    if archive is not None:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            members = [m for m in tar.getmembers()
                       if m.isfile() and not m.name.startswith("/") and ".." not in m.name.split("/")]
            # the "data" filter (refuse links out of the target, device files, absolute paths) exists from
            # Python 3.11.4; earlier 3.11 releases (Debian's 3.11.2) extract the members checked above as they are
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(target, members=members, **safe)  # noqa: S202 - members checked above
        for exported in target.rglob("*.py"):
            py_files += 1
            lines += exported.read_bytes().count(b"\n")
    absent_note = f"; {len(left_out)} files absent from the snapshot ({', '.join(left_out[:3])}" \
        f"{', ...' if len(left_out) > 3 else ''})" if left_out else ""
    what = f"{py_files} .py files, {lines} lines{absent_note}"
    return f"exported: {corpus.corpus} {corpus.commit[:12]} -> {target}: {what}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, required=True, help="export into ROOT/N/KIND/owner+name")
    ap.add_argument("--batch", type=int, action="append", required=True, help="batch number (repeatable)")
    ap.add_argument("--mirror", type=Path, default=MIRROR, help="where the fetched snapshots are (owner+name/repo)")
    ap.add_argument("--manifests", type=Path, default=MANIFESTS, help="the folder of manifest-N*.json")
    args = ap.parse_args(argv)
    missing = False
    for batch in args.batch:
        rows = load_manifest(batch, args.manifests)
        if not rows:
            print(f"missing manifest: batch {batch} (no {args.manifests}/manifest-{batch}*.json)")
            missing = True
        for row in rows:
            line = export(row, args.root, args.mirror)
            missing |= line.startswith("missing")
            print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
