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
from xlacheck.config import ConfigError, Settings, check_selector
from xlacheck.reporters import FORMATS, ReportOptions

log = logging.getLogger("xlacheck")


class UsageError(Exception):
    """A bad flag: one line naming it and the fix; exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}; see `xlacheck --help`")


def _selectors(flag: str):  # type: ignore[no-untyped-def]
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
        epilog="Exit status: 0 clean, 1 findings, 2 usage/configuration/internal error.",
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
    out.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    out.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead")
    out.add_argument("--show-fixes", action="store_true", help="show each finding's fix and what --fix changed")
    out.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    out.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    fix = p.add_argument_group("fixes")
    fix.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    fix.add_argument("--unsafe-fixes", action="store_true", help="also apply (and count) fixes that may change behaviour")
    fix.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing (exit 1 if any)")
    run = p.add_argument_group("run")
    run.add_argument("--config", metavar="FILE", help="a pyproject.toml ([tool.xlacheck]) or a TOML file of the same keys")
    run.add_argument("--jobs", type=_positive_int, metavar="N", help="worker processes (default: 1 for a few files, else all cores)")
    run.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    run.add_argument("--torch-xla", action="store_true",
                     help="the torch code runs on XLA devices: training steps, no_grad functions and module forwards "
                          "count as torch_xla steps without a torch_xla import (config: torch-xla = true)")
    run.add_argument("--force-exclude", action="store_true", help="apply exclude to paths named on the command line too")
    run.add_argument("--explain", metavar="CODE", help="print the documentation of a rule and exit")
    run.add_argument("-v", "--verbose", action="store_true", help="log what xlacheck does, tracebacks of internal errors included")
    run.add_argument("--version", action="store_true", help="print the version and exit")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        level = logging.DEBUG if args.verbose else logging.WARNING
        logging.basicConfig(level=level, format="xlacheck: %(levelname)s: %(name)s: %(message)s")
        if args.version:
            print(f"xlacheck {xlacheck.__version__}")
            return 0
        if args.explain:
            return _explain(args.explain)
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
        print(f"xlacheck: internal error: {type(e).__name__}: {e} (rerun with --verbose for the traceback and report it)", file=sys.stderr)
        return 2


def _settings(args: argparse.Namespace) -> Settings:
    base = Settings.from_file(args.config) if args.config else Settings.from_pyproject(args.paths[0] if args.paths else ".")
    fields: dict[str, object] = {"cache": base.cache and not args.no_cache, "force_exclude": args.force_exclude,
                                 "torch_xla": base.torch_xla or args.torch_xla}
    if args.jobs is not None:
        fields["jobs"] = args.jobs
    settings = base.with_overrides(select=args.select, ignore=args.ignore, extend_select=args.extend_select, **fields)
    _check_known(settings, args)
    return settings


def _check_known(settings: Settings, args: argparse.Namespace) -> None:
    """A selector no rule matches is a typo: say where it came from (ruff does the same)."""
    source = str(settings.config_file) if settings.config_file else "config"
    checks = [(s, "--select") for s in args.select or ()] + [(s, "--ignore") for s in args.ignore]
    checks += [(s, "--extend-select") for s in args.extend_select]
    checks += [(s, f"{source} select/ignore/extend-select") for s in (*(settings.select or ()), *settings.ignore, *settings.extend_select)]
    checks += [(s, f"{source} per-file-ignores") for _, selectors in settings.per_file_ignores for s in selectors]
    checks = [(s, where) for s, where in checks if s not in ("ALL", "XLA")]
    if not checks:
        return  # nothing to check: do not pay for importing every rule
    from xlacheck import rules

    codes = [rule.code for rule in rules.ALL_RULES]
    for selector, where in checks:
        if not any(code.startswith(selector) for code in codes):
            raise UsageError(f"{where}: {selector} matches no rule; see docs/rules/index.md for the codes")


def _color() -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def _write(text: str, color: bool) -> None:
    if not text:
        return
    if color:
        from rich.console import Console

        Console(highlight=False, soft_wrap=True).print(text, end="")
    else:
        sys.stdout.write(text)


def _lint(args: argparse.Namespace) -> int:
    from xlacheck import api
    from xlacheck.reporters import render
    from xlacheck.reporters import statistics

    settings = _settings(args)
    paths = args.paths or ["."]
    color = _color() and args.format == "text"
    options = ReportOptions(
        unsafe_fixes=args.unsafe_fixes, show_fixes=args.show_fixes, quiet=args.quiet, color=color, fixing=args.fix and not args.diff
    )
    if args.diff:
        return _diff(api.fix_paths(paths, settings, unsafe=args.unsafe_fixes, write=False), args)
    fixes: tuple[api.FileFix, ...] = ()
    if args.fix:
        run = api.fix_paths(paths, settings, unsafe=args.unsafe_fixes, write=True)
        result, fixes = run.result, run.fixes
    else:
        result = api.check_paths(paths, settings)

    if args.statistics:
        _write(statistics.render(result, args.format, unsafe_fixes=args.unsafe_fixes), False)
    else:
        _write(render(args.format, result, options, fixes), color)
    return _exit_code(result, args.exit_zero)


def _exit_code(result, exit_zero: bool) -> int:  # type: ignore[no-untyped-def]
    from xlacheck.api import is_internal_error

    if any(is_internal_error(e) for e in result.errors):
        return 2
    if exit_zero:
        return 0
    return 1 if result.diagnostics or result.errors else 0


def _diff(run, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
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
        print(f"Would fix {count} finding{'' if count == 1 else 's'}." if count else "No fixes to apply.", file=sys.stderr)
    if any(is_internal_error(e) for e in run.result.errors):
        return 2
    return 1 if changed and not args.exit_zero else 0


def _explain(code: str) -> int:
    from xlacheck import rules
    from xlacheck.docs_gen import rule_doc, rule_markdown

    wanted = code.strip().upper()
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
