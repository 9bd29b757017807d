"""Write corpus cases generated from the API tables (eval_cases/tf/*op_api_*.py, *shape_api_*.py).

Each probe below is one public TensorFlow function used the way model code uses it (a Keras
layer, a loss, a compiled helper). Whether the case is expected to fail is NOT decided here: it
is read from ``xlacheck/data/tf_xla_ops.json`` (the kernel table that ``tools/generate_op_table.py``
asks TensorFlow for): a function that creates an op without an ``XLA_CPU_JIT`` kernel gives a
positive ``op_api_<name>.py``, any other a near-miss negative ``neg_op_api_<name>.py``. The compiler
then labels the case (``oracle.py label``); a label that disagrees with the file name is a table
error worth reporting, not a case to rename silently.

Probes are dropped when the function cannot run eagerly on CPU at all (the oracle needs an eager
reference): ``tf.parallel_stack`` (graph-only) and ``tf.signal.rfftnd`` (no CPU kernel for
``RFFTND`` in TF 2.21).

Shape cases come from ``xlacheck/data/tf_api.json`` (``tools/generate_api_table.py``): for a
function argument the table lists in ``const_args``, ``shape_api_<name>_<arg>_from_data.py`` feeds
it a value computed from the input data (expected to fail: the argument must be a compile-time
constant) and ``neg_shape_api_<name>_<arg>_static.py`` feeds it a static shape value (expected to
compile). An argument the table does not list gives two negatives.

The split of a generated case is decided by its name like every other case
(``eval_cases/split.py``), before it is labelled.

    python tools/generate_api_cases.py            # (re)write the generated cases
    python tools/generate_api_cases.py --check    # exit 1 when a generated file is stale
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # xlacheck.op_table of this checkout (no TensorFlow import)
TABLE = ROOT / "xlacheck" / "data" / "tf_xla_ops.json"
OUT = ROOT / "eval_cases" / "tf"

# Sample inputs, by kind. Each is a Python expression evaluated inside ENTRY().
INPUTS = {
    "pos": "tf.reshape(tf.range(1, 13, dtype=tf.float32) / 4.0, [2, 6])",
    "unit": "tf.reshape(tf.range(1, 13, dtype=tf.float32) / 13.0, [2, 6])",
    "spd": "tf.constant([[[2.0, 0.3, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 1.0]]] * 2)",
    "img": "tf.reshape(tf.range(2 * 6 * 6 * 2, dtype=tf.float32) / 144.0, [2, 6, 6, 2])",
    "seq": "tf.reshape(tf.range(2 * 16, dtype=tf.float32) / 16.0, [2, 16])",
}


@dataclass(frozen=True)
class Probe:
    api: str       # the public name looked up in the table
    expr: str      # the call, on the input named ``x``
    kind: str      # key of INPUTS
    purpose: str   # what the surrounding code computes (docstring)
    reduce: str = "tf.reduce_sum({}, axis=-1)"  # how the layer/loss turns the result into its output
    # literal arguments of ``expr`` that select one of the table's measured variants (``conditions``):
    # the expected verdict is the variant's, and the case name carries the values
    when: tuple[tuple[str, object], ...] = ()
    grad: bool = False  # the call runs under a GradientTape of its input: the gradient's verdict counts


PROBES = (
    Probe("tf.math.bessel_i0", "tf.math.bessel_i0(x)", "pos", "the von Mises normaliser of a directional loss"),
    Probe("tf.math.bessel_i0e", "tf.math.bessel_i0e(x)", "pos", "the scaled von Mises normaliser of a directional loss"),
    Probe("tf.math.special.dawsn", "tf.math.special.dawsn(x)", "pos", "a Dawson-function activation"),
    Probe("tf.math.special.expint", "tf.math.special.expint(x)", "pos", "an exponential-integral decay feature"),
    Probe("tf.math.special.bessel_k0e", "tf.math.special.bessel_k0e(x)", "pos", "a Matern-kernel term"),
    Probe("tf.math.betainc", "tf.math.betainc(x + 0.5, x + 1.0, tf.clip_by_value(x / 4.0, 0.01, 0.99))", "pos",
          "a Beta CDF calibration"),
    Probe("tf.math.reduce_euclidean_norm", "tf.math.reduce_euclidean_norm(x, axis=-1, keepdims=True)", "pos",
          "row norms for feature normalisation", reduce="{}[:, 0]"),
    Probe("tf.norm", "tf.norm(x, axis=-1, keepdims=True)", "pos", "row norms for feature normalisation",
          reduce="{}[:, 0]"),
    Probe("tf.linalg.sqrtm", "tf.linalg.sqrtm(x)", "spd", "a whitening transform", reduce="tf.linalg.trace({})"),
    Probe("tf.linalg.logm", "tf.math.real(tf.linalg.logm(tf.cast(x, tf.complex64)))", "spd",
          "a log-Euclidean covariance distance", reduce="tf.linalg.trace({})"),
    Probe("tf.linalg.expm", "tf.linalg.expm(x * 0.1)", "spd", "a matrix-exponential flow step",
          reduce="tf.linalg.trace({})"),
    Probe("tf.linalg.pinv", "tf.linalg.pinv(x)", "spd", "a pseudo-inverse readout", reduce="tf.linalg.trace({})"),
    Probe("tf.linalg.svd", "tf.linalg.svd(x, compute_uv=False)", "spd", "a spectral-norm penalty",
          reduce="tf.reduce_max({}, axis=-1)"),
    Probe("tf.linalg.logdet", "tf.linalg.logdet(x)", "spd", "the log-determinant of a Gaussian likelihood",
          reduce="{}"),
    Probe("tf.nn.dilation2d",
          "tf.nn.dilation2d(x, tf.zeros([3, 3, 2]), strides=[1, 1, 1, 1], padding='SAME', "
          "data_format='NHWC', dilations=[1, 1, 1, 1])", "img", "a morphological-dilation layer",
          reduce="tf.reduce_mean({}, axis=[1, 2, 3])"),
    Probe("tf.nn.max_pool_with_argmax", "tf.nn.max_pool_with_argmax(x, 2, 2, 'VALID')[0]", "img",
          "SegNet-style pooling that keeps the argmax", reduce="tf.reduce_mean({}, axis=[1, 2, 3])"),
    Probe("tf.nn.fractional_avg_pool", "tf.nn.fractional_avg_pool(x, [1.0, 1.5, 1.5, 1.0])[0]", "img",
          "fractional average pooling", reduce="tf.reduce_mean({}, axis=[1, 2, 3])"),
    Probe("tf.image.sobel_edges", "tf.image.sobel_edges(x)", "img", "an edge-aware loss",
          reduce="tf.reduce_mean(tf.abs({}), axis=[1, 2, 3, 4])"),
    Probe("tf.image.extract_patches",
          "tf.image.extract_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], 'VALID')", "img",
          "a patch embedding", reduce="tf.reduce_mean({}, axis=[1, 2, 3])"),
    Probe("tf.signal.stft", "tf.abs(tf.signal.stft(x, frame_length=8, frame_step=4))", "seq",
          "a spectrogram front end", reduce="tf.reduce_sum({}, axis=[-1, -2])"),
    Probe("tf.math.segment_mean", "tf.math.segment_mean(tf.transpose(x), [0, 0, 0, 1, 1, 1])", "pos",
          "per-group feature means", reduce="tf.reduce_sum({}, axis=0)"),
    Probe("tf.math.segment_max", "tf.math.segment_max(tf.transpose(x), [0, 0, 0, 1, 1, 1])", "pos",
          "per-group feature maxima", reduce="tf.reduce_sum({}, axis=0)"),
    Probe("tf.math.unsorted_segment_mean",
          "tf.math.unsorted_segment_mean(tf.transpose(x), [0, 0, 0, 1, 1, 1], num_segments=2)", "pos",
          "per-group feature means", reduce="tf.reduce_sum({}, axis=0)"),
    Probe("tf.histogram_fixed_width", "tf.cast(tf.histogram_fixed_width(x, [0.0, 4.0], nbins=4), tf.float32)",
          "pos", "a value histogram for a calibration loss", reduce="tf.reduce_sum({})"),
    Probe("tf.histogram_fixed_width_bins",
          "tf.cast(tf.histogram_fixed_width_bins(x, [0.0, 4.0], nbins=4), tf.float32)", "pos",
          "bin indices for a calibration loss"),
    Probe("tf.searchsorted", "tf.cast(tf.searchsorted(tf.sort(x), x), tf.float32)", "pos",
          "ranks for a rank-based loss"),
    Probe("tf.random.stateless_poisson", "tf.random.stateless_poisson(tf.shape(x), [1, 2], x)", "pos",
          "Poisson noise augmentation"),
    Probe("tf.random.stateless_normal", "x + tf.random.stateless_normal(tf.shape(x), [1, 2])", "pos",
          "Gaussian noise augmentation"),
    Probe("tf.stack", "tf.stack([x, x * 2.0])", "pos", "a stacked two-view batch",
          reduce="tf.reduce_sum({}, axis=[0, 2])"),
    Probe("tf.math.special.spence", "tf.math.special.spence(x)", "pos", "a dilogarithm feature"),
    Probe("tf.keras.backend.resize_images",
          "K.resize_images(x, 2, 2, 'channels_last', interpolation='bicubic')", "img",
          "a decoder's upsampling", reduce="tf.reduce_mean({}, axis=[1, 2, 3])", when=(("interpolation", "bicubic"),)),
    Probe("tf.keras.backend.resize_images",
          "K.resize_images(x, 2, 2, 'channels_last', interpolation='bilinear')", "img",
          "a decoder's upsampling", reduce="tf.reduce_mean({}, axis=[1, 2, 3])", when=(("interpolation", "bilinear"),)),
    Probe("tf.keras.backend.resize_images", "K.resize_images(x, 2, 2, 'channels_last')", "img",
          "an input-gradient (saliency) map through a decoder's upsampling",
          reduce="tf.reduce_mean({}, axis=[1, 2, 3])", grad=True),
    Probe("tf.keras.backend.resize_images",
          "K.resize_images(x, 2, 2, 'channels_last', interpolation='bilinear')", "img",
          "an input-gradient (saliency) map through a decoder's upsampling",
          reduce="tf.reduce_mean({}, axis=[1, 2, 3])", when=(("interpolation", "bilinear"),), grad=True),
    Probe("tf.image.resize_with_pad", "tf.image.resize_with_pad(x, 8, 8, method='area')", "img",
          "letterboxing images to the model's input size", reduce="tf.reduce_mean({}, axis=[1, 2, 3])",
          when=(("method", "area"),)),
    Probe("tf.image.resize", "tf.image.resize(x, [12, 12], method='nearest')", "img",
          "an input-gradient (saliency) map through nearest upsampling",
          reduce="tf.reduce_mean({}, axis=[1, 2, 3])", when=(("method", "nearest"),), grad=True),
    Probe("tf.linalg.lstsq", "tf.linalg.lstsq(x, tf.ones([2, 3, 1]), l2_regularizer=0.1, fast=False)", "spd",
          "a ridge-regression readout", reduce="tf.reduce_sum({}, axis=[1, 2])", when=(("fast", False),)),
    Probe("tf.nn.erosion2d",
          "tf.nn.erosion2d(x, tf.zeros([3, 3, 2]), strides=[1, 1, 1, 1], padding='SAME', "
          "data_format='NHWC', dilations=[1, 1, 1, 1])", "img", "a morphological-erosion layer",
          reduce="tf.reduce_mean({}, axis=[1, 2, 3])"),
)

TEMPLATES = ("layer", "loss", "helper")
API_TABLE = ROOT / "xlacheck" / "data" / "tf_api.json"


@dataclass(frozen=True)
class ConstProbe:
    api: str        # a name in tf_api.json
    arg: str        # the argument under test
    call: str       # the call, with ``n`` in the argument under test
    data_n: str     # ``n`` computed from the input data
    static_n: str   # ``n`` from static shapes (a Python int at trace time)
    inputs: str     # ENTRY's argument tuple (names x, ids)
    params: str     # the compiled function's parameters
    reduce: str = "tf.reduce_sum(y)"


CONST_PROBES = (
    ConstProbe("tf.reshape", "shape", "tf.reshape(x, [n, -1])", "tf.reduce_max(ids)", "x.shape[0]",
               "(tf.reshape(tf.range(24, dtype=tf.float32), [4, 6]), tf.constant([2, 4, 1]))", "x, ids",
               "tf.reduce_sum(y, axis=-1)"),
    ConstProbe("tf.one_hot", "depth", "tf.one_hot(ids, n)", "tf.reduce_max(ids) + 1", "x.shape[-1]",
               "(tf.zeros([2, 5]), tf.constant([[1, 3, 0], [4, 2, 2]]))", "x, ids", "tf.reduce_sum(y, axis=[1, 2])"),
    ConstProbe("tf.tile", "multiples", "tf.tile(x, [1, n])", "tf.reduce_max(ids)", "x.shape[0]",
               "(tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]), tf.constant([1, 2]))", "x, ids",
               "tf.reduce_sum(y, axis=-1)"),
    ConstProbe("tf.math.unsorted_segment_sum", "num_segments", "tf.math.unsorted_segment_sum(x, ids, num_segments=n)",
               "tf.reduce_max(ids) + 1", "x.shape[0]",
               "(tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]), tf.constant([0, 1, 1, 0]))", "x, ids",
               "tf.reduce_sum(y, axis=0)"),
    ConstProbe("tf.image.resize", "size", "tf.image.resize(x, [n, n])", "tf.reduce_max(ids)", "x.shape[1] * 2",
               "(tf.reshape(tf.range(2 * 4 * 4, dtype=tf.float32) / 32.0, [2, 4, 4, 1]), tf.constant([8, 6]))",
               "x, ids", "tf.reduce_mean(y, axis=[1, 2, 3])"),
    ConstProbe("tf.reduce_sum", "axis", "tf.reduce_sum(x, axis=n)", "tf.reduce_min(ids)",
               "x.shape.rank - 1", "(tf.reshape(tf.range(24, dtype=tf.float32), [4, 6]), tf.constant([1, 0]))",
               "x, ids", "tf.reduce_sum(y)"),
    ConstProbe("tf.gather", "axis", "tf.gather(x, ids, axis=n)", "tf.reduce_min(ids)", "x.shape.rank - 1",
               "(tf.reshape(tf.range(24, dtype=tf.float32), [4, 6]), tf.constant([1, 0]))", "x, ids",
               "tf.reduce_sum(y, axis=-1)"),
    ConstProbe("tf.eye", "num_columns", "tf.eye(2, num_columns=n) * tf.reduce_sum(x)", "tf.reduce_max(ids)",
               "x.shape[-1]", "(tf.ones([2, 3]), tf.constant([3, 1]))", "x, ids", "tf.reduce_sum(y)"),
    ConstProbe("tf.signal.frame", "frame_length", "tf.signal.frame(x, n, 2)", "tf.reduce_max(ids)",
               "x.shape[-1] // 2", "(tf.reshape(tf.range(16, dtype=tf.float32) / 16.0, [2, 8]), tf.constant([4, 2]))",
               "x, ids", "tf.reduce_sum(y, axis=[1, 2])"),
)


def _slug(api: str) -> str:
    return api.removeprefix("tf.").replace(".", "_")


def _expected(probe: Probe) -> tuple[list[str], str]:
    """The ops without a kernel the table predicts for the probe (its variant, its gradient), and
    what the docstring says they are."""
    from xlacheck import op_table  # this worktree's package: ROOT is first on sys.path

    verdict = op_table.lookup(probe.api)
    if verdict is None:
        raise SystemExit(f"{TABLE}: no entry for {probe.api}; regenerate the table or drop the probe")
    when = dict(probe.when)
    given = "".join(f" with {k}={v!r}" for k, v in probe.when)
    forward = list(verdict.unsupported_for(when))
    if forward or not probe.grad:
        return forward, f"{probe.api}{given}"
    grad = verdict.grad_unsupported_for(when)
    return list(verdict.grad_unsupported if grad is None else grad), f"the gradient of {probe.api}{given}"


def _render(probe: Probe, unsupported: list[str], what: str) -> tuple[str, str]:
    positive = bool(unsupported)
    variant = "".join(f"_{str(v).lower()}" for _, v in probe.when) + ("_grad" if probe.grad else "")
    name = ("" if positive else "neg_") + f"op_api_{_slug(probe.api)}{variant}"
    verdict = (f"creates {', '.join(unsupported)}, which has no XLA_CPU_JIT kernel" if positive
               else "creates only ops with XLA_CPU_JIT kernels (near miss)")
    doc = (f'"""Generated by tools/generate_api_cases.py from xlacheck/data/tf_xla_ops.json: {what} '
           f'{verdict}; used for {probe.purpose}."""')
    mark = "  # XLA: op" if positive else ""
    result = probe.reduce.format("y")
    template = TEMPLATES[int(hashlib.sha1(probe.api.encode()).hexdigest(), 16) % len(TEMPLATES)]
    if probe.grad:
        body = f'''@tf.function(jit_compile=True)
def forward(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = {probe.expr}{mark}
        loss = tf.reduce_mean(tf.square({result}))
    return tape.gradient(loss, x)
'''
    elif template == "layer":
        body = f'''class Feature(tf.keras.layers.Layer):
    def call(self, x):
        y = {probe.expr}{mark}
        return {result}


@tf.function(jit_compile=True)
def forward(x):
    return Feature()(x)
'''
    elif template == "loss":
        body = f'''def feature_loss(x):
    y = {probe.expr}{mark}
    return tf.reduce_mean({result})


@tf.function(jit_compile=True)
def forward(x):
    return feature_loss(x)
'''
    else:
        body = f'''@tf.function(jit_compile=True)
def forward(x):
    y = {probe.expr}{mark}
    return {result}
'''
    compare = "COMPARE = False\n\n\n" if "random" in probe.api else ""
    imports = "import tensorflow as tf\n" + (
        "from tensorflow.keras import backend as K\n" if probe.expr.startswith("K.") else "")
    text = f'''{doc}
{imports}

{body}

# --- oracle ---
{compare}def ENTRY():
    return forward, ({INPUTS[probe.kind]},)
'''
    return name, text


