"""Measure xlacheck's value model against the runtime: what each name really holds under a trace.

For every statement of a case's functions, the names it reads (and the ``self.<attr>`` it reads)
are keys ``(line, name)``. Two sides fill them:

- **runtime** (``_worker``, one subprocess per batch; TensorFlow and JAX never share one): the
  case runs the way the oracle's XLA phase runs it (``ENTRY()``, wrapped in
  ``tf.function(jit_compile=True)`` / ``jax.jit`` unless ``WRAP = False``; a ``tf.function`` is
  traced with ``get_concrete_function``, the same trace without the XLA compilation; JAX also
  runs the first ``ALT_ARGS``) under ``sys.settrace``; at each line event of the case file, and of the code
  AutoGraph generated from it (mapped back through AutoGraph's own source map), the kind of what
  each wanted name holds (:func:`runtime_kind`) and whether the frame runs inside a trace. The
  tracer only reads frame locals and instance dicts: what is compiled does not change.
- **static**: the engine lints the stripped case (``jit_compiled`` declared, as
  ``benchmarks/xla_cases_score.py`` does) with a recorder subscribed to every statement; it
  stores the value model's flags of each wanted name *before* the statement (the runtime sees a
  line's locals before it runs). A key the engine never reaches is in a function it did not walk.

The comparison counts keys seen inside a trace by (static verdict, runtime kind): a key the
model proves a tensor that is a Python value at run time is a precision defect; a key that holds
a symbolic tensor/tracer under the trace and that the model leaves unknown (or never walks) is a
recall gap. Only TRAIN cases are run (validation never).

    python tools/measure_value_model.py runtime --out /tmp/vm_runtime     # slow: runs the cases
    python tools/measure_value_model.py compare --runtime /tmp/vm_runtime [--summary F] [--gaps N]
    VM_XLACHECK_ROOT=../main python tools/measure_value_model.py compare ...   # another checkout's model
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ORACLE_MARKER = "# --- oracle ---"
# the xlacheck measured: this checkout's (VM_XLACHECK_ROOT=/path/to/other/checkout measures that one)
sys.path.insert(0, os.environ.get("VM_XLACHECK_ROOT", str(REPO)))


# -- what both sides look at ------------------------------------------------------------------
def _header_exprs(s: ast.stmt) -> list[ast.AST]:
    """The expressions a statement evaluates itself (a compound statement: its header only)."""
    if isinstance(s, (ast.If, ast.While)):
        return [s.test]
    if isinstance(s, (ast.For, ast.AsyncFor)):
        return [s.iter]
    if isinstance(s, (ast.With, ast.AsyncWith)):
        return [i.context_expr for i in s.items]
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom,
                      ast.Try, ast.Global, ast.Nonlocal, ast.Pass, ast.Break, ast.Continue)):
        return []
    if isinstance(s, ast.Match):
        return [s.subject]
    return [s]


def _loads(node: ast.AST) -> set[str]:
    """Names (and ``self.attr``) read in ``node``, outside lambdas and comprehension scopes."""
    out: set[str] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                todo.append(n.generators[0].iter)  # evaluated in the enclosing scope
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self" \
                and isinstance(n.ctx, ast.Load):
            out.add("self." + n.attr)
        todo.extend(ast.iter_child_nodes(n))
    return out


def wanted(tree: ast.Module) -> dict[int, set[str]]:
    """Line of each statement inside a function -> the names it reads."""
    out: dict[int, set[str]] = defaultdict(set)
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for s in _own_statements(fn):
            for e in _header_exprs(s):
                out[s.lineno] |= _loads(e)
    return {k: v for k, v in out.items() if v}


def _own_statements(fn: ast.AST):
    todo = list(fn.body)  # type: ignore[attr-defined]
    while todo:
        s = todo.pop()
        yield s
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(s, field, []) or []:
                if isinstance(child, ast.stmt):
                    todo.append(child)
                elif hasattr(child, "body"):  # except handler, match case
                    todo.extend(child.body)


def case_source(path: Path) -> str:
    kept = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.rstrip() == ORACLE_MARKER:
            break
        kept.append(line)
    return "".join(kept)


# -- runtime ------------------------------------------------------------------------------------
_CONTAINERS = (list, tuple, dict)


def runtime_kind(v, fw: str) -> str:
    """``sym`` (a symbolic tf.Tensor or a jax tracer), ``eager`` (a concrete tensor/array),
    ``var`` (tf.Variable), ``numpy``, ``py`` (bool/int/float/str), ``none``, ``list_t`` (a
    list/tuple/dict holding tensors), ``list``, ``layer`` (a Keras layer / flax module),
    ``other``."""
    if v is None:
        return "none"
    if isinstance(v, (bool, int, float, str, bytes, complex)):
        return "py"
    mod = type(v).__module__ or ""
    if fw == "tf":
        import tensorflow as tf
        tname = type(v).__name__
        if isinstance(v, tf.Variable) or "ResourceVariable" in tname or tname == "AutoCastVariable":
            return "var"
        if isinstance(v, tf.Tensor) or type(v).__name__ in ("RaggedTensor", "SparseTensor"):
            return "eager" if hasattr(v, "_numpy") and type(v).__name__ == "EagerTensor" else "sym"
        if isinstance(v, tf.Module) and callable(v):
            return "layer"
    else:
        import jax
        if isinstance(v, jax.core.Tracer):
            return "sym"
        if isinstance(v, jax.Array):
            return "eager"
        if "flax" in mod and callable(v):
            return "layer"
    import numpy as np
    if isinstance(v, (np.ndarray, np.generic)):
        return "numpy"
    if isinstance(v, _CONTAINERS) or "ListWrapper" in type(v).__name__ or "DictWrapper" in type(v).__name__ \
            or "_TupleWrapper" in type(v).__name__:
        items = list(v.values()) if isinstance(v, dict) or hasattr(v, "values") and not isinstance(v, (list, tuple)) \
            else list(v)
        return "list_t" if any(runtime_kind(x, fw) in ("sym", "eager", "var", "list_t") for x in items[:16]) else "list"
    return "other"


def _worker(fw: str, out: str, files: list[str]) -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    if fw == "tf":
        # transformers would import torch (and torch_xla's LLVM) after TensorFlow's: an abort
        os.environ.setdefault("USE_TORCH", "0")
    import importlib.util
    import signal
    import threading

    results: dict[str, dict] = {}
    if Path(out).exists():
        results = json.loads(Path(out).read_text())
    genmap: dict[str, dict[int, int]] = {}  # AutoGraph generated file -> its line -> the source line
    if fw == "tf":
        import tensorflow as tf
        from tensorflow.python.autograph.pyct import loader
        from tensorflow.python.framework import ops

        real_load = loader.load_ast

        def load_ast(nodes, *a, **kw):
            got = real_load(nodes, *a, **kw)
            source_map = got[2]
            if source_map:
                for loc, origin in source_map.items():
                    genmap.setdefault(loc.filename, {})[loc.lineno] = (origin.loc.filename, origin.loc.lineno)
            return got

        loader.load_ast = load_ast

        def in_trace() -> bool:
            return ops.inside_function()
    else:
        import jax
        from jax._src import core as jcore

        def in_trace() -> bool:
            return not jcore.trace_state_clean()

    def alarm(*_a):
        raise TimeoutError("case timed out")

    signal.signal(signal.SIGALRM, alarm)
    for f in files:
        if f in results:
            continue
        path = str(Path(f).resolve())
        target = {"path": path, "want": wanted(ast.parse(case_source(Path(path))))}
        seen: dict[str, set] = defaultdict(set)

        def local(frame, event, arg, seen=seen, target=target):
            want, path = target["want"], target["path"]
            if event != "line":
                return local
            fname = frame.f_code.co_filename
            if fname == path:
                line = frame.f_lineno
            else:
                m = genmap.get(fname)
                origin = m.get(frame.f_lineno) if m else None
                if origin is None or origin[0] != path:
                    return local
                line = origin[1]
            names = want.get(line)
            if not names:
                return local
            loc = frame.f_locals
            traced = in_trace()
            for n in names:
                if n.startswith("self."):
                    obj = loc.get("self")
                    d = getattr(obj, "__dict__", None) if obj is not None else None
                    if not d or n[5:] not in d:
                        continue
                    v = d[n[5:]]
                elif n in loc:
                    v = loc[n]
                else:
                    continue
                try:
                    k = runtime_kind(v, fw)
                except Exception:  # noqa: BLE001 - a value that cannot be looked at
                    k = "other"
                seen[f"{line}:{n}"].add(f"{k}{'@T' if traced else ''}")
            return local

        def glob(frame, event, arg, target=target):
            fname = frame.f_code.co_filename
            if fname == target["path"] or fname in genmap:
                if frame.f_code.co_name == "<module>":
                    return None
                return local
            return None

        rec: dict = {"error": None}
        try:
            spec = importlib.util.spec_from_file_location("vm_case_" + Path(path).stem, path)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = mod
            signal.alarm(int(os.environ.get("VM_CASE_TIMEOUT", "120")))
            spec.loader.exec_module(mod)
            traced_file = getattr(mod, "TRACE_FILE", None)  # a driver: the code measured is that module's
            if traced_file:
                target["path"] = str(Path(traced_file).resolve())
                target["want"] = wanted(ast.parse(Path(target["path"]).read_text(encoding="utf-8")))
                rec["file"] = target["path"]
            wrap = getattr(mod, "WRAP", True)
            if fw == "tf":
                tf.keras.utils.set_random_seed(0)
            else:
                import numpy as np
                np.random.seed(0)
            fn, args = mod.ENTRY()
            inputs = [args]
            alt = getattr(mod, "ALT_ARGS", None)
            if alt is not None and fw == "jax":
                inputs += list(alt())[:1]
            if fw == "tf":
                if wrap and not (hasattr(fn, "python_function") and getattr(fn, "_jit_compile", None)):
                    inner = fn  # one tf.function per case, as the oracle wraps it
                    g = tf.function(lambda *a: inner(*a), jit_compile=True)  # xlacheck: ignore[XLA404]
                else:
                    g = fn
            else:
                g = fn if (not wrap or hasattr(fn, "lower")) else jax.jit(fn)
            sys.settrace(glob)
            threading.settrace(glob)
            try:
                for a in inputs:
                    if hasattr(g, "get_concrete_function"):
                        g.get_concrete_function(*a)  # traces as a call would, without compiling
                    else:
                        g(*a)
            finally:
                sys.settrace(None)
                threading.settrace(None)
        except BaseException as e:  # noqa: BLE001 - a failing case is the point
            sys.settrace(None)
            rec["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
        finally:
            signal.alarm(0)
        rec["seen"] = {k: sorted(v) for k, v in seen.items()}
        results[f] = rec
        Path(out).write_text(json.dumps(results))


# -- which cases ----------------------------------------------------------------------------------
def train_cases() -> dict[str, list[Path]]:
    """Framework -> TRAIN case files of every labelled corpus (never a validation case)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import xla_cases_score as score

    out: dict[str, list[Path]] = {"tf": [], "jax": []}
    for corpus in score.corpora():
        if not corpus.labels.is_file():
            continue
        labels = json.loads(corpus.labels.read_text())["cases"]
        split_map = json.loads(corpus.split_file.read_text()) if corpus.split_file else None
        fw = "jax" if corpus.name.endswith("jax") else "tf"
        for rec in labels:
            if score.split_of(corpus, rec, split_map) != "train":
                continue
            path = corpus.cases_dir / (rec["case"] + ".py")
            if path.is_file():
                out[fw].append(path)
    return out


