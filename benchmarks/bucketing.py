"""Bucketing benchmark: padding, shapes, collation speed and XLA training, vs anchors in one run.

    python benchmarks/bucketing.py            # full run (~5 min on 2 cores)
    python benchmarks/bucketing.py --quick    # smoke run
    python benchmarks/bucketing.py --training-only   # section 4 alone (--packing-only: 1b alone)

Length distributions: a long-tailed synthetic one (lognormal capped at 512) and two from real
text every Python install ships (stdlib docstrings; ``pydoc_data`` topic paragraphs),
tokenized with a BPE tokenizer trained here by ``tokenizers`` (no downloads).
Sections:
1. padded-token fraction and distinct (batch, length) shapes of pad-to-max, pad-longest,
   pad_to_multiple_of 8 / 64 (random batches), tf.data ``bucket_by_sequence_length`` with
   quantile and powers-of-two boundaries, and ours (BucketSpec.fit + BatchFormer);
2. at equal K = 1..16: the exact optimum, ours fitted on a 10% sample, quantile, powers of two;
3. collation real tokens/s: ours vs transformers' DataCollatorForLanguageModeling and
   DataCollatorWithPadding on the same sequences;
4. a tiny Keras model trained with ``jit_compile=True`` on each scheme: compilations
   (tracing count of a ``reduce_retracing=False`` step: one trace = one XLA compile) and real
   tokens/s including compile time;
5. the same model in PyTorch on torch_xla (``PJRT_DEVICE=CPU``), batches through a
   ``DataLoader`` (ours: ``BucketBatchSampler`` + ``BucketingCollator(return_tensors="pt")``)
   and ``MpDeviceLoader``: compilations counted by torch_xla's ``CompileTime`` metric, padding %
   and real tokens/s. It runs in its own process (``--torch-xla``), never beside TensorFlow;
   a full run starts it when torch_xla is installed.

    PJRT_DEVICE=CPU python benchmarks/bucketing.py --torch-xla [--quick]   # section 5 only
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import sysconfig
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from bucketing import (  # noqa: E402
    BatchFormer,
    BucketingCollator,
    BucketSpec,
    MaskingSpec,
    fit_packing_spec,
    optimal_boundaries,
    padding_fraction,
    power_of_two_boundaries,
    quantile_boundaries,
    report,
)

MAX_LENGTH = 512
BATCH = 32
K = 8
MULTIPLE = 8
# the row length at which attention costs as much per position as the rest of a step:
# measured by benchmarks/packing_attention.py for its BERT (hidden 128) on the 2-core machine
ATTENTION_LENGTH = 900
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


@dataclass(frozen=True)
class Corpus:
    name: str
    lengths: np.ndarray
    token_ids: tuple[list[int], ...] | None  # real token ids where the distribution is real text


def stdlib_docstrings(max_files: int | None) -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = [
        p for p in sorted(root.rglob("*.py"))
        if not {"site-packages", "test", "tests", "idle_test"} & set(p.parts)
    ][:max_files]
    docs = []
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    docs.append(doc)
    return docs


def pydoc_paragraphs() -> list[str]:
    from pydoc_data.topics import topics

    return [p for text in topics.values() for p in text.split("\n\n") if p.strip()]


def train_tokenizer(texts: Sequence[str]):
    """A BPE tokenizer trained here, wrapped as a transformers fast tokenizer (no hub)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    raw = Tokenizer(models.BPE(unk_token="[UNK]"))
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=8000, special_tokens=SPECIALS, show_progress=False))
    raw.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=raw, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]",
        sep_token="[SEP]", mask_token="[MASK]",
    )


def build_corpora(quick: bool) -> tuple[list[Corpus], object]:
    docs = stdlib_docstrings(80 if quick else None)
    paragraphs = pydoc_paragraphs()
    tokenizer = train_tokenizer(docs + paragraphs)
    corpora = []
    for name, texts in (("stdlib docstrings", docs), ("pydoc topics", paragraphs)):
        ids = tokenizer(texts, truncation=True, max_length=MAX_LENGTH)["input_ids"]
        corpora.append(Corpus(name, np.array([len(i) for i in ids]), tuple(ids)))
    corpora.insert(0, lognormal_corpus(quick))
    return corpora, tokenizer