def _render_const(probe: ConstProbe, const_args: list[str]) -> dict[str, str]:
    out = {}
    expected_fail = probe.arg in const_args
    slug = f"{_slug(probe.api)}_{probe.arg}"
    for variant, n_expr in (("from_data", probe.data_n), ("static", probe.static_n)):
        positive = expected_fail and variant == "from_data"
        name = ("" if positive else "neg_") + f"shape_api_{slug}_{variant}"
        where = ("a value computed from the input data" if variant == "from_data"
                 else "a static shape value (a Python int at trace time)")
        verdict = (f"`{probe.arg}` is in its const_args" if probe.arg in const_args
                   else f"`{probe.arg}` is not in its const_args")
        doc = (f'"""Generated by tools/generate_api_cases.py from xlacheck/data/tf_api.json: {probe.api} with '
               f'`{probe.arg}` fed {where}; {verdict}."""')
        mark = "  # XLA: shape" if positive else ""
        out[f"{name}.py"] = f'''{doc}
import tensorflow as tf


@tf.function(jit_compile=True)
def forward({probe.params}):
    n = {n_expr}
    y = {probe.call}{mark}
    return {probe.reduce.replace("y", "y")}


# --- oracle ---
def ENTRY():
    return forward, {probe.inputs}
'''
    return out