def cmd_runtime(a: argparse.Namespace) -> int:
    outdir = Path(a.out)
    outdir.mkdir(parents=True, exist_ok=True)
    cases = train_cases()
    if a.drivers:  # real code we did not write, run by the drivers in this folder (TF)
        cases = {"tf": sorted(p for p in Path(a.drivers).glob("*.py") if not p.name.startswith("_")), "jax": []}
        # the drivers share their helper module (_tiny.py): the workers find it on their path
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(a.drivers).resolve()),
                                                                 os.environ.get("PYTHONPATH")]))
    for fw in a.framework:
        files = [str(p) for p in cases[fw]]
        if a.only:
            files = [f for f in files if any(s in f for s in a.only)]
        for i in range(0, len(files), a.batch):
            batch = files[i:i + a.batch]
            out = outdir / f"{fw}_{i // a.batch:03d}.json"
            done = json.loads(out.read_text()) if out.exists() else {}
            if all(f in done for f in batch):
                continue
            for _attempt in range(3):  # a crash (segfault) loses only the case it was on
                subprocess.run([sys.executable, __file__, "_worker", fw, str(out), *batch], cwd=REPO,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600, check=False)
                done = json.loads(out.read_text()) if out.exists() else {}
                missing = [f for f in batch if f not in done]
                if not missing:
                    break
                done[missing[0]] = {"error": "worker died", "seen": {}}
                out.write_text(json.dumps(done))
            print(f"{fw} batch {i // a.batch}: {len(done)} cases", flush=True)
    return 0


