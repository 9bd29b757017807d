"""Packing vs bucketing on a model with attention: a small HF TF BERT MLM training step under
``jit_compile``, equal token budget per step (4,096 slots), lognormal lengths capped at 512.

    python benchmarks/packing_attention.py [--sequences 768]

Section 4 of ``benchmarks/bucketing.py`` trains a per-token toy model, where only padding and
compiles count. Here a packed row of 512 also pays attention over 512 positions where a
bucketed row pays over its bucket's width: this measures whether packing still wins.
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
    pack_batches,
)

MAX_LENGTH = 512
SLOTS = 4096
VOCAB = 8000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=768)
    args = parser.parse_args(argv)
    import tensorflow as tf
    import transformers
    from rich.console import Console
    from rich.table import Table

    from bucketing.packing_models import tf_packed_masked_lm_logits

    tf.get_logger().setLevel("ERROR")
    rng = np.random.default_rng(0)
    lengths = np.minimum(rng.lognormal(4.6, 0.8, args.sequences).astype(int) + 2, MAX_LENGTH)
    examples = [{"input_ids": rng.integers(5, VOCAB, n)} for n in lengths]
    masking = MaskingSpec(mask_token_id=4, vocab_size=VOCAB, special_token_ids=(0, 1, 2, 3, 4), pad_token_id=0)

    packed_spec = BucketSpec((MAX_LENGTH,), (SLOTS // MAX_LENGTH,))
    packing = PackingCollator(packed_spec, masking=masking, seed=0)
    packed = [packing([examples[i] for i in b]) for b in pack_batches(lengths, packed_spec, max_segments=64, seed=0)]
    bucket_spec = BucketSpec.fit(lengths, 8, 8, tokens_per_batch=SLOTS, max_length=MAX_LENGTH)
    bucketing = BucketingCollator(bucket_spec, masking=masking, seed=0)
    bucketed = [bucketing([r if not isinstance(r, int) else examples[r] for r in b.rows])
                for b in BatchFormer(bucket_spec, 1024, 0).form(range(len(lengths)), lengths)]

    table = Table(title=f"TF BERT (hidden 128, 2 layers) MLM step, jit_compile, {len(lengths)} lognormal sequences, "
                        f"{SLOTS} slots per step")
    for column in ("scheme", "shapes (compiles)", "steps", "padding", "compile s", "steady s",
                   "steady real tokens/s", "real tokens/s incl. compile"):
        table.add_column(column, justify="left" if column == "scheme" else "right")
    for name, batches, is_packed in (("bucketing K=8", bucketed, False), ("packed 8x512", packed, True)):
        tf.random.set_seed(0)
        config = transformers.BertConfig(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2,
                                         num_attention_heads=2, intermediate_size=512,
                                         max_position_embeddings=MAX_LENGTH)
        model = transformers.TFBertForMaskedLM(config)
        model(model.dummy_inputs)
        optimizer = tf.keras.optimizers.SGD(0.01)
        optimizer.build(model.trainable_variables)

        @tf.function(jit_compile=True, reduce_retracing=False)  # xlacheck: ignore[XLA404]
        def step(batch, model=model, optimizer=optimizer, is_packed=is_packed):
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

        keys = ("input_ids", "segment_ids", "position_ids", "labels") if is_packed else \
            ("input_ids", "attention_mask", "labels")
        compile_s = steady_s = 0.0
        steady_tokens = slots = real = 0
        for batch in batches:
            real_mask = batch["segment_ids"] > 0 if is_packed else batch["attention_mask"] > 0
            real += int(real_mask.sum())
            slots += real_mask.size
            traces = step.experimental_get_tracing_count()
            start = time.perf_counter()
            step({k: tf.constant(batch[k]) for k in keys}).numpy()
            elapsed = time.perf_counter() - start
            if step.experimental_get_tracing_count() > traces:
                compile_s += elapsed
            else:
                steady_s += elapsed
                steady_tokens += int(real_mask.sum())
        table.add_row(name, str(step.experimental_get_tracing_count()), str(len(batches)),
                      f"{1 - real / slots:.1%}", f"{compile_s:.1f}", f"{steady_s:.1f}",
                      f"{steady_tokens / max(steady_s, 1e-9) / 1e3:.1f}k",
                      f"{real / (compile_s + steady_s) / 1e3:.1f}k")
    Console(width=160).print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
