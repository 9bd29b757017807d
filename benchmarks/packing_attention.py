"""Packing vs bucketing on a model with attention: a small HF TF BERT MLM training step under
``jit_compile``, equal token budget per step (4,096 slots), lognormal lengths capped at 512.

    python benchmarks/packing_attention.py [--sequences 768] [--epochs 3] [--attention-length L0]

Section 4 of ``benchmarks/bucketing.py`` trains a per-token toy model, where only padding and
compiles count. Here a packed row of 512 also pays attention over 512 positions where a
bucketed row pays over its bucket's width: this measures whether packing still wins.

Schemes: our bucketing K=8; tf.data ``bucket_by_sequence_length`` (quantile boundaries, K=8,
equal slots per step); packing into one shape 8x512; packing into the two row widths that
``fit_packing_spec`` chooses with the attention cost model. The model's ``attention_length``
(the row length at which attention costs as much per position as the rest of the step) is
measured first in the same run, from steady steps of the packed step at 32x128 and 8x512
(equal positions; ``L0 = (t128 * 512 - t512 * 128) / (t512 - t128)``), unless given.
Every scheme runs whole epochs (the same real tokens), from the same initial weights; steps
that compiled are counted apart, and the epochs of the schemes are interleaved so that a
change of load reaches all of them. Times: wall (perf_counter) and the process's CPU time
(``time.process_time``, all threads): on a loaded machine wall time measures the load too.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from bucketing import (
    BatchFormer,
    BucketingCollator,
    BucketSpec,
    MaskingSpec,
    PackingCollator,
    fit_packing_spec,
    pack_batches,
    quantile_boundaries,
)

MAX_LENGTH = 512
SLOTS = 4096
VOCAB = 8000


def make_model(tf, transformers):
    tf.random.set_seed(0)
    config = transformers.BertConfig(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=512,
                                     max_position_embeddings=MAX_LENGTH)
    model = transformers.TFBertForMaskedLM(config)
    model(model.dummy_inputs)
    optimizer = tf.keras.optimizers.SGD(0.01)
    optimizer.build(model.trainable_variables)
    return model, optimizer


def make_step(tf, model, optimizer, is_packed: bool):
    from bucketing.packing_models import tf_packed_masked_lm_logits

    @tf.function(jit_compile=True, reduce_retracing=False)  # xlacheck: ignore[XLA404]
    def step(batch):
        with tf.GradientTape() as tape:
            if is_packed:
                logits = tf_packed_masked_lm_logits(model, batch["input_ids"], batch["segment_ids"],
                                                    batch["position_ids"], training=True)
            else:
                logits = model(batch["input_ids"], attention_mask=batch["attention_mask"], training=True).logits
            weight = tf.cast(batch["labels"] != -100, tf.float32)
            per_token = tf.keras.losses.sparse_categorical_crossentropy(
                tf.maximum(batch["labels"], 0), logits, from_logits=True)
            loss = tf.reduce_sum(per_token * weight) / tf.maximum(tf.reduce_sum(weight), 1.0)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return step


PACKED_KEYS = ("input_ids", "segment_ids", "position_ids", "labels")
PADDED_KEYS = ("input_ids", "attention_mask", "labels")


def measure_attention_length(tf, transformers, examples, masking, repeats: int = 4) -> tuple[float, dict[int, float]]:
    """L0 from the median CPU time of steady packed steps at 32x128 and 8x512 (equal positions)."""
    model, optimizer = make_model(tf, transformers)
    step = make_step(tf, model, optimizer, True)
    seconds = {}
    for width in (128, 512):
        spec = BucketSpec((width,), (SLOTS // width,))
        short = [e for e in examples if len(e["input_ids"]) <= width]
        lengths = np.array([len(e["input_ids"]) for e in short])
        indices = pack_batches(lengths, spec, max_segments=64, seed=0)[0]
        batch = PackingCollator(spec, masking=masking, seed=0)([short[i] for i in indices])
        feed = {k: tf.constant(batch[k]) for k in PACKED_KEYS}
        step(feed).numpy()  # compile
        times = []
        for _ in range(repeats):
            start = time.process_time()
            step(feed).numpy()
            times.append(time.process_time() - start)
        seconds[width] = float(np.median(times))
    t_short, t_long = seconds[128], seconds[512]
    return (t_short * 512 - t_long * 128) / max(t_long - t_short, 1e-9), seconds


def tf_data_bucketed(tf, examples, lengths, masking):
    """tf.data's bucket_by_sequence_length over the examples (quantile boundaries, K=8, batch
    SLOTS // boundary, pad to the boundary), then our MLM masking on each padded batch."""
    from bucketing.masking import mask_tokens_np

    boundaries = quantile_boundaries(lengths, 8, 8, MAX_LENGTH)
    ids = tf.ragged.constant([e["input_ids"] for e in examples], dtype=tf.int64)
    ds = tf.data.Dataset.from_tensor_slices(ids).map(lambda x: x)
    ds = ds.apply(tf.data.experimental.bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], bucket_boundaries=[b + 1 for b in boundaries],
        bucket_batch_sizes=[SLOTS // b for b in boundaries] + [SLOTS // MAX_LENGTH],
        pad_to_bucket_boundary=True))
    rng = np.random.default_rng(0)
    out = []
    for batch in ds.as_numpy_iterator():
        real = batch != 0
        masked, labels = mask_tokens_np(batch[real], masking, rng)
        input_ids = batch.copy()
        input_ids[real] = masked
        full = np.full(batch.shape, -100, dtype=np.int64)
        full[real] = np.where(labels == masking.ignore_index, -100, labels)
        out.append({"input_ids": input_ids, "attention_mask": real.astype(np.int64), "labels": full})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=768)
    parser.add_argument("--epochs", type=int, default=3, help="epochs per scheme, interleaved (the first compiles)")
    parser.add_argument("--attention-length", type=float, default=None,
                        help="skip measuring it: the row length where attention costs as much as the rest")
    args = parser.parse_args(argv)
    import tensorflow as tf
    import transformers
    from rich.console import Console
    from rich.table import Table

    tf.get_logger().setLevel("ERROR")
    console = Console(width=200)
    rng = np.random.default_rng(0)
    lengths = np.minimum(rng.lognormal(4.6, 0.8, args.sequences).astype(int) + 2, MAX_LENGTH)
    examples = [{"input_ids": rng.integers(5, VOCAB, n)} for n in lengths]
    masking = MaskingSpec(mask_token_id=4, vocab_size=VOCAB, special_token_ids=(0, 1, 2, 3, 4), pad_token_id=0)

    if args.attention_length is None:
        attention_length, calibration = measure_attention_length(tf, transformers, examples, masking)
        console.print(f"attention_length measured: {attention_length:.0f} (median CPU s per step of 4096 "
                      f"positions: 32x128 {calibration[128]:.3f}, 8x512 {calibration[512]:.3f})")
    else:
        attention_length = args.attention_length
    fitted = fit_packing_spec(lengths, MAX_LENGTH, SLOTS, attention_length=attention_length, max_segments=64)
    console.print(f"fit_packing_spec(attention_length={attention_length:.0f}): {fitted}")

    def packed_batches(spec):
        collator = PackingCollator(spec, masking=masking, seed=0)
        return [collator([examples[i] for i in b]) for b in pack_batches(lengths, spec, max_segments=64, seed=0)]

    one_shape = BucketSpec((MAX_LENGTH,), (SLOTS // MAX_LENGTH,))
    bucket_spec = BucketSpec.fit(lengths, 8, 8, tokens_per_batch=SLOTS, max_length=MAX_LENGTH)
    bucketing = BucketingCollator(bucket_spec, masking=masking, seed=0)
    bucketed = [bucketing([r if not isinstance(r, int) else examples[r] for r in b.rows])
                for b in BatchFormer(bucket_spec, 1024, 0).form(range(len(lengths)), lengths)]
    widths = "+".join(f"{b}x{w}" for w, b in zip(fitted.boundaries, fitted.batch_sizes))
    schemes = (
        ("bucketing K=8 (ours)", bucketed, False),
        ("tf.data bucket_by_sequence_length K=8", tf_data_bucketed(tf, examples, lengths, masking), False),
        (f"packed 1 shape {SLOTS // MAX_LENGTH}x{MAX_LENGTH}", packed_batches(one_shape), True),
        (f"packed, fit_packing_spec {widths}", packed_batches(fitted), True),
    )

    runs = []
    for name, batches, is_packed in schemes:
        model, optimizer = make_model(tf, transformers)
        runs.append((name, batches, is_packed, make_step(tf, model, optimizer, is_packed), {
            "compile_s": 0.0, "first_epoch_s": 0.0, "steady": []}))
    # epochs interleaved (scheme A, B, C, D, A, B, ...): a change of load on the machine
    # reaches every scheme alike; epoch 1 holds the compiles, later epochs are all steady
    for epoch in range(args.epochs):
        for name, batches, is_packed, step, record in runs:
            keys = PACKED_KEYS if is_packed else PADDED_KEYS
            steady_s = steady_cpu = 0.0
            steady_tokens = 0
            for batch in batches:
                real_mask = batch["segment_ids"] > 0 if is_packed else batch["attention_mask"] > 0
                feed = {k: tf.constant(batch[k]) for k in keys}
                traces = step.experimental_get_tracing_count()
                start, cpu = time.perf_counter(), time.process_time()
                step(feed).numpy()
                elapsed, cpu_elapsed = time.perf_counter() - start, time.process_time() - cpu
                if epoch == 0:
                    record["first_epoch_s"] += elapsed
                if step.experimental_get_tracing_count() > traces:
                    record["compile_s"] += elapsed
                else:
                    steady_s += elapsed
                    steady_cpu += cpu_elapsed
                    steady_tokens += int(real_mask.sum())
            record["steady"].append((steady_tokens / max(steady_s, 1e-9), steady_tokens / max(steady_cpu, 1e-9)))
            console.print(f"  epoch {epoch + 1} {name}: steady {record['steady'][-1][0] / 1e3:.2f}k tokens/s, "
                          f"{record['steady'][-1][1] / 1e3:.2f}k tokens/CPU-s")

    table = Table(title=f"TF BERT (hidden 128, 2 layers) MLM step, jit_compile, {len(lengths)} lognormal sequences, "
                        f"{SLOTS} slots per step, {args.epochs} epochs interleaved")
    for column in ("scheme", "shapes (compiles)", "steps", "padding", "cost model", "compile s",
                   "steady real tokens/s (per epoch)", "steady real tokens/CPU-s (per epoch)",
                   "x ours K=8 (CPU, median)", "epoch 1 real tokens/s incl. compile"):
        table.add_column(column, justify="left" if column == "scheme" else "right")
    anchor = None
    for name, batches, is_packed, step, record in runs:
        real = slots = 0
        cost = 0.0
        for batch in batches:
            real_mask = batch["segment_ids"] > 0 if is_packed else batch["attention_mask"] > 0
            real += int(real_mask.sum())
            slots += real_mask.size
            rows, width = real_mask.shape
            cost += rows * width * (1 + width / attention_length)
        assert real == int(lengths.sum()), (name, real)  # every scheme trains on the same tokens
        wall = [w for w, _ in record["steady"]]
        cpu = [c for _, c in record["steady"]]
        anchor = anchor or float(np.median(cpu))
        table.add_row(name, str(step.experimental_get_tracing_count()), str(len(batches)),
                      f"{1 - real / slots:.1%}", f"{cost / real:.2f}/token", f"{record['compile_s']:.1f}",
                      " ".join(f"{w / 1e3:.2f}k" for w in wall), " ".join(f"{c / 1e3:.2f}k" for c in cpu),
                      f"{float(np.median(cpu)) / anchor:.2f}x",
                      f"{real / record['first_epoch_s'] / 1e3:.2f}k")
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