# -- static ---------------------------------------------------------------------------------------
def static_flags(path: Path) -> dict[str, int]:
    """``line:name`` -> the value model's flags before that statement, for every key the engine
    reaches (walked compiled functions)."""
    from xlacheck import engine
    from xlacheck.analysis.values import ValueFlag  # noqa: F401 - the flags' one definition

    source = case_source(path)
    tree = ast.parse(source)
    want = wanted(tree)
    got: dict[str, int] = {}
    keep: list[ast.AST] = []

    class Recorder:
        code = "VM000"

        def check(self, node: ast.AST, ctx) -> None:  # noqa: ANN001
            names = want.get(getattr(node, "lineno", -1))
            if not names:
                return
            for n in names:
                if n.startswith("self."):
                    e: ast.expr = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=n[5:], ctx=ast.Load())
                else:
                    e = ast.Name(id=n, ctx=ast.Load())
                keep.append(e)  # the value model memoizes by id(): a freed node's id comes back
                k = ctx.values.flags(e)
                key = f"{node.lineno}:{n}"
                # bit 30: reached; bit 31: a rule counts a bare parameter here (ctx.tensor_value)
                got[key] = got.get(key, 0) | k | (1 << 30) | ((1 << 31) if ctx.tensor_value(k & ~(3 << 30)) else 0)

    recorder = Recorder()
    real = engine._dispatch_tables
    stmt_types = [t for t in vars(ast).values() if isinstance(t, type) and issubclass(t, ast.stmt)]

    def tables(select, preview=False):
        out = real(select, preview)
        for table in out.values():
            for t in stmt_types:
                table[t] = [*table.get(t, []), recorder]
        return out

    engine._dispatch_tables = tables
    try:
        engine.check_source(source, "case_" + path.stem + ".py", jit_compiled=True)
    finally:
        engine._dispatch_tables = real
    return got


