"""``xlacheck [PATHS]``: the only place that prints or picks an exit code.

Exit codes (ruff's): 0 no findings, 1 findings (or files that do not parse or cannot be read,
which are reported as one ``path:line:col: error: ...`` line each while the run goes on),
2 bad usage or configuration, or an internal error (a rule crash included). ``--exit-zero``
turns 1 into 0, never 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

import xlacheck
from xlacheck.config import ALL_FILES, ConfigError, Settings, check_selector, parse_target_version
from xlacheck.reporters import FORMATS, ReportOptions

log = logging.getLogger("xlacheck")


class UsageError(Exception):
    """A bad flag: one line naming it and the fix; exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}; see `xlacheck --help`")


def _selectors(flag: str):
    def parse(value: str) -> list[str]:
        try:
            return [check_selector(v, flag) for v in value.split(",") if v.strip()]
        except ConfigError as e:
            raise argparse.ArgumentTypeError(str(e).removeprefix(f"{flag}: ")) from None

    return parse


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive number of processes (try --jobs 4)")
    return number


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="xlacheck",
        description="Find what breaks or slows XLA in TensorFlow/Keras code, before it reaches a TPU.",
        epilog="Exit status: 0 clean, 1 findings, 2 usage/configuration/internal error. "
        "Rules: `xlacheck rule --all` lists them, `xlacheck rule XLA101` explains one.",
    )
    p.add_argument("paths", nargs="*", default=[], metavar="PATH", help="files or folders to check (default: .)")
    sel = p.add_argument_group("rule selection (codes or prefixes: XLA101, XLA1, ALL)")
    sel.add_argument("--select", type=_selectors("--select"), action="extend", metavar="CODES",
                     help="check only these rules (replaces the config's select)")
    sel.add_argument("--ignore", type=_selectors("--ignore"), action="extend", default=[], metavar="CODES",
                     help="do not check these rules")
    sel.add_argument("--extend-select", type=_selectors("--extend-select"), action="extend", default=[],
                     metavar="CODES", help="check these rules in addition to the selected ones")
    out = p.add_argument_group("output")
    out.add_argument("--output-format", "--format", dest="format", choices=FORMATS, default="text",
                     help="output format (default: text); --format is an alias")
    out.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of stdout")
    out.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead")
    out.add_argument("--show-fixes", action="store_true", help="show each finding's fix and what --fix changed")
    out.add_argument("--show-set-aside", action="store_true",
                     help="list the findings that facts about what the project runs set aside (a module nothing "
                          "imports or runs, code in a block that ends the run), each with the fact; they never fail "
                          "the run and are never fixed")
    out.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    out.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    fix = p.add_argument_group("fixes")
    fix.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    fix.add_argument("--unsafe-fixes", action="store_true",
                     help="also apply (and count) fixes that may change behaviour")
    fix.add_argument("--diff", action="store_true",
                     help="print the fixes as a unified diff; write nothing (exit 1 if any)")
    run = p.add_argument_group("run")
    run.add_argument("--config", metavar="FILE",
                     help="a pyproject.toml ([tool.xlacheck]) or a TOML file of the same keys")
    run.add_argument("--jobs", type=_positive_int, metavar="N",
                     help="worker processes (default: 1 for a few files, else all cores)")
    run.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    run.add_argument("--preview", action="store_true",
                     help="also run rules and evidence levels that are below 90%% true on real code "
                          "(docs/known-results.md)")
    run.add_argument("--torch-xla", action="store_true",
                     help="the torch code runs on XLA devices: training steps, no_grad functions and module forwards "
                          "count as torch_xla steps without a torch_xla import (config: torch-xla = true)")
    run.add_argument("--target-version", metavar="pyXY",
                     help="the oldest Python the code runs on, e.g. py311 (config: target-version; default: "
                          "requires-python's lower bound, else this interpreter's)")
    run.add_argument("--jit-compiled", action="store_true",
                     help="the TensorFlow/JAX code runs under XLA (tf.function(jit_compile=True), jax.jit, Keras "
                          "jit_compile) from a caller elsewhere: functions and model/layer methods are compiled roots "
                          "unless the code shows they run on the host (config: jit-compiled = true or a list of globs)")
    run.add_argument("--force-exclude", action="store_true",
                     help="apply exclude to paths named on the command line too")
    run.add_argument("--no-respect-gitignore", action="store_true", help="also check files that .gitignore names")
    run.add_argument("--stdin-filename", metavar="NAME",
                     help="with PATH `-`: the file name the text read from stdin stands for (config, notebooks)")
    run.add_argument("--explain", metavar="CODE", help="print the documentation of a rule and exit")
    run.add_argument("--list-rules", action="store_true",
                     help="list every rule (code, name, family, fix) and exit; same as `xlacheck rule --all`")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="on stderr: each file and what happened to it (analyzed, cached, skipped), counts and time; "
                     "tracebacks of internal errors")
    run.add_argument("--version", action="store_true", help="print the version and exit")
    return p


