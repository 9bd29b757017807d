"""Bucketing on JAX: a small transformer encoder trained with ``jax.jit`` on each batching scheme.

    python benchmarks/bucketing_jax.py            # 3200 sequences, d=256, 2 layers
    python benchmarks/bucketing_jax.py --quick    # smoke run: 128 sequences, d=32, 1 layer

Each new shape costs one XLA compile: about 10 s a shape on an H200 with jax 0.11.2 (see
docs/known-results.md), so the pad-longest scheme dominates the run time on a GPU.

What ``benchmarks/bucketing.py`` section 4 measures for Keras, with attention and on whatever
device JAX finds (a GPU when there is one): one epoch of the same sequences (lognormal lengths
capped at 512, the same draw as bucketing.py) batched by each scheme, a fresh ``jax.jit`` step
per scheme, and for each: compilations (traces of the jitted step: each new input shape is traced
and compiled once), padded-token fraction, seconds spent in steps that compiled, total seconds, real
(non-padding) tokens per second including compile time and in steady steps, and the ratio to
padding every batch to 512 (the anchor, measured in the same run). Packed rows attend within
their own example only (block-diagonal mask from ``segment_ids``, positions restart per
example), so every scheme computes the same function of the same tokens. The loss is masked
language modelling (15% of real tokens, fixed seed); its mean over the last steps is printed
so a scheme that trains nothing would show.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bucketing import BatchFormer, BucketingCollator, BucketSpec, PackingCollator, pack_batches  # noqa: E402

# the corpus and the random batches of benchmarks/bucketing.py (same draw, same batches)
_spec = importlib.util.spec_from_file_location("bucketing_benchmark", Path(__file__).with_name("bucketing.py"))
assert _spec is not None and _spec.loader is not None
_benchmark = sys.modules["bucketing_benchmark"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_benchmark)
lognormal_corpus, random_batches = _benchmark.lognormal_corpus, _benchmark.random_batches

MAX_LENGTH = 512
BATCH = 32
K = 8
MULTIPLE = 8
VOCAB = 8000
MASK_ID = 4


def init_params(key, width: int, layers: int) -> dict:
    import jax
    import jax.numpy as jnp

    keys = iter(jax.random.split(key, 4 + 6 * layers))

    def dense(n_in: int, n_out: int):
        return jax.random.normal(next(keys), (n_in, n_out), jnp.float32) * (n_in ** -0.5)

    params = {
        "embed": jax.random.normal(next(keys), (VOCAB, width), jnp.float32) * 0.02,
        "pos": jax.random.normal(next(keys), (MAX_LENGTH, width), jnp.float32) * 0.02,
        "layers": [],
    }
    for _ in range(layers):
        params["layers"].append({
            "qkv": dense(width, 3 * width), "out": dense(width, width),
            "up": dense(width, 4 * width), "down": dense(4 * width, width),
            "ln1": jnp.ones(width), "ln2": jnp.ones(width),
        })
    return params


def make_step(heads: int, lr: float, traces: list[int]) -> Callable:
    """A new train step function (not jitted); ``traces[0]`` counts its traces (one per compile)."""
    import jax
    import jax.numpy as jnp

    def layer_norm(x, scale):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + 1e-6) * scale

    def loss_fn(params, batch):
        ids, segments, positions = batch["input_ids"], batch["segment_ids"], batch["position_ids"]
        rows, length = ids.shape
        x = params["embed"][ids] + params["pos"][positions]
        # a token attends to the tokens of its own example: padding mask and packing mask in one
        allowed = (segments[:, :, None] == segments[:, None, :]) & (segments[:, None, :] > 0)
        bias = jnp.where(allowed, 0.0, -1e9)[:, None]
        for layer in params["layers"]:
            h = layer_norm(x, layer["ln1"])
            q, k, v = jnp.split(h @ layer["qkv"], 3, axis=-1)
            split = lambda t: t.reshape(rows, length, heads, -1).transpose(0, 2, 1, 3)  # noqa: E731
            q, k, v = split(q), split(k), split(v)
            scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1]) + bias
            attended = (jax.nn.softmax(scores, -1) @ v).transpose(0, 2, 1, 3).reshape(rows, length, -1)
            x = x + attended @ layer["out"]
            x = x + jax.nn.gelu(layer_norm(x, layer["ln2"]) @ layer["up"]) @ layer["down"]
        logits = x @ params["embed"].T
        per_token = -jnp.take_along_axis(jax.nn.log_softmax(logits), batch["labels"][..., None], -1)[..., 0]
        weights = batch["loss_weights"]
        return (per_token * weights).sum() / jnp.maximum(weights.sum(), 1.0)

    def step(params, batch):
        traces[0] += 1  # Python runs only while jax traces: a new input shape
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss

    return step


def with_mlm(batch: dict[str, np.ndarray], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Mask 15% of real tokens (the same rule for every scheme); labels are the original ids."""
    ids = batch["input_ids"].astype(np.int32)
    real = batch["segment_ids"] > 0
    chosen = real & (rng.random(ids.shape) < 0.15)
    return {
        "input_ids": np.where(chosen, MASK_ID, ids).astype(np.int32),
        "segment_ids": batch["segment_ids"].astype(np.int32),
        "position_ids": batch["position_ids"].astype(np.int32),
        "labels": ids, "loss_weights": chosen.astype(np.float32),
    }


