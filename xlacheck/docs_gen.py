"""Rule documentation from rule docstrings: ``docs/rules/<CODE>.md``, ``docs/rules/index.md``,
``xlacheck --explain`` and SARIF rule metadata all come from here.

Regenerate the committed pages with ``python -m xlacheck.docs_gen`` (``--check`` exits 1 when
they are stale; tests/xlacheck/test_rule_docs.py runs the same comparison).
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REQUIRED_SECTIONS: tuple[str, ...] = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety")
OPTIONAL_SECTIONS: tuple[str, ...] = ("References",)
DOCS_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
_HEADING = re.compile(r"^## (.+?)\s*$", re.M)


@dataclass(frozen=True)
class Section:
    title: str
    body: str


@dataclass(frozen=True)
class RuleDoc:
    code: str
    name: str
    qualname: str  # module.Class, so a reader can find the source
    preamble: str  # docstring text before the first section
    sections: tuple[Section, ...]
    fix: tuple[str, ...] | None = None  # the rule's declared fix (Rule.fix): rewriter names, or None
    preview: bool = False  # off by default, reported with --preview (Rule.preview)

    @property
    def fix_availability(self) -> str:
        """"sometimes" where the rule declares a fix (offered where it can prove one; the Fix
        safety section says when), else "none"."""
        return "none" if self.fix is None else "sometimes"

    def section(self, title: str) -> str:
        return next((s.body for s in self.sections if s.title == title), "")

    @property
    def summary(self) -> str:
        """First sentence of "What it does", for tables and SARIF short descriptions."""
        first = " ".join(self.section("What it does").split("\n\n")[0].split())
        in_code = False
        for i, char in enumerate(first):
            if char == "`":
                in_code = not in_code
            elif char in ".!?" and not in_code and (i + 1 == len(first) or first[i + 1] == " "):
                return first[: i + 1]
        return first


def parse_sections(doc: str) -> tuple[str, tuple[Section, ...]]:
    parts = _HEADING.split(doc)
    preamble, rest = parts[0].strip(), parts[1:]
    return preamble, tuple(Section(title, body.strip()) for title, body in zip(rest[::2], rest[1::2]))


def section_problems(sections: Sequence[Section]) -> list[str]:
    """What is wrong with a rule docstring's sections (empty when it follows the contract)."""
    titles = [s.title for s in sections]
    problems = [f"missing section '## {t}'" for t in REQUIRED_SECTIONS if t not in titles]
    problems += [f"unknown section '## {t}'" for t in titles if t not in REQUIRED_SECTIONS + OPTIONAL_SECTIONS]
    known = [t for t in titles if t in REQUIRED_SECTIONS + OPTIONAL_SECTIONS]
    if known != [t for t in REQUIRED_SECTIONS + OPTIONAL_SECTIONS if t in known]:
        problems.append(f"sections out of order: {known}")
    problems += [f"empty section '## {s.title}'" for s in sections if not s.body]
    return problems


def rule_doc(rule: type) -> RuleDoc:
    doc = inspect.getdoc(rule) or ""
    preamble, sections = parse_sections(doc)
    return RuleDoc(
        code=rule.code,  # type: ignore[attr-defined]
        name=rule.name,  # type: ignore[attr-defined]
        qualname=f"{rule.__module__}.{rule.__qualname__}",
        preamble=preamble,
        sections=sections,
        fix=getattr(rule, "fix", None),
        preview=bool(getattr(rule, "preview", False)),
    )


def rule_markdown(doc: RuleDoc) -> str:
    lines = [f"# {doc.code}: {doc.name}", ""]
    if doc.preamble:
        lines += [doc.preamble, ""]
    lines += [
        f"Derived from `{doc.qualname}`. Select with `--select {doc.code}` (or its family `{doc.code[:4]}`);"
        f" silence one line with `# noqa: {doc.code}`.",
        "",
    ]
    if doc.preview:
        lines += [_PREVIEW_NOTE, ""]
    for section in doc.sections:
        lines += [f"## {section.title}", "", section.body, ""]
    return "\n".join(lines).rstrip() + "\n"


_PREVIEW_NOTE = ("**Off by default**: reported only with `--preview`: below 90% true findings on real code we"
                 " judged, or a hazard that depends on inputs, callers or versions the code does not show (this page"
                 " and docs/known-results.md say which).")


def index_markdown(docs: Sequence[RuleDoc]) -> str:
    lines = [
        "# Rules",
        "",
        "Generated from the rule docstrings by `python -m xlacheck.docs_gen`; do not edit by hand.",
        "A prefix selects a family: XLA1 data-dependent control flow, XLA2 data-dependent shapes,",
        "XLA3 host syncs and ops without XLA kernels, XLA4 recompile hazards, XLA5 TPU set-up.",
        "",
        "Each page's *Fix safety* section says what `--fix` does for that rule. *Default* is `on`, or",
        "`preview` for a rule reported only with `--preview` (below 90% true findings on judged real code, or a",
        "hazard that depends on what the code does not show).",
        "",
        "| Code | Name | Default | Fix | What it does |",
        "| --- | --- | --- | --- | --- |",
    ]
    for doc in sorted(docs, key=lambda d: d.code):
        summary = doc.summary.replace("|", "\\|")
        default = "preview" if doc.preview else "on"
        lines.append(f"| [{doc.code}]({doc.code}.md) | {doc.name} | {default} | {doc.fix_availability} | {summary} |")
    return "\n".join(lines) + "\n"


def all_rule_docs() -> tuple[RuleDoc, ...]:
    from xlacheck import rules

    return tuple(rule_doc(rule) for rule in rules.ALL_RULES)


def expected_pages(docs: Sequence[RuleDoc]) -> dict[str, str]:
    pages = {f"{doc.code}.md": rule_markdown(doc) for doc in docs}
    pages["index.md"] = index_markdown(docs)
    return pages


def stale_pages(out_dir: Path, docs: Sequence[RuleDoc]) -> list[str]:
    """File names under ``out_dir`` that differ from what the docstrings generate (or should not exist)."""
    pages = expected_pages(docs)
    stale = [name for name, text in pages.items() if _read(out_dir / name) != text]
    present = {p.name for p in out_dir.glob("*.md")} if out_dir.is_dir() else set()
    return sorted(stale + sorted(present - pages.keys()))


def write_pages(out_dir: Path, docs: Sequence[RuleDoc]) -> list[str]:
    pages = expected_pages(docs)
    changed = stale_pages(out_dir, docs)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in changed:
        if name in pages:
            (out_dir / name).write_text(pages[name], encoding="utf-8")
        else:
            (out_dir / name).unlink()
    return changed


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xlacheck.docs_gen", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS_DIR, help="folder for the pages (default: docs/rules)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when pages are stale")
    args = parser.parse_args(argv)
    docs = all_rule_docs()
    bad = {doc.code: problems for doc in docs if (problems := section_problems(doc.sections))}
    if bad:
        for code, problems in bad.items():
            print(f"{code}: {'; '.join(problems)}", file=sys.stderr)
        return 1
    if args.check:
        stale = stale_pages(args.out, docs)
        for name in stale:
            print(f"{args.out / name} is stale; run `python -m xlacheck.docs_gen`", file=sys.stderr)
        return 1 if stale else 0
    for name in write_pages(args.out, docs):
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