def build_rule_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="xlacheck rule", description="Show one rule's documentation, or list every rule.")
    p.add_argument("code", nargs="?", metavar="CODE", help="a rule code or name, e.g. XLA101")
    p.add_argument("--all", action="store_true", help="list every rule: code, name, family, fix availability")
    p.add_argument("--output-format", "--format", dest="format", choices=("text", "json"), default="text")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["rule"]:
            return _rule_command(build_rule_parser().parse_args(argv[1:]))
        args = build_parser().parse_args(argv)
        level = logging.DEBUG if args.verbose else logging.WARNING
        logging.basicConfig(level=level, format="xlacheck: %(levelname)s: %(name)s: %(message)s")
        if args.version:
            print(f"xlacheck {xlacheck.__version__}")
            return 0
        if args.explain:
            return _explain(args.explain)
        if args.list_rules:
            return _list_rules(args.format)
        if "-" in args.paths and len(args.paths) > 1:
            raise UsageError("`-` (read stdin) cannot be mixed with other paths; run them separately")
        if args.stdin_filename and args.paths != ["-"]:
            raise UsageError("--stdin-filename names the text read from stdin; pass `-` as the only PATH")
        if args.statistics and args.format not in ("text", "json"):
            raise UsageError(f"--statistics prints text or json, not {args.format}; drop --format {args.format}")
        return _lint(args)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except (UsageError, ConfigError) as e:
        print(f"xlacheck: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `xlacheck | head`: the reader left; stop quietly as other CLIs do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as e:  # an xlacheck bug: one line; --verbose logs the traceback
        log.debug("internal error", exc_info=True)
        print(f"xlacheck: internal error: {type(e).__name__}: {e} "
              "(rerun with --verbose for the traceback and report it)", file=sys.stderr)
        return 2


def _settings(args: argparse.Namespace) -> Settings:
    start = args.paths[0] if args.paths and args.paths != ["-"] else (args.stdin_filename or ".")
    base = Settings.from_file(args.config) if args.config else Settings.from_pyproject(_existing_parent(start))
    fields: dict[str, object] = {"cache": base.cache and not args.no_cache, "force_exclude": args.force_exclude,
                                 "preview": getattr(args, "preview", False),
                                 "torch_xla": base.torch_xla or getattr(args, "torch_xla", False)}
    if getattr(args, "jit_compiled", False):
        fields["jit_compiled"] = (ALL_FILES,)
    if getattr(args, "target_version", None) is not None:
        fields["target_version"] = parse_target_version(args.target_version, "--target-version")
    if args.no_respect_gitignore:
        fields["respect_gitignore"] = False
    if args.jobs is not None:
        fields["jobs"] = args.jobs
    settings = base.with_overrides(select=args.select, ignore=args.ignore, extend_select=args.extend_select, **fields)
    _check_known(settings, args)
    return settings


def _existing_parent(path: str) -> str:
    """Where to look for pyproject.toml: the path, or its nearest existing folder (a stdin name may not exist)."""
    candidate = os.path.abspath(path)
    while not os.path.exists(candidate) and os.path.dirname(candidate) != candidate:
        candidate = os.path.dirname(candidate)
    return candidate


def _check_known(settings: Settings, args: argparse.Namespace) -> None:
    """A selector no rule matches is a typo: say where it came from (ruff does the same)."""
    source = str(settings.config_file) if settings.config_file else "config"
    checks = [(s, "--select") for s in args.select or ()] + [(s, "--ignore") for s in args.ignore]
    checks += [(s, "--extend-select") for s in args.extend_select]
    selectors = (*(settings.select or ()), *settings.ignore, *settings.extend_select)
    checks += [(s, f"{source} select/ignore/extend-select") for s in selectors]
    checks += [(s, f"{source} per-file-ignores") for _, selectors in settings.per_file_ignores for s in selectors]
    checks = [(s, where) for s, where in checks if s not in ("ALL", "XLA")]
    if not checks:
        return  # nothing to check: do not pay for importing every rule
    from xlacheck import rules
    from xlacheck.suppression import SUPPRESSION_RULES

    codes = [rule.code for rule in rules.ALL_RULES] + [rule.code for rule in SUPPRESSION_RULES]
    for selector, where in checks:
        if not any(code.startswith(selector) for code in codes):
            raise UsageError(f"{where}: {selector} matches no rule; see docs/rules/index.md for the codes")


def _color() -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def _write(text: str, color: bool, output_file: str | None = None) -> None:
    if output_file is not None:
        try:
            with open(output_file, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise UsageError(f"--output-file {output_file}: cannot write ({e.strerror}); "
                             "check the folder exists and is writable") from None
        return
    if not text:
        return
    if color:
        from rich.console import Console

        Console(highlight=False, soft_wrap=True).print(text, end="")
    else:
        sys.stdout.write(text)


def _lint(args: argparse.Namespace) -> int:
    import time

    from xlacheck import api
    from xlacheck.reporters import render, statistics

    started = time.perf_counter()
    settings = _settings(args)
    paths = args.paths or ["."]
    color = _color() and args.format == "text" and args.output_file is None
    options = ReportOptions(
        unsafe_fixes=args.unsafe_fixes, show_fixes=args.show_fixes, quiet=args.quiet, color=color,
        fixing=args.fix and not args.diff, show_set_aside=args.show_set_aside
    )
    if paths == ["-"]:
        return _stdin(args, settings, options)
    if args.diff:
        return _diff(api.fix_paths(paths, settings, unsafe=args.unsafe_fixes, write=False), args)
    fixes: tuple[api.FileFix, ...] = ()
    if args.fix:
        run = api.fix_paths(paths, settings, unsafe=args.unsafe_fixes, write=True)
        result, fixes = run.result, run.fixes
    else:
        result = api.check_paths(paths, settings)
    if args.verbose:
        _verbose_summary(result, time.perf_counter() - started)

    if args.statistics:
        _write(statistics.render(result, args.format, unsafe_fixes=args.unsafe_fixes), False, args.output_file)
    else:
        _write(render(args.format, result, options, fixes), color, args.output_file)
    return _exit_code(result, args.exit_zero)


def _verbose_summary(result, seconds: float) -> None:
    """-v: what happened to each file, then the counts and the time (on stderr)."""
    counts = {"analyzed": 0, "from cache": 0, "skipped (names no ML framework)": 0, "not checked": 0}
    for f in result.files:
        what = (
            "not checked" if f.error is not None and not f.diagnostics
            else "skipped (names no ML framework)" if f.skipped
            else "from cache" if f.cached
            else "analyzed"
        )
        counts[what] += 1
        print(f"xlacheck: {f.path}: {what}", file=sys.stderr)
    parts = ", ".join(f"{n} {what}" for what, n in counts.items() if n)
    n = len(result.files)
    print(f"xlacheck: {n} file{'' if n == 1 else 's'} ({parts or 'none'}) in {seconds:.2f} s", file=sys.stderr)


def _stdin(args: argparse.Namespace, settings: Settings, options: ReportOptions) -> int:
    """`xlacheck -`: lint stdin as --stdin-filename; with --fix the fixed text goes to stdout
    and the report to stderr (ruff's convention), so an editor can pipe a buffer through it."""
    from xlacheck import api
    from xlacheck.reporters import render

    if args.diff:
        raise UsageError("--diff with stdin: use --fix (it prints the fixed text) or a file path")
    data = sys.stdin.buffer.read()
    name = args.stdin_filename or "-"
    fixing = args.fix
    run = api.lint_stdin(data, name, settings, fix=fixing, unsafe=args.unsafe_fixes)
    if fixing:
        fixed = next((f for f in run.fixes if f.error is None), None)
        sys.stdout.buffer.write(fixed.text.encode("utf-8") if fixed is not None else data)
        sys.stdout.flush()
        report = render(args.format, run.result, _replace_options(options, color=False), run.fixes)
        sys.stderr.write(report)
    else:
        _write(render(args.format, run.result, options, run.fixes), options.color, args.output_file)
    return _exit_code(run.result, args.exit_zero)


def _replace_options(options: ReportOptions, **changes: object) -> ReportOptions:
    from dataclasses import replace

    return replace(options, **changes)  # type: ignore[arg-type]


_FAMILIES = {
    "XLA0": "xlacheck itself",
    "XLA1": "data-dependent control flow",
    "XLA2": "data-dependent shapes",
    "XLA3": "host syncs and ops without XLA kernels",
    "XLA4": "recompile hazards",
    "XLA5": "TPU set-up",
}


def _rule_rows() -> list[dict[str, str]]:
    from xlacheck.docs_gen import all_rule_docs

    rows = []
    for doc in sorted(all_rule_docs(), key=lambda d: d.code):
        rows.append({
            "code": doc.code,
            "name": doc.name,
            "family": _FAMILIES.get(doc.code[:4], doc.code[:4]),
            "fix": doc.fix_availability,  # from the rule's fix declaration (Rule.fix)
            "summary": doc.summary,
        })
    from xlacheck.suppression import SUPPRESSION_RULES

    own = [
        {"code": r.code, "name": r.name, "family": _FAMILIES["XLA0"], "fix": "none", "summary": r.summary}
        for r in SUPPRESSION_RULES
    ]
    return own + rows


def _list_rules(fmt: str) -> int:
    if fmt not in ("text", "json"):
        raise UsageError(f"the rule list prints text or json, not {fmt}")
    rows = _rule_rows()
    if fmt == "json":
        import json

        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return 0
    name_w = max((len(r["name"]) for r in rows), default=4)
    fam_w = max((len(r["family"]) for r in rows), default=6)
    sys.stdout.write(f"{'code':<7} {'name':<{name_w}} {'family':<{fam_w}} fix\n")
    for r in rows:
        sys.stdout.write(f"{r['code']:<7} {r['name']:<{name_w}} {r['family']:<{fam_w}} {r['fix']}\n")
    return 0


def _rule_command(args: argparse.Namespace) -> int:
    if args.all:
        return _list_rules(args.format)
    if not args.code:
        raise UsageError("xlacheck rule: name a rule (xlacheck rule XLA101) or pass --all")
    return _explain(args.code)


def _exit_code(result, exit_zero: bool) -> int:
    from xlacheck.api import is_internal_error

    if any(is_internal_error(e) for e in result.errors):
        return 2
    if exit_zero:
        return 0
    return 1 if result.diagnostics or result.errors else 0


def _diff(run, args: argparse.Namespace) -> int:
    from xlacheck.api import is_internal_error
    from xlacheck.fixes import unified_diff

    changed = [f for f in run.fixes if f.changed and f.error is None]
    for f in run.fixes:
        if f.error is not None:
            print(f"{f.path}: fix not applied: {f.error}", file=sys.stderr)
    sys.stdout.write("".join(unified_diff(f.path, f.original, f.text) for f in changed))
    for e in run.result.errors:
        print(f"{e.path}:{e.line}:{e.col + 1}: error: {e.message}", file=sys.stderr)
    count = sum(len(f.fixed) for f in changed)
    if not args.quiet:
        print(f"Would fix {count} finding{'' if count == 1 else 's'}." if count else "No fixes to apply.",
              file=sys.stderr)
    if any(is_internal_error(e) for e in run.result.errors):
        return 2
    return 1 if changed and not args.exit_zero else 0


def _explain(code: str) -> int:
    from xlacheck import rules
    from xlacheck.docs_gen import rule_doc, rule_markdown
    from xlacheck.suppression import SUPPRESSION_RULES

    wanted = code.strip().upper()
    own = [r for r in SUPPRESSION_RULES if r.code == wanted or r.name == code.strip()]
    if own:
        sys.stdout.write(f"# {own[0].code} {own[0].name}\n\n{own[0].summary}\n\n{own[0].doc}\n")
        return 0
    match = [r for r in rules.ALL_RULES if r.code == wanted or r.name == code.strip()]
    if not match:
        known = ", ".join(r.code for r in rules.ALL_RULES) or "none registered"
        raise UsageError(f"--explain {code}: no such rule; known codes: {known}")
    text = rule_markdown(rule_doc(match[0]))
    if _color():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        sys.stdout.write(text)
    return 0