def _params_by_line(path: Path) -> dict[int, set[str]]:
    """Line -> the parameters of its innermost function that the function never rebinds."""
    out: dict[int, set[str]] = {}
    tree = ast.parse(case_source(path))
    fns = sorted((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
                 key=lambda n: n.lineno)
    for fn in fns:  # inner functions come later and overwrite their lines
        a = fn.args
        names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        stored = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for line in range(fn.lineno, (fn.end_lineno or fn.lineno) + 1):
            out[line] = names - stored
    return out


def verdict(k: int | None) -> str:
    from xlacheck.analysis import values as v

    if k is None:
        return "not-walked"
    counted = bool(k & (1 << 31))
    k &= ~(3 << 30)
    if v.is_tensor(k):
        return "tensor" if counted else "helper-param"
    if k & v.PYLIST:
        return "list"
    if k & v.TENSOR and k & v.OPAQUE:
        return "tensor-or-structure"
    if k & v.LAYER:
        return "layer"
    if v.is_python(k):
        return "python"
    if k & v.SHAPE:
        return "shape"
    return "unknown"


RUNTIME_COLS = ("sym", "var", "eager", "list_t", "numpy", "py", "none", "list", "layer", "other", "mixed")
VERDICTS = ("tensor", "helper-param", "tensor-or-structure", "list", "layer", "python", "shape", "unknown",
            "not-walked")


def cmd_compare(a: argparse.Namespace) -> int:
    runtime: dict[str, dict] = {}
    for f in sorted(Path(a.runtime).glob("*.json")):
        runtime.update(json.loads(f.read_text()))
    table: dict[str, Counter] = defaultdict(Counter)
    gaps: list[str] = []
    defects: list[str] = []
    opaque: list[str] = []
    opaque_by: Counter = Counter()
    n_cases = 0
    for case, rec in sorted(runtime.items()):
        traced = {k: {s[:-2] for s in kinds if s.endswith("@T")} for k, kinds in rec["seen"].items()}
        traced = {k: v for k, v in traced.items() if v}
        if not traced:
            continue
        n_cases += 1
        measured = Path(rec.get("file", case))  # a driver (--drivers) measures another module
        flags = static_flags(measured)
        params = _params_by_line(measured)
        for key, kinds in sorted(traced.items()):
            kind = next(iter(kinds)) if len(kinds) == 1 else "mixed"
            ver = verdict(flags.get(key))
            table[ver][kind] += 1
            short = f"{Path(case).parent.name}/{Path(case).name}:{key}"
            if kind in ("sym", "var") and ver in ("unknown", "not-walked", "helper-param"):
                gaps.append(f"{ver:10} {kind:5} {short}")
            if kind in ("sym", "var") and ver == "tensor-or-structure":
                origin = "param" if key.split(":", 1)[1] in params.get(int(key.split(":", 1)[0]), ()) else "local"
                opaque_by[origin] += 1
                opaque.append(f"{kind:5} {origin:5} {short}")
            if ver == "tensor" and kind in ("py", "none", "numpy", "list", "layer"):
                defects.append(f"{kind:5} {short}")
    lines = [f"# value model vs runtime: {n_cases} TRAIN cases with traced lines; "
             "keys (line, name) seen inside a trace",
             "", "| static \\ runtime | " + " | ".join(RUNTIME_COLS) + " | total |",
             "|---" * (len(RUNTIME_COLS) + 2) + "|"]
    for ver in VERDICTS:
        row = table.get(ver, Counter())
        lines.append(f"| {ver} | " + " | ".join(str(row[c]) for c in RUNTIME_COLS) + f" | {sum(row.values())} |")
    sym_total = sum(table[v]["sym"] + table[v]["var"] for v in VERDICTS)
    sym_proved = table["tensor"]["sym"] + table["tensor"]["var"]
    lines += ["", f"symbolic/variable keys proved tensor: {sym_proved}/{sym_total}; "
              f"unknown or not walked: {len(gaps)}; proved tensor but a Python value/None/numpy/list/layer: "
              f"{len(defects)}",
              f"tensor-or-structure keys that hold a symbolic tensor: {opaque_by['param']} parameters never "
              f"rebound, {opaque_by['local']} other names"]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.summary:
        Path(a.summary).write_text(text)
    if a.gaps:
        print("\n".join(["precision defects:"] + defects[:a.gaps] + ["recall gaps:"] + gaps[:a.gaps]))
    if a.gap_file:
        Path(a.gap_file).write_text("\n".join(["precision defects:"] + defects + ["recall gaps:"] + gaps
                                              + ["tensor or structure:"] + opaque) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_worker":
        _worker(argv[1], argv[2], argv[3:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("runtime", help="run the TRAIN cases under the tracer")
    r.add_argument("--out", required=True)
    r.add_argument("--framework", action="append", choices=["tf", "jax"])
    r.add_argument("--batch", type=int, default=40)
    r.add_argument("--only", action="append", help="case paths containing this text")
    r.add_argument("--drivers", help="a folder of drivers (ENTRY plus TRACE_FILE, the module measured) instead of "
                                     "the TRAIN cases: tools/value_model_drivers/")
    c = sub.add_parser("compare", help="the confusion table of the value model against a runtime dir")
    c.add_argument("--runtime", required=True)
    c.add_argument("--summary")
    c.add_argument("--gaps", type=int, default=0, help="print this many gap/defect keys (TRAIN cases only)")
    c.add_argument("--gap-file")
    a = ap.parse_args(argv)
    if a.cmd == "runtime":
        a.framework = a.framework or ["jax", "tf"]
        return cmd_runtime(a)
    return cmd_compare(a)


if __name__ == "__main__":
    raise SystemExit(main())
