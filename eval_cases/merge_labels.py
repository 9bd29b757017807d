"""Merge oracle outputs into labels.json (labelling a few new cases without re-labelling all).

    python ../../shared/eval/xla_cases/oracle.py label NEWDIR/tf --out /tmp/new.json   # from eval_cases/
    python eval_cases/merge_labels.py /tmp/new.json [/tmp/more.json ...]

Records are keyed by case name; a later file wins. Each merged record gets ``file`` =
``tf/NAME.py`` (or ``jax/``) and ``split`` from split.json (the oracle's own dev/heldout split is
computed over whatever folder it was given, so it is replaced). Records whose case file no longer
exists are dropped, and the summary is recomputed.

``--torch`` merges ``oracle_torch.py label --out`` files (a dict keyed by case file name) into
``torch_xla/labels.json``: new records are added or replace the old record of the same file, the other
records are left as they are, records of deleted files are dropped (label only the new cases, from a
scratch folder, after ``split.py --write --torch``):

    python eval_cases/merge_labels.py --torch /tmp/new_torch.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from split import HERE, compute, compute_torch


def summarize(cases: list[dict]) -> dict:
    out: dict = {}
    for c in cases:
        s = out.setdefault(c["category"], {"cases": 0, "fail": 0, "compile": 0, "train": 0, "validation": 0,
                                           "labels": Counter()})
        s["cases"] += 1
        if c.get("xla_fail") is not None:
            s["fail" if c["xla_fail"] else "compile"] += 1
        s[c["split"]] += 1
        s["labels"][c["label"]] += 1
    for s in out.values():
        s["labels"] = dict(sorted(s["labels"].items()))
    return dict(sorted(out.items()))


def merge(new_files: list[Path], labels_name: str = "labels.json", folder: str = "tf") -> dict:
    split = compute()
    target = HERE / labels_name
    doc = json.loads(target.read_text()) if target.exists() else {"cases": []}
    by_case = {c["case"]: c for c in doc["cases"]}
    for path in new_files:
        new = json.loads(path.read_text())
        for key in ("generated_by", "framework", "framework_version", "label_rtol", "label_atol"):
            doc[key] = new.get(key, doc.get(key))
        for rec in new["cases"]:
            by_case[rec["case"]] = rec
    present = {key.split("/", 1)[1][:-3] for key in split if key.startswith(folder + "/")}
    cases = []
    for name in sorted(by_case):
        if name not in present:
            continue
        rec = by_case[name]
        rec["file"] = f"{folder}/{name}.py"
        rec["split"] = split[rec["file"]]
        cases.append(rec)
    doc["dir"] = folder
    doc["cases"] = cases
    doc["summary"] = summarize(cases)
    doc["note"] = ("oracle.py label output (../shared/eval/xla_cases/oracle.py), merged by eval_cases/merge_labels.py; "
                   "split is eval_cases/split.json")
    target.write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def merge_torch(new_files: list[Path]) -> dict:
    target = HERE / "torch_xla" / "labels.json"
    doc = json.loads(target.read_text()) if target.exists() else {}
    for path in new_files:
        doc.update(json.loads(path.read_text()))
    present = {p.name for p in (HERE / "torch_xla" / "cases").glob("*.py")}
    doc = {name: rec for name, rec in doc.items() if name in present}
    target.write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("new", nargs="+", type=Path, help="oracle.py label --out files")
    ap.add_argument("--jax", action="store_true", help="merge into labels_jax.json (cases in jax/)")
    ap.add_argument("--torch", action="store_true", help="merge into torch_xla/labels.json (oracle_torch.py output)")
    args = ap.parse_args(argv)
    if args.torch:
        doc = merge_torch(args.new)
        missing = sorted(set(compute_torch()) - set(doc))
        print(f"{len(doc)} labelled torch cases; unlabelled: {', '.join(missing) or 'none'}")
        return 0
    doc = merge(args.new, "labels_jax.json" if args.jax else "labels.json", "jax" if args.jax else "tf")
    missing = sorted(k for k in compute() if k.startswith(("jax/" if args.jax else "tf/"))
                     and k.split("/", 1)[1][:-3] not in {c["case"] for c in doc["cases"]})
    print(f"{len(doc['cases'])} labelled cases; unlabelled: {', '.join(missing) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
