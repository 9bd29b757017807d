"""Do the JAX corpora's compiler labels hold on another XLA backend and jax version?

Every JAX case in ``eval_cases/jax`` and ``../shared/eval/xla_cases/jax`` is labelled by the shared
oracle on XLA:CPU (jax 0.10.2, this machine). A user's model runs on a GPU or TPU, under whatever
jax they have, so a label (compile error, wrong result, recompile count) that only holds on XLA:CPU
would make the rules tuned on it wrong. This script relabels the corpora with the same oracle on
another platform and compares case by case: the label and the trace counts of the first call and
of the ``ALT_ARGS`` calls.

    # on a machine with the other backend (e.g. the device machine: H200, jax 0.11.2):
    python benchmarks/jax_labels_across_backends.py label --oracle PATH/oracle.py \\
        --platform cuda,cpu --out DIR
    # here, with the labels that came back:
    python benchmarks/jax_labels_across_backends.py compare DIR
    python benchmarks/jax_labels_across_backends.py compare benchmarks/results/jax_h200   # checked in

Measured 2026-11-26 on an H200 (jax 0.11.2, the device machine's own JAX): every case that ran agrees
with the checked-in XLA:CPU labels (jax 0.10.2) in label and trace counts, on XLA:GPU
(``cuda,cpu``) and on that machine's XLA:CPU: repo 164/164 (one case needs Keras 3, absent there),
shared 34/34. The 285 JAX cases added the next session (the form matrices of
tools/generate_form_cases_jax.py and tools/generate_fix_forms.py) were relabelled on XLA:GPU the same
way (H200, jax 0.11.2, two batches with ``--cases-root``) and merged into the checked-in
``repo_jax_cuda-cpu.json``: repo 449/449 agree on XLA:GPU. The 290 cells of that matrix labelled next
(by the lead on the H200, XLA:GPU and XLA:CPU, jax 0.11.2; relabelled here with jax 0.10.2, every label
and trace count the same) were merged into both files: repo 739/739 agree on XLA:GPU, 454/454 on that
machine's XLA:CPU. The last 251 cells (the cache-key recompile cells of the tenth session) were
labelled the same way on 2026-11-27 (H200, jax 0.11.2, ``--cases-root`` with only those cells, 67 s
on XLA:GPU and 40 s on XLA:CPU with 14 jobs) and appended: repo 990/990 agree on XLA:GPU, 705/705 on
that machine's XLA:CPU; every JAX case of the repository now has a GPU label.

``label`` writes ``DIR/{repo,shared}_jax_<platform>.json`` (the oracle's own format; a ``,`` in the
platform becomes ``-``, since the device tool returns only plain names). ``--platform
cuda`` alone hides the CPU device, which ``jax.pure_callback`` and ``jax.debug.print`` need to
place their operands: that is a set-up artifact, not the compiler's verdict, so use ``cuda,cpu``
(JAX's default on a GPU machine). ``compare`` prints, per corpus and per relabelled platform, how
many cases agree with the checked-in labels and lists the ones that do not. It exits 1 when a case
that ran on both sides disagrees; a case that could not run on the other side (``harness_error``,
e.g. Keras 3 not installed there) is listed and counted apart.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = {
    "repo": (ROOT / "eval_cases" / "jax", ROOT / "eval_cases" / "labels_jax.json"),
    "shared": (ROOT.parent / "shared" / "eval" / "xla_cases" / "jax",
               ROOT.parent / "shared" / "eval" / "xla_cases" / "labels_jax.json"),
}
NOT_RUN = {"harness_error"}


def _cases(path: Path) -> dict[str, dict]:
    data = json.loads(path.read_text())
    cases = data["cases"] if isinstance(data, dict) and "cases" in data else data
    if isinstance(cases, dict):
        return cases
    return {case["case"]: case for case in cases}


def _verdict(case: dict) -> tuple:
    return case.get("label"), case.get("retraces"), case.get("alt_retraces")


def label(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, JAX_PLATFORMS=args.platform, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    for name, (cases_dir, _labels) in CORPORA.items():
        if args.cases_root:
            cases_dir = Path(args.cases_root) / name
        if not cases_dir.is_dir():
            print(f"{name}: {cases_dir} not found, skipped", file=sys.stderr)
            continue
        target = out / f"{name}_jax_{args.platform.replace(',', '-')}.json"
        cmd = [sys.executable, args.oracle, "label", str(cases_dir), "--out", str(target),
               "--jobs", str(args.jobs), "--timeout", str(args.timeout)]
        print(" ".join(cmd), flush=True)
        subprocess.run(cmd, env=env, check=True)
    return 0


def compare(args: argparse.Namespace) -> int:
    disagreements = 0
    for name, (_cases_dir, labels) in CORPORA.items():
        if not labels.is_file():
            print(f"{name}: {labels} not found, skipped")
            continue
        base = _cases(labels)
        for other in sorted(Path(args.dir).glob(f"{name}_jax_*.json")):
            relabelled = _cases(other)
            version = json.loads(other.read_text()).get("framework_version", "?")
            shared = sorted(set(base) & set(relabelled))
            not_run = [c for c in shared if relabelled[c].get("label") in NOT_RUN]
            differ = [c for c in shared if c not in not_run and _verdict(base[c]) != _verdict(relabelled[c])]
            ran = len(shared) - len(not_run)
            print(f"{name:7s} {other.stem:28s} ({version}): {ran - len(differ)}/{ran} agree "
                  f"(label and trace counts); {len(not_run)} could not run there; "
                  f"{len(set(base) - set(relabelled))} missing")
            for case in not_run:
                harness = relabelled[case].get("harness_error") or {}
                error = (harness.get("stderr_tail") or relabelled[case].get("error") or "").strip().splitlines()
                error = error[-1][:100] if error else ""
                print(f"    not run  {case}: {error}")
            for case in differ:
                print(f"    DIFFERS  {case}: here {_verdict(base[case])}, there {_verdict(relabelled[case])}")
            disagreements += len(differ)
    return 1 if disagreements else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("label", help="relabel both JAX corpora on --platform")
    run.add_argument("--oracle", required=True, help="path to the shared oracle.py")
    run.add_argument("--platform", default="cuda,cpu", help="JAX_PLATFORMS for the run (default cuda,cpu)")
    run.add_argument("--out", required=True)
    run.add_argument("--cases-root", help="folder holding repo/ and shared/ case folders (when the "
                                          "shared corpus was copied next to the oracle)")
    run.add_argument("--jobs", type=int, default=8)
    run.add_argument("--timeout", type=float, default=180)
    cmp = sub.add_parser("compare", help="compare relabelled corpora with the checked-in labels")
    cmp.add_argument("dir")
    args = parser.parse_args(argv)
    return label(args) if args.command == "label" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