def lognormal_corpus(quick: bool) -> Corpus:
    rng = np.random.default_rng(0)
    synthetic = np.minimum(rng.lognormal(4.6, 0.8, 2_000 if quick else 50_000).astype(int) + 2, MAX_LENGTH)
    return Corpus("lognormal capped 512", synthetic, None)


# ---- section 1: padding and shapes of whole pipelines ------------------------------------

def random_batches(n: int, seed: int = 0) -> list[np.ndarray]:
    order = np.random.default_rng(seed).permutation(n)
    return [order[i:i + BATCH] for i in range(0, n, BATCH)]


def random_batch_scheme(lengths: np.ndarray, width: Callable[[np.ndarray], int]) -> tuple[float, int]:
    slots, shapes = 0, set()
    for rows in random_batches(len(lengths)):
        w = width(lengths[rows])
        slots += w * len(rows)
        shapes.add((len(rows), w))
    return 1 - lengths.sum() / slots, len(shapes)


def tf_bucket_by_sequence_length(lengths: np.ndarray, boundaries: tuple[int, ...]) -> tuple[float, int]:
    """Run tf.data's own bucketing (pad to bucket boundary, keep the remainder)."""
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(lengths.astype(np.int32)).map(lambda n: tf.ones([n], tf.int32))
    ds = ds.apply(tf.data.experimental.bucket_by_sequence_length(
        lambda x: tf.shape(x)[0],
        bucket_boundaries=[b + 1 for b in boundaries],  # theirs are exclusive upper bounds
        bucket_batch_sizes=[BATCH] * (len(boundaries) + 1),
        pad_to_bucket_boundary=True,
    ))
    slots, shapes = 0, set()
    for batch in ds:
        shapes.add(tuple(batch.shape))
        slots += int(np.prod(batch.shape))
    return 1 - lengths.sum() / slots, len(shapes)


def ours(lengths: np.ndarray, dummy_rows: bool = True) -> tuple[float, int]:
    spec = BucketSpec.fit(lengths, K, MULTIPLE, batch_size=BATCH, max_length=MAX_LENGTH)
    shapes = {spec.shapes()[b.bucket] for b in BatchFormer(spec, 1024, 0).form(range(len(lengths)), lengths)}
    result = report(lengths, spec)
    return result.padding_fraction if dummy_rows else result.sequence_padding_fraction, len(shapes)