def render_all() -> dict[str, str]:
    api = json.loads(TABLE.read_text())["api"]
    out = {}
    for probe in PROBES:
        if probe.api not in api:
            raise SystemExit(f"{TABLE}: no entry for {probe.api}; regenerate the table or drop the probe")
        name, text = _render(probe, *_expected(probe))
        out[f"{name}.py"] = text
    facts = json.loads(API_TABLE.read_text())["entries"]
    for const in CONST_PROBES:
        entry = facts.get(const.api)
        while entry is not None and "alias_of" in entry:
            entry = facts.get(entry["alias_of"])
        if entry is None:
            raise SystemExit(f"{API_TABLE}: no entry for {const.api}; regenerate the table or drop the probe")
        out.update(_render_const(const, list(entry.get("const_args", ()))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a generated file is missing or stale")
    args = ap.parse_args(argv)
    want = render_all()
    stale = [n for n, t in want.items() if not (OUT / n).exists() or (OUT / n).read_text() != t]
    stale += sorted(p.name for p in OUT.glob("*_api_*.py") if p.name not in want)
    if args.check:
        if stale:
            print(f"stale generated cases: {', '.join(stale)}; run python tools/generate_api_cases.py", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for old in sorted(OUT.glob("*_api_*.py")):
        if old.name not in want:
            old.unlink()
    for n in stale:
        if n in want:
            (OUT / n).write_text(want[n])
    print(f"{len(want)} generated cases ({len(stale)} written) in {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