def schemes(lengths: np.ndarray, sequences: list[np.ndarray]) -> dict[str, Callable[[], list[dict]]]:
    def padded(rows: np.ndarray, width: int) -> dict[str, np.ndarray]:
        ids = np.zeros((len(rows), width), np.int32)
        for r, i in enumerate(rows):
            ids[r, :lengths[i]] = sequences[i]
        segments = (ids != 0).astype(np.int32)
        return {"input_ids": ids, "segment_ids": segments,
                "position_ids": np.broadcast_to(np.arange(width, dtype=np.int32), ids.shape)}

    def random_scheme(width: Callable[[np.ndarray], int]) -> list[dict]:
        return [padded(rows, width(lengths[rows])) for rows in random_batches(len(lengths))]

    def ours() -> list[dict]:
        spec = BucketSpec.fit(lengths, K, MULTIPLE, batch_size=BATCH, max_length=MAX_LENGTH)
        collator = BucketingCollator(spec)
        out = []
        for b in BatchFormer(spec, 1024, 0).form(range(len(lengths)), lengths):
            batch = collator([r if not isinstance(r, int) else {"input_ids": sequences[r]} for r in b.rows])
            ids = batch["input_ids"].astype(np.int32)
            out.append({"input_ids": ids, "segment_ids": batch["attention_mask"].astype(np.int32),
                        "position_ids": np.broadcast_to(np.arange(ids.shape[1], dtype=np.int32), ids.shape)})
        return out

    def packed() -> list[dict]:
        spec = BucketSpec((MAX_LENGTH,), (BATCH,))
        collator = PackingCollator(spec)
        return [collator([{"input_ids": sequences[i]} for i in indices])
                for indices in pack_batches(lengths, spec, max_segments=64, seed=0)]

    return {
        "pad to max_length 512": lambda: random_scheme(lambda b: MAX_LENGTH),
        "pad longest (random batches)": lambda: random_scheme(lambda b: int(b.max())),
        "pad_to_multiple_of 64 (random)": lambda: random_scheme(lambda b: min(-(-int(b.max()) // 64) * 64, MAX_LENGTH)),
        f"ours K={K}": ours,
        f"packed {BATCH}x{MAX_LENGTH}, segment attention": packed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="128 sequences, d=32, 1 layer")
    parser.add_argument("--sequences", type=int, default=3200)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.05, help="SGD learning rate (lower it for wide models)")
    parser.add_argument("--schemes", default="",
                        help="comma-separated words; run only the schemes whose name contains one "
                             "(e.g. 'max_length,ours,packed'); the first one run is the anchor")
    args = parser.parse_args(argv)
    if args.quick:
        args.sequences, args.width, args.layers, args.heads = 128, 32, 1, 2

    import jax
    from rich.console import Console
    from rich.table import Table

    console = Console(width=170)
    device = jax.devices()[0]
    console.print(f"jax {jax.__version__} on {device.platform}: {device.device_kind}")
    lengths = lognormal_corpus(args.quick).lengths[:args.sequences]
    rng = np.random.default_rng(0)
    sequences = [rng.integers(5, VOCAB, n) for n in lengths]
    real = int(lengths.sum())

    table = Table(title=f"JAX encoder d={args.width} x{args.layers} layers, {len(lengths)} sequences, 1 epoch, "
                        f"{device.platform}")
    for column in ("scheme", "compilations", "padding", "compile s", "total s", "real tokens/s incl. compile",
                   "steady real tokens/s", "x pad-to-max", "loss (last 10)"):
        table.add_column(column, justify="left" if column == "scheme" else "right")
    anchor = None
    started = time.perf_counter()
    wanted = [word.strip() for word in args.schemes.split(",") if word.strip()]
    selected = {name: make for name, make in schemes(lengths, sequences).items()
                if not wanted or any(word in name for word in wanted)}
    if not selected:
        parser.error(f"--schemes {args.schemes!r} matches none of: {', '.join(schemes(lengths, sequences))}")
    for name, make in selected.items():
        batches = [with_mlm(b, np.random.default_rng(i)) for i, b in enumerate(make())]
        assert sum(int((b["segment_ids"] > 0).sum()) for b in batches) == real, name  # the same tokens
        params = init_params(jax.random.PRNGKey(0), args.width, args.layers)
        # a new function per scheme: jax.jit caches by function, so each scheme counts its own compiles
        traces = [0]
        fresh = jax.jit(make_step(args.heads, args.lr, traces), donate_argnums=(0,))
        compile_seconds = steady_seconds = 0.0
        steady_tokens = slots = 0
        losses = []
        for batch in batches:
            slots += batch["segment_ids"].size
            cached = traces[0]
            begin = time.perf_counter()
            params, loss = fresh(params, batch)
            losses.append(float(loss))  # waits for the step
            elapsed = time.perf_counter() - begin
            if traces[0] > cached:
                compile_seconds += elapsed
            else:
                steady_seconds += elapsed
                steady_tokens += int((batch["segment_ids"] > 0).sum())
        seconds = compile_seconds + steady_seconds
        rate = real / seconds
        anchor = anchor or rate
        table.add_row(name, str(traces[0]), f"{1 - real / slots:.1%}", f"{compile_seconds:.1f}",
                      f"{seconds:.1f}", f"{rate / 1e3:.0f}k", f"{steady_tokens / max(steady_seconds, 1e-9) / 1e3:.0f}k",
                      f"{rate / anchor:.2f}x", f"{np.mean(losses[-10:]):.3f}")
        console.print(f"{name}: {traces[0]} compilations, {compile_seconds:.1f}s compiling, {seconds:.1f}s in all",
                      highlight=False)  # a line per scheme, so a run cut short still says something
    console.print(table)
    console.print(f"total {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