def section_padding(corpora: list[Corpus], console) -> None:
    from rich.table import Table

    table = Table(title=f"1. padded-token fraction / distinct shapes (batch {BATCH}, K={K} where bucketed)")
    table.add_column("scheme")
    for c in corpora:
        table.add_column(f"{c.name} (n={len(c.lengths)})", justify="right")
    schemes: list[tuple[str, Callable[[np.ndarray], tuple[float, int]]]] = [
        ("pad to max_length 512", lambda l: random_batch_scheme(l, lambda b: MAX_LENGTH)),
        ("pad longest (random batches)", lambda l: random_batch_scheme(l, lambda b: int(b.max()))),
        ("pad_to_multiple_of 8 (random)", lambda l: random_batch_scheme(l, lambda b: -(-int(b.max()) // 8) * 8)),
        ("pad_to_multiple_of 64 (random)", lambda l: random_batch_scheme(l, lambda b: min(-(-int(b.max()) // 64) * 64, MAX_LENGTH))),
        (f"tf.data bucket_by_sequence_length, quantiles K={K}",
         lambda l: tf_bucket_by_sequence_length(l, quantile_boundaries(l, K, MULTIPLE, MAX_LENGTH))),
        (f"tf.data bucket_by_sequence_length, powers of 2 K={K}",
         lambda l: tf_bucket_by_sequence_length(l, power_of_two_boundaries(l, K, MULTIPLE, MAX_LENGTH))),
        (f"ours: BucketSpec.fit K={K} + BatchFormer", ours),
        # on small data sets the dummy rows of K partial batches weigh: shown apart
        ("  ours, not counting the dummy rows", lambda l: ours(l, dummy_rows=False)),
    ]
    for name, scheme in schemes:
        cells = []
        for c in corpora:
            fraction, shapes = scheme(c.lengths)
            cells.append(f"{fraction:6.1%} / {shapes:4d}")
        table.add_row(name, *cells)
    console.print(table)


# ---- section 1b: packing ---------------------------------------------------------------

def packed_pipeline(corpus: Corpus, spec: BucketSpec, max_segments: int) -> tuple[float, int, int, float]:
    """pack_batches + PackingCollator over the whole corpus: (padding incl. dummy rows,
    distinct shapes, rows, seconds)."""
    from bucketing import PackingCollator, pack_batches

    ids = corpus.token_ids or tuple(np.ones(n, dtype=np.int64) for n in corpus.lengths.tolist())
    examples = [{"input_ids": i} for i in ids]
    collator = PackingCollator(spec, max_segments=max_segments)
    started = time.perf_counter()
    slots, rows, shapes = 0, 0, set()
    for indices in pack_batches(corpus.lengths, spec, max_segments=max_segments, seed=0):
        batch = collator([examples[i] for i in indices])
        shape = batch["input_ids"].shape
        shapes.add(shape)
        slots += shape[0] * shape[1]
        rows += int((batch["segment_ids"] > 0).any(axis=1).sum())
    seconds = time.perf_counter() - started
    return 1 - corpus.lengths.sum() / slots, len(shapes), rows, seconds


def tf_native_packing(corpus: Corpus, window: int, max_segments: int) -> tuple[float, int, int, float]:
    """bucketing.packing_tf.pack_dataset (TensorFlow ops only, window by window) over the corpus:
    (padding incl. dummy rows, distinct shapes, rows, seconds)."""
    import tensorflow as tf

    from bucketing.packing_tf import pack_dataset

    ids = corpus.token_ids or tuple(np.ones(n, dtype=np.int64) for n in corpus.lengths.tolist())
    ragged = tf.RaggedTensor.from_row_lengths(np.concatenate([np.asarray(i, np.int64) for i in ids]),
                                              corpus.lengths.astype(np.int64))
    dataset = pack_dataset(tf.data.Dataset.from_tensor_slices({"input_ids": ragged}), MAX_LENGTH, BATCH,
                           window=window, max_segments=max_segments)
    started = time.perf_counter()
    slots, rows, shapes = 0, 0, set()
    for batch in dataset.as_numpy_iterator():
        shapes.add(batch["input_ids"].shape)
        slots += batch["input_ids"].size
        rows += int((batch["segment_ids"] > 0).any(axis=1).sum())
    seconds = time.perf_counter() - started
    return 1 - corpus.lengths.sum() / slots, len(shapes), rows, seconds


def section_packing(corpora: list[Corpus], console) -> None:
    """Packing (best-fit decreasing, segment ids, dummy rows to a static batch) beside the
    bin-packing lower bound ceil(tokens / 512) rows, on the same distributions as section 1."""
    from rich.table import Table

    table = Table(title=f"1b. packing into rows of {MAX_LENGTH}: padding / shapes (rows used; lower bound rows)")
    table.add_column("scheme")
    for c in corpora:
        table.add_column(f"{c.name} (n={len(c.lengths)})", justify="right")
    lower = []
    for c in corpora:
        bound = -(-int(c.lengths.sum()) // MAX_LENGTH)
        lower.append(f"{1 - c.lengths.sum() / (bound * MAX_LENGTH):6.2%} / {1:4d} ({bound} rows)")
    table.add_row("bin-packing lower bound (no dummy rows)", *lower)
    for name, spec, segments in (
        (f"packed, 1 shape ({BATCH}x{MAX_LENGTH}), <=16 per row", BucketSpec((MAX_LENGTH,), (BATCH,)), 16),
        (f"packed, 1 shape ({BATCH}x{MAX_LENGTH}), <=64 per row", BucketSpec((MAX_LENGTH,), (BATCH,)), 64),
        (f"packed, 2 widths by fit_packing_spec(attention_length={ATTENTION_LENGTH}), <=64 per row", None, 64),
    ):
        cells = []
        for c in corpora:
            # the cost model's choice per corpus: narrow rows for short examples, 512 for the rest
            fitted = spec or fit_packing_spec(c.lengths, MAX_LENGTH, BATCH * MAX_LENGTH,
                                              attention_length=ATTENTION_LENGTH, max_segments=segments)
            fraction, shapes, rows, seconds = packed_pipeline(c, fitted, segments)
            widths = "" if spec else " " + "+".join(f"{b}x{w}" for w, b in zip(fitted.boundaries, fitted.batch_sizes))
            cells.append(f"{fraction:6.2%} / {shapes:4d} ({rows} rows, {seconds:.1f}s){widths}")
        table.add_row(name, *cells)
    for window in (256, 2048):
        cells = []
        for c in corpora:
            fraction, shapes, rows, seconds = tf_native_packing(c, window, 64)
            cells.append(f"{fraction:6.2%} / {shapes:4d} ({rows} rows, {seconds:.1f}s)")
        table.add_row(f"tf.data pack_dataset (TF ops only), window {window}, <=64 per row", *cells)
    console.print(table)


# ---- section 2: boundaries at equal K ---------------------------------------------------

def section_equal_k(corpora: list[Corpus], max_k: int, console) -> None:
    """Ours = optimal_boundaries on all lengths (what BucketSpec.fit does): the exact optimum,
    as the brute-force property test proves on small inputs. Shown beside it: the price of
    pad_to_multiple_of=8, of fitting on a 20% sample, and the two usual baselines."""
    from rich.table import Table

    for c in corpora:
        lengths = c.lengths
        longest = int(lengths.max())
        sample = np.random.default_rng(1).choice(lengths, size=max(len(lengths) // 5, 1), replace=False)
        table = Table(title=f"2. {c.name}: padded fraction (each sequence padded to its bucket) at equal K")
        for column in ("K", "ours = exact optimum", "ours, multiple of 8", "ours, 20% sample", "quantiles",
                       "powers of 2", "optimum < both"):
            table.add_column(column, justify="right")
        worst = {"multiple of 8": 0.0, "20% sample": 0.0}
        always_better = True
        for k in range(1, max_k + 1):
            best = padding_fraction(lengths, optimal_boundaries(lengths, k))
            eight = padding_fraction(lengths, optimal_boundaries(lengths, k, 8))
            # the top boundary must cover the data: a sample can miss the longest length
            fitted = optimal_boundaries(sample, k)
            sampled = padding_fraction(lengths, fitted[:-1] + (max(fitted[-1], longest),))
            quantile = padding_fraction(lengths, quantile_boundaries(lengths, k))
            pow2_bounds = power_of_two_boundaries(lengths, k)
            pow2 = padding_fraction(lengths, pow2_bounds)
            worst["multiple of 8"] = max(worst["multiple of 8"], 100 * (eight - best))
            worst["20% sample"] = max(worst["20% sample"], 100 * (sampled - best))
            beats = best < quantile and best < pow2
            if k > 1:
                always_better &= beats
            table.add_row(
                str(k), f"{best:.2%}", f"{eight:.2%} (+{100 * (eight - best):.2f}pp)",
                f"{sampled:.2%} (+{100 * (sampled - best):.2f}pp)", f"{quantile:.2%}",
                f"{pow2:.2%}" + ("" if len(pow2_bounds) == k else f" ({len(pow2_bounds)} shapes)"),
                "yes" if beats else ("equal (K=1)" if k == 1 else "NO"),
            )
        console.print(table)
        console.print(
            f"   {c.name}: ours is the exact optimum (gap 0.00pp) for K=1..{max_k}; worst extra padding "
            f"with pad_to_multiple_of=8 {worst['multiple of 8']:.2f}pp, fitted on a 20% sample "
            f"{worst['20% sample']:.2f}pp; strictly below quantiles and powers of 2 for every "
            f"K=2..{max_k}: {always_better}"
        )


# ---- section 3: collation throughput ----------------------------------------------------

def section_collation(corpus: Corpus, tokenizer, console, repeats: int) -> None:
    from transformers import DataCollatorForLanguageModeling, DataCollatorWithPadding

    assert corpus.token_ids is not None
    features = [
        {"input_ids": ids, "special_tokens_mask": tokenizer.get_special_tokens_mask(ids, already_has_special_tokens=True)}
        for ids in corpus.token_ids
    ]
    real = int(corpus.lengths.sum())
    spec = BucketSpec.fit(corpus.lengths, K, MULTIPLE, batch_size=BATCH, max_length=MAX_LENGTH)
    masking = MaskingSpec.from_tokenizer(tokenizer)
    hf_batches = [[features[i] for i in rows] for rows in random_batches(len(features))]

    plain_features = [{"input_ids": f["input_ids"]} for f in features]

    def our_batches(source: list[dict]) -> list[list]:
        former = BatchFormer(spec, shuffle_buffer=1024, seed=0)
        return [[source[i] if isinstance(i, int) else i for i in b.rows]
                for b in former.form(range(len(source)), corpus.lengths)]

    def rate(run: Callable[[], None]) -> float:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
        return real / best

    hf_mlm = DataCollatorForLanguageModeling(tokenizer, mlm_probability=0.15, pad_to_multiple_of=8, return_tensors="np")
    hf_pad = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=8, return_tensors="np")
    our_mlm = BucketingCollator(spec, pad_token_id=tokenizer.pad_token_id, masking=masking, seed=0)
    our_pad = BucketingCollator(spec, pad_token_id=tokenizer.pad_token_id)
    plain = [[plain_features[i] for i in rows] for rows in random_batches(len(features))]
    rates = {
        "HF DataCollatorForLanguageModeling (np, random batches)": rate(lambda: [hf_mlm(b) for b in hf_batches]),
        "HF DataCollatorWithPadding (np, random batches)": rate(lambda: [hf_pad(b) for b in plain]),
        "ours: BatchFormer + BucketingCollator with MLM masking": rate(lambda: [our_mlm(b) for b in our_batches(features)]),
        "ours: BatchFormer + BucketingCollator, padding only": rate(lambda: [our_pad(b) for b in our_batches(plain_features)]),
    }
    from rich.table import Table

    anchor = rates["HF DataCollatorForLanguageModeling (np, random batches)"]
    table = Table(title=f"3. collation, {corpus.name} ({real} real tokens, best of {repeats})")
    table.add_column("collator")
    table.add_column("real tokens/s", justify="right")
    table.add_column("x HF MLM", justify="right")
    for name, value in rates.items():
        table.add_row(name, f"{value / 1e6:.2f}M", f"{value / anchor:.1f}x")
    console.print(table)


# ---- section 4: a tiny Keras model under XLA -------------------------------------------

def section_training(corpus: Corpus, console, num_sequences: int, width: int) -> None:
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")  # the retracing warnings are the point being measured

    lengths = corpus.lengths[:num_sequences]
    rng = np.random.default_rng(0)
    sequences = [rng.integers(5, 8000, n) for n in lengths]
    real = int(lengths.sum())
    spec = BucketSpec.fit(lengths, K, MULTIPLE, batch_size=BATCH, max_length=MAX_LENGTH)

    def padded(rows: np.ndarray, width: int) -> dict[str, np.ndarray]:
        ids = np.zeros((len(rows), width), np.int32)
        for r, i in enumerate(rows):
            ids[r, :lengths[i]] = sequences[i]
        return {"input_ids": ids, "weights": (ids != 0).astype(np.float32)}

    def random_scheme(width: Callable[[np.ndarray], int]) -> list[dict[str, np.ndarray]]:
        return [padded(rows, width(lengths[rows])) for rows in random_batches(len(lengths))]

    def our_scheme() -> list[dict[str, np.ndarray]]:
        collator = BucketingCollator(spec)
        out = []
        for b in BatchFormer(spec, 1024, 0).form(range(len(lengths)), lengths):
            batch = collator([r if not isinstance(r, int) else {"input_ids": sequences[r]} for r in b.rows])
            out.append({"input_ids": batch["input_ids"].astype(np.int32),
                        "weights": batch["attention_mask"].astype(np.float32)})
        return out

    def tf_data_scheme() -> list[dict[str, np.ndarray]]:
        # tf.data's own bucketing (quantile boundaries, K shapes + the overflow, batch BATCH)
        boundaries = quantile_boundaries(lengths, K, MULTIPLE, MAX_LENGTH)
        ragged = tf.ragged.constant([s.astype(np.int32) for s in sequences], dtype=tf.int32)
        ds = tf.data.Dataset.from_tensor_slices(ragged).map(lambda x: x)  # ragged rows -> tensors
        ds = ds.apply(tf.data.experimental.bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], bucket_boundaries=[b + 1 for b in boundaries],
            bucket_batch_sizes=[BATCH] * (len(boundaries) + 1), pad_to_bucket_boundary=True))
        return [{"input_ids": ids, "weights": (ids != 0).astype(np.float32)} for ids in ds.as_numpy_iterator()]

    def packed_scheme() -> list[dict[str, np.ndarray]]:
        # the toy model is per-token (no attention), so segment ids need not reach it
        from bucketing import PackingCollator, pack_batches

        packed_spec = BucketSpec((MAX_LENGTH,), (BATCH,))
        collator = PackingCollator(packed_spec)
        out = []
        for indices in pack_batches(lengths, packed_spec, max_segments=64, seed=0):
            batch = collator([{"input_ids": sequences[i]} for i in indices])
            out.append({"input_ids": batch["input_ids"].astype(np.int32),
                        "weights": (batch["segment_ids"] > 0).astype(np.float32)})
        return out

    schemes = {
        "pad to max_length 512": lambda: random_scheme(lambda b: MAX_LENGTH),
        "pad longest (random batches)": lambda: random_scheme(lambda b: int(b.max())),
        "pad_to_multiple_of 64 (random)": lambda: random_scheme(lambda b: min(-(-int(b.max()) // 64) * 64, MAX_LENGTH)),
        f"tf.data bucket_by_sequence_length, quantiles K={K}": tf_data_scheme,
        f"ours K={K}": our_scheme,
        f"packed {BATCH}x{MAX_LENGTH} (1 shape)": packed_scheme,
    }
    from rich.table import Table

    table = Table(title=f"4. tiny Keras model, jit_compile=True, {len(lengths)} sequences of {corpus.name}, 1 epoch")
    for column in ("scheme", "compilations", "declared shapes", "padding", "compile s", "total s",
                   "real tokens/s incl. compile", "steady real tokens/s", "steady real tokens/CPU-s",
                   "x pad-to-max (incl. compile)"):
        table.add_column(column, justify="right" if column != "scheme" else "left")
    anchor = None
    for name, make in schemes.items():
        batches = make()
        model = tf.keras.Sequential([
            tf.keras.layers.Embedding(8000, width),
            tf.keras.layers.Dense(4 * width, activation="gelu"),
            tf.keras.layers.Dense(256),
        ])
        model.build((None, None))
        optimizer = tf.keras.optimizers.SGD(0.01)
        optimizer.build(model.trainable_variables)  # no variable creation inside the trace

        # a fresh step per scheme, so each scheme's compilations are counted on their own
        @tf.function(jit_compile=True, reduce_retracing=False)  # xlacheck: ignore[XLA404]
        def step(batch):
            with tf.GradientTape() as tape:
                logits = model(batch["input_ids"])
                per_token = tf.keras.losses.sparse_categorical_crossentropy(
                    batch["input_ids"] % 256, logits, from_logits=True)
                loss = tf.reduce_sum(per_token * batch["weights"]) / tf.maximum(tf.reduce_sum(batch["weights"]), 1.0)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        compile_seconds = steady_seconds = steady_cpu = 0.0
        steady_tokens = slots = 0
        for batch in batches:
            slots += batch["weights"].size
            traces = step.experimental_get_tracing_count()
            start, cpu = time.perf_counter(), time.process_time()
            step(batch).numpy()  # wait for the step: times are per step
            elapsed = time.perf_counter() - start
            if step.experimental_get_tracing_count() > traces:  # a new shape: trace + XLA compile
                compile_seconds += elapsed
            else:
                steady_seconds += elapsed
                steady_cpu += time.process_time() - cpu  # all threads: robust to the machine's load
                steady_tokens += int(batch["weights"].sum())
        assert sum(int(b["weights"].sum()) for b in batches) == real, name  # the same tokens for all
        seconds = compile_seconds + steady_seconds
        tokens_per_second = real / seconds
        anchor = anchor or tokens_per_second
        table.add_row(
            name, str(step.experimental_get_tracing_count()),
            str(len(spec.shapes())) if name.startswith("ours") else "1" if name.startswith("packed") else "-",
            f"{1 - real / slots:.1%}", f"{compile_seconds:.1f}", f"{seconds:.1f}", f"{tokens_per_second / 1e3:.0f}k",
            f"{steady_tokens / max(steady_seconds, 1e-9) / 1e3:.0f}k",
            f"{steady_tokens / max(steady_cpu, 1e-9) / 1e3:.0f}k", f"{tokens_per_second / anchor:.2f}x",
        )
    console.print(table)


# ---- section 5: the same model on torch_xla --------------------------------------------

def section_torch_xla(corpus: Corpus, console, num_sequences: int, width: int) -> None:
    import torch
    import torch_xla
    import torch_xla.core.xla_model as xm
    import torch_xla.debug.metrics as met
    import torch_xla.distributed.parallel_loader as pl
    from torch.utils.data import DataLoader

    from bucketing.torch_sampler import BucketBatchSampler, WithDummyRows

    device = torch_xla.device()  # before any backward of this process
    lengths = corpus.lengths[:num_sequences]
    rng = np.random.default_rng(0)
    dataset = [{"input_ids": rng.integers(5, 8000, n)} for n in lengths]
    real = int(lengths.sum())
    spec = BucketSpec.fit(lengths, K, MULTIPLE, batch_size=BATCH, max_length=MAX_LENGTH)

    class RandomBatches:
        """The random batches of sections 1 and 4, each padded to ``width(lengths)``."""

        def __init__(self, width: Callable[[np.ndarray], int]) -> None:
            self.width = width

        def __iter__(self):
            for rows in random_batches(len(lengths)):
                ids = np.zeros((len(rows), self.width(lengths[rows])), np.int64)
                for r, i in enumerate(rows):
                    ids[r, :lengths[i]] = dataset[i]["input_ids"]
                yield {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy((ids != 0).astype(np.int64))}

    def ours():
        collator = BucketingCollator(spec, return_tensors="pt", sample_weight_key=None)
        sampler = BucketBatchSampler(lengths, spec, shuffle=True, seed=0)
        return DataLoader(WithDummyRows(dataset), batch_sampler=sampler, collate_fn=collator)

    schemes = {
        "pad to max_length 512": lambda: RandomBatches(lambda b: MAX_LENGTH),
        "pad longest (random batches)": lambda: RandomBatches(lambda b: int(b.max())),
        "pad_to_multiple_of 64 (random)": lambda: RandomBatches(lambda b: min(-(-int(b.max()) // 64) * 64, MAX_LENGTH)),
        f"ours K={K}": ours,
    }
    from rich.table import Table

    table = Table(title=f"5. the same model in PyTorch on torch_xla ({device}), {len(lengths)} sequences of "
                        f"{corpus.name}, 1 epoch, DataLoader + MpDeviceLoader")
    for column in ("scheme", "compilations (CompileTime)", "declared shapes", "padding %", "compile s", "total s",
                   "real tokens/s incl. compile", "steady real tokens/s", "x pad-to-max (incl. compile)"):
        table.add_column(column, justify="right" if column != "scheme" else "left")
    anchor = None
    for name, make in schemes.items():
        torch.manual_seed(0)
        model = torch.nn.Sequential(
            torch.nn.Embedding(8000, width), torch.nn.Linear(width, 4 * width), torch.nn.GELU(),
            torch.nn.Linear(4 * width, 256),
        ).to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        torch_xla.sync()
        xm.wait_device_ops()

        def count() -> int:
            data = met.metric_data("CompileTime")
            return int(data[0]) if data else 0

        first = count()
        compile_seconds = steady_seconds = 0.0
        steady_tokens = padded_tokens = 0
        iterator = iter(pl.MpDeviceLoader(make(), device))
        while True:
            start = time.perf_counter()
            before = count()
            try:
                batch = next(iterator)  # the previous step's sync happened here
            except StopIteration:
                break
            weights = batch["attention_mask"].float()
            logits = model(batch["input_ids"])
            per_token = torch.nn.functional.cross_entropy(
                logits.reshape(-1, 256), (batch["input_ids"] % 256).reshape(-1), reduction="none")
            loss = (per_token * weights.reshape(-1)).sum() / weights.sum().clamp(min=1.0)
            loss.backward()
            xm.optimizer_step(optimizer)
            optimizer.zero_grad(set_to_none=True)
            torch_xla.sync()
            xm.wait_device_ops()  # wait for the step: times are per step
            elapsed = time.perf_counter() - start
            shape = tuple(batch["input_ids"].shape)
            padded_tokens += shape[0] * shape[1]
            if count() > before:  # a new shape: trace + XLA compile
                compile_seconds += elapsed
            else:
                steady_seconds += elapsed
                steady_tokens += int((batch["attention_mask"].cpu() > 0).sum())  # after the step: not timed in it
        seconds = compile_seconds + steady_seconds
        tokens_per_second = real / seconds
        anchor = anchor or tokens_per_second
        table.add_row(
            name, str(count() - first), str(len(spec.shapes())) if name.startswith("ours") else "-",
            f"{100 * (1 - real / padded_tokens):.1f}", f"{compile_seconds:.1f}", f"{seconds:.1f}",
            f"{tokens_per_second / 1e3:.1f}k", f"{steady_tokens / max(steady_seconds, 1e-9) / 1e3:.1f}k",
            f"{tokens_per_second / anchor:.2f}x",
        )
    console.print(table)


def _torch_xla_in_subprocess(quick: bool, console) -> None:
    """Section 5 in its own process: torch_xla's runtime never shares a process with TF."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("torch_xla") is None:
        console.print("5. torch_xla: not installed (pip install \".[torch-xla]\"); section skipped")
        return
    env = {**os.environ, "PJRT_DEVICE": os.environ.get("PJRT_DEVICE", "CPU")}
    subprocess.run([sys.executable, __file__, "--torch-xla", *(["--quick"] if quick else [])], env=env, check=True)


def _training_size(quick: bool) -> tuple[int, int]:
    """(sequences, model width) of sections 4 and 5: the smoke run (--quick) trains 64 sequences,
    two batches per scheme, which is enough to compile and time every scheme once."""
    return (64, 32) if quick else (3200, 128)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small inputs: a smoke run of every section")
    parser.add_argument("--packing-only", action="store_true", help="section 1b (packing) only")
    parser.add_argument("--training-only", action="store_true", help="section 4 (the tiny Keras model) only")
    parser.add_argument("--torch-xla", action="store_true", help="only section 5 (PyTorch on torch_xla)")
    args = parser.parse_args(argv)
    from rich.console import Console

    console = Console(width=160)
    started = time.perf_counter()
    if args.training_only:  # the lognormal corpus only: no tokenizer to train
        section_training(lognormal_corpus(args.quick), console, *_training_size(args.quick))
        console.print(f"total {time.perf_counter() - started:.0f}s")
        return 0
    if args.torch_xla:  # section 5 reads the lognormal corpus only: no tokenizer to train
        section_torch_xla(lognormal_corpus(args.quick), console, *_training_size(args.quick))
        console.print(f"total {time.perf_counter() - started:.0f}s")
        return 0
    corpora, tokenizer = build_corpora(args.quick)
    console.print(f"corpora and tokenizer ready in {time.perf_counter() - started:.1f}s")
    if args.packing_only:
        section_packing(corpora, console)
        return 0
    section_padding(corpora, console)
    section_packing(corpora, console)
    section_equal_k(corpora, 4 if args.quick else 16, console)
    section_collation(corpora[1], tokenizer, console, repeats=1 if args.quick else 3)
    section_training(corpora[0], console, *_training_size(args.quick))
    sys.stdout.flush()
    _torch_xla_in_subprocess(args.quick, console)
    console.print(f"total {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
