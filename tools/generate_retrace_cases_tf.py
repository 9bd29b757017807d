"""Write the TF retrace form matrix (eval_cases/tf/form_retrace_*.py): retrace SINKS crossed with call SITES.

A sink is what changes from one call of a compiled step to the next, as measured by
``tools/generate_tf_retrace_table.py`` on ``tf.function`` itself (``xlacheck/data/tf_retrace.json``):
a Python float, int or bool that takes a new value every step (``python_float_value_changes``,
``python_int_value_changes``, ``python_bool_changes``), the last partial batch of ``.batch(n)``
(``dataset_partial_batch_epochs``, and its ``input_signature`` twin under ``jit_compile``),
``.padded_batch(n)`` padded to the longest sequence (``dataset_padded_batch_longest``), a new plain
Python object per step (``new_plain_object_each_call``), a Python list of tensors one item longer per
step (``list_of_tensors_length_changes``), a ``tf.function`` created anew per step
(``function_created_per_call``). Each sink has a near miss that does not retrace (the row's twin: the
value fed as a tensor, ``drop_remainder=True``, ``padded_shapes``, the object or function hoisted out
of the loop, a window of fixed length).

A site is the way model code calls the step: a ``for`` loop in a training function, a helper called
from that loop, a method ``self.step`` compiled in ``__init__`` called from ``fit``, a ``while``
loop, and a list comprehension. The oracle runs what the site passes: ``ENTRY`` is what the site calls, with the first
iteration's arguments, and ``ALT_ARGS`` the next iterations' (oracle conventions,
eval_cases/README.md).

The file name states the author's expectation; the compiler labels the case (``oracle.py label``);
``COMPILER`` records cells where it disagreed (the file is named by the compiler's verdict).

    python tools/generate_retrace_cases_tf.py            # (re)write the cases and eval_cases/forms_tf_retrace.txt
    python tools/generate_retrace_cases_tf.py --check    # exit 1 when a generated file is stale
    python tools/generate_retrace_cases_tf.py --matrix   # xlacheck per cell (sink x site), by the labels
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _form_cases  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "eval_cases" / "tf"
LIST = ROOT / "eval_cases" / "forms_tf_retrace.txt"
MARK = "  # XLA: retrace"
X = "X = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 10.0\n"
ROWS = "ROWS = tf.reshape(tf.range(30, dtype=tf.float32), [10, 3]) / 10.0\n"


@dataclass(frozen=True)
class Sink:
    name: str
    row: str            # the xlacheck/data/tf_retrace.json row that measures it
    what: str
    module: str         # module-level data (and classes) the loop reads
    params: str         # the step's parameters
    body: str           # the step's body (returns)
    driver: str         # the training function's parameters
    head: str           # the loop's iteration: "for T in ITER" (a counter loop for the while site when count)
    pre: str            # lines before the call in the loop body (may be empty)
    args: str           # the call's arguments
    entry: tuple[str, ...]  # the first call's arguments, then the next calls'
    fixed_module: str | None = None
    fixed_pre: str | None = None
    fixed_args: str | None = None
    fixed_setup: str = ""   # lines before the loop in the fixed form
    fixed_entry: tuple[str, ...] | None = None
    decorator: str = "@tf.function(jit_compile=True)"
    count: bool = True  # the loop counts steps (the while site counts them itself)
    oracle: str = ""    # extra definitions in the oracle section


SINKS = (
    Sink("pyfloat", "python_float_value_changes", "a Python float (a decayed learning rate) new at every step",
         X, "x, lr", "return tf.reduce_sum(tf.nn.relu(x)) * lr", "epochs", "for epoch in range(epochs)",
         "lr = 0.1 * 0.5 ** epoch\n", "X, lr", ("(X, 0.1)", "(X, 0.05)", "(X, 0.025)"),
         fixed_args="X, tf.constant(lr)",
         fixed_entry=("(X, tf.constant(0.1))", "(X, tf.constant(0.05))", "(X, tf.constant(0.025))")),
    Sink("pyint", "python_int_value_changes", "a Python int (the step counter) new at every step",
         X, "x, step", "return tf.reduce_sum(x) * tf.cast(step + 1, tf.float32)", "steps", "for step in range(steps)",
         "", "X, step", ("(X, 0)", "(X, 1)", "(X, 2)"),
         fixed_args="X, tf.constant(step)",
         fixed_entry=("(X, tf.constant(0))", "(X, tf.constant(1))", "(X, tf.constant(2))")),
    Sink("pybool", "python_bool_changes", "a Python bool that flips from step to step",
         X, "x, training", "return tf.reduce_sum(x + 0.1 * tf.cast(training, tf.float32))", "steps",
         "for step in range(steps)", "training = step % 2 == 0\n", "X, training",
         ("(X, True)", "(X, False)", "(X, True)"),
         fixed_args="X, tf.constant(training)",
         fixed_entry=("(X, tf.constant(True))", "(X, tf.constant(False))", "(X, tf.constant(True))")),
    Sink("batch", "dataset_partial_batch_epochs", "the last, partial batch of .batch(4) over 10 rows",
         ROWS + "DATA = tf.data.Dataset.from_tensor_slices(ROWS).batch(4)\n", "xb",
         "return tf.reduce_sum(tf.nn.relu(xb), axis=0)", "", "for xb in DATA", "", "xb",
         ("(ROWS[:4],)", "(ROWS[4:8],)", "(ROWS[8:],)"),
         fixed_module=ROWS + "DATA = tf.data.Dataset.from_tensor_slices(ROWS).batch(4, drop_remainder=True)\n",
         fixed_entry=("(ROWS[:4],)", "(ROWS[4:8],)"), count=False),
    Sink("batcheven", "dataset_partial_batch_epochs",
         "the near miss of a partial batch: .batch(5) over 10 rows without drop_remainder (every batch is full)",
         ROWS + "DATA = tf.data.Dataset.from_tensor_slices(ROWS).batch(5)\n", "xb",
         "return tf.reduce_sum(tf.nn.relu(xb), axis=0)", "", "for xb in DATA", "", "xb",
         ("(ROWS[:5],)", "(ROWS[5:],)"),
         fixed_module=ROWS + "DATA = tf.data.Dataset.from_tensor_slices(ROWS).shuffle(10).batch(5)\n",
         fixed_entry=("(ROWS[:5],)", "(ROWS[5:],)"), count=False),
    Sink("signature", "dataset_partial_batch_epochs_input_signature",
         "the last, partial batch of .batch(4) into an input_signature with a None batch dimension under jit_compile",
         ROWS + "DATA = tf.data.Dataset.from_tensor_slices(ROWS).batch(4)\n", "xb",
         "return tf.reduce_sum(tf.nn.relu(xb), axis=0)", "", "for xb in DATA", "", "xb",
         ("(ROWS[:4],)", "(ROWS[4:8],)", "(ROWS[8:],)"),
         fixed_module=ROWS + "DATA = tf.data.Dataset.from_tensor_slices(ROWS).batch(4, drop_remainder=True)\n",
         fixed_entry=("(ROWS[:4],)", "(ROWS[4:8],)"),
         decorator="@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)], jit_compile=True)",
         count=False),
    Sink("padded", "dataset_padded_batch_longest", ".padded_batch(2) padding each batch to its longest sequence",
         "DATA = tf.data.Dataset.range(1, 7).map(lambda n: tf.range(n)).padded_batch(2)\n", "ids",
         "return tf.reduce_sum(tf.cast(ids, tf.float32), axis=-1)", "", "for ids in DATA", "", "ids",
         ("(_padded(1, 2, 2),)", "(_padded(3, 4, 4),)", "(_padded(5, 6, 6),)"),
         fixed_module=("DATA = tf.data.Dataset.range(1, 7).map(lambda n: tf.range(n))"
                       ".padded_batch(2, padded_shapes=[8])\n"),
         fixed_entry=("(_padded(1, 2, 8),)", "(_padded(3, 4, 8),)", "(_padded(5, 6, 8),)"), count=False,
         oracle="\n\ndef _padded(a, b, width):\n"
                "    return tf.stack([tf.pad(tf.range(n, dtype=tf.int64), [[0, width - n]]) for n in (a, b)])\n"),
    Sink("newobj", "new_plain_object_each_call", "a new plain Python object (a config) built at every step",
         X + "\n\nclass Config:\n    def __init__(self, scale):\n        self.scale = scale\n", "x, cfg",
         "return tf.reduce_sum(x) * cfg.scale", "steps", "for step in range(steps)", "cfg = Config(0.5)\n", "X, cfg",
         ("(X, Config(0.5))", "(X, Config(0.5))", "(X, Config(0.5))"),
         fixed_pre="", fixed_setup="cfg = Config(0.5)\n", fixed_entry=("(X, _CFG)", "(X, _CFG)", "(X, _CFG)"),
         oracle="\n\n_CFG = Config(0.5)\n"),
    Sink("growlist", "list_of_tensors_length_changes", "a Python list of tensors one item longer at every step",
         X, "x, history", "return tf.reduce_sum(x) + tf.reduce_mean(tf.stack(history))", "steps",
         "for step in range(steps)", "history.append(tf.reduce_mean(X) * (step + 1))\n", "X, history",
         ("(X, [_h(1)])", "(X, [_h(1), _h(2)])", "(X, [_h(1), _h(2), _h(3)])"),
         fixed_args="X, history[-1:]", fixed_entry=("(X, [_h(1)])", "(X, [_h(2)])", "(X, [_h(3)])"),
         oracle="\n\ndef _h(k):\n    return tf.reduce_mean(X) * k\n"),
    Sink("zeros", "numpy_array_shape_changes", "a tensor sized by the step counter (tf.zeros([step + 1, 3]))",
         X, "x, buf", "return tf.reduce_sum(x) + tf.reduce_sum(buf)", "steps", "for step in range(steps)",
         "buf = tf.zeros([step + 1, 3])\n", "X, buf",
         ("(X, tf.zeros([1, 3]))", "(X, tf.zeros([2, 3]))", "(X, tf.zeros([3, 3]))"),
         fixed_pre="buf = tf.zeros([4, 3]) + float(step + 1)\n",
         fixed_entry=("(X, tf.zeros([4, 3]) + 1.0)", "(X, tf.zeros([4, 3]) + 2.0)", "(X, tf.zeros([4, 3]) + 3.0)")),
    Sink("newfunction", "function_created_per_call", "a tf.function created anew at every step",
         X + "\n\ndef scale(x):\n    return tf.reduce_sum(tf.nn.relu(x)) * 0.5\n", "", "", "steps",
         "for step in range(steps)", "", "X", ("(1,)", "(1,)", "(1,)"), fixed_entry=("(1,)", "(1,)", "(1,)")),
)
# the growing list starts empty before the loop
_SETUP = {"growlist": "history = []\n"}

SITES = ("loop", "helper", "method", "while", "comprehension", "declared")
# sinks that have a declared cell: the step alone, no caller in the file (the oracle's ALT_ARGS are the
# only caller: a caller in another module); the dataset and per-step-object sinks need their caller
DECLARED = ("pyfloat", "pyint", "pybool", "growlist", "zeros")
# sinks whose step is not written as a list comprehension (state grown or created across statements)
NO_COMPREHENSION = ("growlist", "newfunction")
FIXED_SITES = ("loop", "method")
# cells where the compiler's verdict differs from the expectation: True = fails, False = compiles
# (batcheven is a near miss in every cell: its batches all have 5 rows)
COMPILER: dict[tuple[str, str], bool] = {("batcheven", site): False for site in
                                         ("loop", "helper", "method", "while", "comprehension")}


def _ind(code: str, n: int) -> str:
    return textwrap.indent(code, " " * n)


def _comprehension(sink: Sink, call: str, pre: str, setup: str) -> str:
    """The training loop as a list comprehension (indented 4): a one-line ``name = value`` before
    the call is written into the call (``[step(X, 0.1 * 0.5 ** epoch) for epoch in range(epochs)]``)."""
    if pre:
        name, value = pre.rstrip("\n").split(" = ", 1)
        head, _, rest = call.partition("(")
        args, _, tail = rest.rpartition(")")
        call = head + "(" + ", ".join(value if a == name else a for a in args.split(", ")) + ")" + tail
    expr, _, mark = call.partition("  #")
    return _ind(setup + f"return [{expr} {sink.head}]" + (f"  #{mark}" if mark else "") + "\n", 4)


def _loop(sink: Sink, site: str, call: str, pre: str, setup: str) -> str:
    """The training loop (indented 4) calling ``call``."""
    if site == "comprehension":
        return _comprehension(sink, call, pre, setup)
    body = pre + f"out = {call}\n"
    if site == "while" and sink.count:
        target = sink.head.split()[1]
        bound = sink.head.split("range(")[1].rstrip(")")
        return _ind(setup + f"out = None\n{target} = 0\nwhile {target} < {bound}:\n" + _ind(body, 4)
                    + f"    {target} += 1\nreturn out\n", 4)
    if site == "while":
        return _ind(setup + "out = None\nbatches = iter(DATA)\nwhile True:\n"
                    + f"    {sink.head.split()[1]} = next(batches, None)\n    if {sink.head.split()[1]} is None:\n"
                    + "        break\n" + _ind(body, 4) + "return out\n", 4)
    return _ind(setup + f"out = None\n{sink.head}:\n" + _ind(body, 4) + "return out\n", 4)


def _created_per_step(sink: Sink, site: str, fixed: bool, mark: str) -> tuple[str, str]:
    """The ``newfunction`` sink: the site creates the compiled function at every step (fixed: once, at
    module level or in ``__init__``); the oracle calls what creates it, once per step."""
    made = "tf.function(scale, jit_compile=True)"
    if site == "method":
        init = f"        self.step_fn = {made.replace('scale', 'self._scale')}\n" if fixed else "        pass\n"
        pre = "" if fixed else f"self.step_fn = {made.replace('scale', 'self._scale')}{mark}\n"
        code = ("class Trainer:\n    def __init__(self):\n" + init + "\n    def _scale(self, x):\n"
                "        return tf.reduce_sum(tf.nn.relu(x)) * 0.5\n\n    def fit(self, steps):\n"
                + _ind(_loop(sink, "loop", "self.step_fn(X)", pre, ""), 4))
        return code, "trainer = Trainer()\n    _KEEP.append(trainer)\n    return trainer.fit, (1,)"
    head = f"STEP_FN = {made}\n\n\n" if fixed else ""
    callee = "STEP_FN" if fixed else "step_fn"
    pre = "" if fixed else f"step_fn = {made}{mark}\n"
    if site == "helper":
        code = head + "def run_step(x):\n" + _ind(pre, 4) + f"    return {callee}(x)\n\n\n"
        code += "def train(steps):\n" + _loop(sink, "loop", "run_step(X)", "", "")
        return code, "return run_step, (X,)"
    code = head + "def train(steps):\n" + _loop(sink, site, f"{callee}(X)", pre, "")
    return code, "return train, (1,)"


def _render(sink: Sink, site: str, fixed: bool) -> tuple[str, str]:
    fails = not fixed and COMPILER.get((sink.name, site), True)
    mark = MARK if fails else ""
    module = (sink.fixed_module if fixed and sink.fixed_module else sink.module)
    pre = sink.fixed_pre if fixed and sink.fixed_pre is not None else sink.pre
    args = sink.fixed_args if fixed and sink.fixed_args else sink.args
    setup = _SETUP.get(sink.name, "") + (sink.fixed_setup if fixed else "")
    entry = sink.fixed_entry if fixed and sink.fixed_entry else sink.entry
    step_params = sink.params
    if sink.name == "newfunction":
        code, oracle_entry = _created_per_step(sink, site, fixed, mark)
        entry = ("(X,)",) * 3 if site == "helper" else entry
    elif site == "declared":
        code = f"{sink.decorator}\ndef train_step({step_params}):\n    {sink.body}{mark}\n"
        oracle_entry = f"return train_step, {entry[0]}"
    elif site == "method":
        decorator = sink.decorator.removeprefix("@tf.function(").removesuffix(")")
        code = (f"class Trainer:\n    def __init__(self):\n        self.step = tf.function(self._step, {decorator})\n\n"
                f"    def _step(self, {step_params}):\n        {sink.body}\n\n"
                f"    def fit(self{', ' + sink.driver if sink.driver else ''}):\n"
                + _ind(_loop(sink, "loop", f"self.step({args}){mark}", pre, setup), 4))
        oracle_entry = f"trainer = Trainer()\n    _KEEP.append(trainer)\n    return trainer.step, {entry[0]}"
    else:
        code = f"{sink.decorator}\ndef train_step({step_params}):\n    {sink.body}\n\n\n"
        callee, oracle_fn = "train_step", "train_step"
        if site == "helper":
            code += f"def run_step({step_params}):\n    return train_step({step_params})\n\n\n"
            callee = oracle_fn = "run_step"
        code += f"def train({sink.driver}):\n" + _loop(sink, site, f"{callee}({args}){mark}", pre, setup)
        oracle_entry = f"return {oracle_fn}, {entry[0]}"
    name = ("" if fails else "neg_") + f"form_retrace_{sink.name}_" + ("fixed_" if fixed else "") + site
    site_text = {"loop": "called in a for loop of a training function",
                 "helper": "passed through a helper called in the training loop",
                 "method": "called as self.step (compiled in __init__) in a fit loop",
                 "while": "called in a while loop",
                 "comprehension": "called in a list comprehension",
                 "declared": "with no caller in this file (its callers are in another module)"}[site]
    doc = (f"the near miss of {sink.what} (it does not retrace), {site_text}" if fixed
           else f"{sink.what}, {site_text} (row {sink.row})")
    keep = "_KEEP = []\n" if "_KEEP" in oracle_entry else ""
    alts = ", ".join(entry[1:])
    text = (f'"""Generated by tools/generate_retrace_cases_tf.py (the TF retrace matrix): {doc}."""\n'
            f"import tensorflow as tf\n\n{module}\n\n{code}\n\n# --- oracle ---\nCATEGORY = \"retrace\"\nWRAP = False\n"
            f"COMPARE = False\n{keep}{sink.oracle}\n\ndef ENTRY():\n    {oracle_entry}\n\n\n"
            f"def ALT_ARGS():\n    return [{alts}]\n")
    return name, text


def render_all() -> dict[str, str]:
    out = {}
    for sink in SINKS:
        for site in SITES:
            if site == "comprehension" and sink.name in NO_COMPREHENSION or site == "declared" \
                    and sink.name not in DECLARED:
                continue
            name, text = _render(sink, site, fixed=False)
            out[f"{name}.py"] = text
        for site in FIXED_SITES:
            name, text = _render(sink, site, fixed=True)
            out[f"{name}.py"] = text
    return out


def print_matrix(preview: bool = False) -> int:
    """Lint every labelled case as xla_cases_score.py does (stripped, jit-compiled declaration) and
    print one mark per cell: F flagged retrace, . missed, o quiet on a case that does not retrace,
    x finding on one, E broken (no eager reference)."""
    marks = _form_cases.lint_marks(render_all(), OUT, preview=preview)
    cells = {tuple(case.removeprefix("neg_").removeprefix("form_retrace_").split("_", 1)): mark
             for case, mark in marks.items()}
    counts = {m: list(marks.values()).count(m) for m in "F.oxE"}
    sinks = [s.name for s in SINKS]
    sites = list(SITES) + [f"fixed_{s}" for s in FIXED_SITES]
    print(" " * 14 + "".join(f"{s:>12}" for s in sinks))
    for p in sites:
        print(f"{p:14}" + "".join(f"{cells.get((s, p), ''):>12}" for s in sinks))
    tp, fn = counts["F"], counts["."]
    print(f"retraces flagged {tp}/{tp + fn}, non-retracing cases flagged {counts['x']}/{counts['x'] + counts['o']}, "
          f"broken {counts['E']}  ({_form_cases.MARKS})")
    return 0


def _generated() -> list[Path]:
    mark = '"""Generated by tools/generate_retrace_cases_tf.py'
    return [p for p in [*OUT.glob("form_retrace_*.py"), *OUT.glob("neg_form_retrace_*.py")]
            if p.read_text().startswith(mark)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a generated file is missing or stale")
    ap.add_argument("--matrix", action="store_true", help="print xlacheck's result per cell, by the labels")
    ap.add_argument("--preview", action="store_true", help="with --matrix: lint with the rules behind --preview")
    args = ap.parse_args(argv)
    if args.matrix:
        return print_matrix(args.preview)
    return _form_cases.sync(render_all(), OUT, LIST, _generated(), "generate_retrace_cases_tf.py", check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
