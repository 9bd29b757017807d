from __future__ import annotations

import numpy as np
import pytest

from bucketing import BatchFormer, BucketingCollator, BucketSpec, DummyRow, MaskingSpec

SPEC = BucketSpec((4, 8, 16), (3, 3, 2))


def test_pads_to_the_bucket_of_the_longest_and_fills_rows() -> None:
    features = [
        {"input_ids": [5, 6, 7], "token_type_ids": [0, 0, 1], "labels": [1, 2, 3]},
        {"input_ids": [8, 9, 10, 11, 12], "token_type_ids": [0, 1, 1, 1, 1], "labels": [4, 5, 6, 7, 8]},
    ]
    batch = BucketingCollator(SPEC, pad_token_id=1)(features)
    assert batch["input_ids"].tolist() == [
        [5, 6, 7, 1, 1, 1, 1, 1], [8, 9, 10, 11, 12, 1, 1, 1], [1] * 8,
    ]
    assert batch["attention_mask"].tolist() == [[1] * 3 + [0] * 5, [1] * 5 + [0] * 3, [0] * 8]
    assert batch["token_type_ids"].tolist()[1] == [0, 1, 1, 1, 1, 0, 0, 0]
    assert batch["labels"].tolist() == [
        [1, 2, 3] + [-100] * 5, [4, 5, 6, 7, 8] + [-100] * 3, [-100] * 8,
    ]
    # per-token labels get per-token weights: 1 on real labelled tokens, 0 on padding and dummies
    assert batch["sample_weight"].tolist() == [[1.0] * 3 + [0.0] * 5, [1.0] * 5 + [0.0] * 3, [0.0] * 8]
    row_weights = BucketingCollator(SPEC, pad_token_id=1)([{"input_ids": [5, 6, 7]}])["sample_weight"]
    assert row_weights.tolist() == [1.0, 0.0, 0.0]  # no per-token labels: one weight per row


def test_left_padding_and_special_tokens_mask() -> None:
    features = [{"input_ids": [5, 6], "special_tokens_mask": [1, 0]}, DummyRow(0)]
    batch = BucketingCollator(SPEC, pad_token_id=1, padding_side="left", pad_rows=False)(features)
    assert batch["input_ids"].tolist() == [[1, 1, 5, 6], [1, 1, 1, 1]]
    assert batch["special_tokens_mask"].tolist() == [[1, 1, 1, 0], [1, 1, 1, 1]]
    assert batch["attention_mask"].tolist() == [[0, 0, 1, 1], [0, 0, 0, 0]]


def test_a_dummy_row_of_a_larger_bucket_sets_the_shape() -> None:
    batch = BucketingCollator(SPEC)([{"input_ids": [5]}, DummyRow(2)])
    assert batch["input_ids"].shape == (2, 16)


def test_scalar_keys_are_stacked_with_dummy_labels_ignored() -> None:
    batch = BucketingCollator(SPEC)([{"input_ids": [5], "label": 3, "idx": 7}])
    assert batch["labels"].tolist() == [3, -100, -100]  # renamed, as Hugging Face does
    assert batch["idx"].tolist() == [7, 0, 0]


def test_float_sequences_keep_their_dtype() -> None:
    batch = BucketingCollator(SPEC)([{"input_ids": [5, 6], "token_weights": [0.5, 0.25]}])
    assert batch["token_weights"].dtype == np.float64
    assert batch["token_weights"][0].tolist() == [0.5, 0.25, 0.0, 0.0]


def test_mlm_masking_never_selects_padding_or_special_tokens() -> None:
    masking = MaskingSpec(mask_token_id=4, vocab_size=50, mlm_probability=1.0, mask_replace_prob=1.0,
                          random_replace_prob=0.0)
    features = [{"input_ids": [0, 7, 8, 9, 2], "special_tokens_mask": [1, 0, 0, 0, 1]}]
    batch = BucketingCollator(SPEC, pad_token_id=1, masking=masking, seed=0)(features)
    assert batch["input_ids"][0].tolist() == [0, 4, 4, 4, 2, 1, 1, 1]
    assert batch["labels"][0].tolist() == [-100, 7, 8, 9, -100, -100, -100, -100]
    assert "special_tokens_mask" not in batch
    assert (batch["labels"][1:] == -100).all()


def test_masking_is_deterministic_with_a_seed() -> None:
    masking = MaskingSpec(mask_token_id=4, vocab_size=50)
    features = [{"input_ids": list(range(5, 20))}] * 2
    first = BucketingCollator(SPEC, masking=masking, seed=3)(features)
    second = BucketingCollator(SPEC, masking=masking, seed=3)(features)
    np.testing.assert_array_equal(first["labels"], second["labels"])


def test_matches_hugging_face_padding() -> None:
    transformers = pytest.importorskip("transformers")
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers

    raw = tokenizers.Tokenizer(models.WordLevel({"[PAD]": 0, "[UNK]": 1, "a": 2, "b": 3}, unk_token="[UNK]"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="[PAD]", unk_token="[UNK]")
    features = [tokenizer("a b a"), tokenizer("b b b b b a")]
    theirs = transformers.DataCollatorWithPadding(tokenizer, pad_to_multiple_of=8, return_tensors="np")(features)
    ours = BucketingCollator(BucketSpec((8,), (2,)), pad_token_id=0)([dict(f) for f in features])
    for key in ("input_ids", "attention_mask"):
        np.testing.assert_array_equal(ours[key], theirs[key])


def test_errors_name_the_fix() -> None:
    with pytest.raises(ValueError, match="batch size is 2"):
        BucketingCollator(SPEC)([{"input_ids": [1] * 10}] * 3)
    with pytest.raises(ValueError, match="overlong='truncate' or overlong='drop'"):
        BucketingCollator(SPEC)([{"input_ids": [1] * 17}])
    with pytest.raises(ValueError, match="return_tensors"):
        BucketingCollator(SPEC, return_tensors="torch")  # type: ignore[arg-type]


def test_overlong_truncate_and_drop() -> None:
    long, short = {"input_ids": list(range(5, 25))}, {"input_ids": [5, 6]}
    cut = BucketingCollator(SPEC, overlong="truncate")([long, short])
    assert cut["input_ids"][0].tolist() == list(range(5, 21))
    dropped = BucketingCollator(SPEC, overlong="drop")([long, short])
    assert dropped["input_ids"].shape == (3, 4)
    assert dropped["sample_weight"].tolist() == [0.0, 1.0, 0.0]
    nothing_left = BucketingCollator(SPEC, overlong="drop")([long])
    assert nothing_left["input_ids"].shape == (3, 4) and not nothing_left["sample_weight"].any()


@pytest.mark.tf
def test_return_tensors_tf() -> None:
    tf = pytest.importorskip("tensorflow")
    batch = BucketingCollator(SPEC, return_tensors="tf")([{"input_ids": [5, 6]}])
    assert isinstance(batch["input_ids"], tf.Tensor) and batch["input_ids"].shape == (3, 4)


def test_return_tensors_jax_matches_numpy() -> None:
    """``"jax"`` gives jax arrays with the NumPy batch's values and shapes. Their dtypes are
    JAX's canonical ones: without ``jax_enable_x64`` (the default) JAX stores the int64 ids and
    masks as int32, which holds every token id a vocabulary has."""
    jax = pytest.importorskip("jax")
    features = [{"input_ids": [5, 6], "labels": [5, 6]}, {"input_ids": [7], "labels": [-100]}]
    expected = BucketingCollator(SPEC)(features)
    batch = BucketingCollator(SPEC, return_tensors="jax")(features)
    assert set(batch) == set(expected)
    for key, value in expected.items():
        assert isinstance(batch[key], jax.Array)
        assert batch[key].dtype == jax.dtypes.canonicalize_dtype(value.dtype) and batch[key].shape == value.shape
        assert (batch[key] == value).all()


def test_an_all_dummy_share_keeps_the_keys_of_its_template() -> None:
    template = {"input_ids": [5, 6], "labels": [5, 6], "idx": 3}
    batch = BucketingCollator(SPEC)([DummyRow(1, template)] * 3)
    assert set(batch) == {"input_ids", "labels", "idx", "attention_mask", "sample_weight"}
    assert batch["input_ids"].shape == (3, 8)
    assert (batch["labels"] == -100).all() and (batch["sample_weight"] == 0).all()


def test_bad_inputs_get_errors_that_name_the_argument_and_the_fix() -> None:
    import warnings

    lengths = [3, 5, 9, 12]
    with pytest.raises(TypeError, match=r"max_shapes must be an int, got '4' \(str\)"):
        BucketSpec.fit(lengths, max_shapes="4", batch_size=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"lengths: got list items \(token lists or examples\?\).*len\(ids\)"):
        BucketSpec.fit([[5, 6, 7], [8, 9]], max_shapes=2, batch_size=2)
    with pytest.raises(TypeError, match=r"lengths: got list items"):
        BucketSpec.fit([[5, 6], [8, 9]], max_shapes=2, batch_size=2)  # not ragged: numpy would accept it
    with pytest.raises(TypeError, match=r"lengths: got text \('a sentence'\.\.\.\), not lengths; tokenize first"):
        BucketSpec.fit(["a sentence", "another"], max_shapes=2, batch_size=2)
    with pytest.raises(TypeError, match=r"lengths: got a str"):
        BucketSpec.fit("12345", max_shapes=2, batch_size=2)
    with pytest.warns(UserWarning, match=r"2 of 4 lengths exceed max_length=8 \(longest 12\).*overlong="):
        BucketSpec.fit(lengths, max_shapes=2, batch_size=2, max_length=8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BucketSpec.fit(lengths, max_shapes=2, batch_size=2, max_length=12)  # none above: no warning
    collator = BucketingCollator(SPEC)
    with pytest.raises(ValueError, match=r"feature 1 has no 'input_ids' \(keys: \['ids'\]\); rename"):
        collator([{"input_ids": [5]}, {"ids": [5, 6]}])
    with pytest.raises(TypeError, match=r"feature 0 is text \('hello world'\.\.\.\), not a tokenized example"):
        collator(["hello world", "more text"])
    with pytest.raises(TypeError, match=r"features must be a list of examples \(dicts\), got one dict"):
        collator({"input_ids": [5, 6]})  # type: ignore[arg-type]


def _mlm_examples(count: int, vocab: int, seed: int) -> list[dict[str, list[int]]]:
    rng = np.random.default_rng(seed)
    lengths = rng.integers(4, 30, count)
    # skewed token frequencies (something to learn), <s>=0 ... </s>=2 around them, with the
    # tokenizer's special_tokens_mask
    p = 1.0 / np.arange(1, vocab - 4) ** 1.5
    return [{"input_ids": [0, *(5 + rng.choice(vocab - 5, n - 2, p=p / p.sum())).tolist(), 2],
             "special_tokens_mask": [1] + [0] * (n - 2) + [1]} for n in lengths]


@pytest.mark.tf
def test_keras_fit_with_mlm_labels_and_per_token_weights_under_xla() -> None:
    """The docs' Keras example, end to end: MLM batches from the collator straight into
    ``model.fit`` with ``jit_compile=True``; labels and weights are per token."""
    tf = pytest.importorskip("tensorflow")
    vocab = 40
    examples = _mlm_examples(64, vocab, seed=0)
    spec = BucketSpec.fit([len(e["input_ids"]) for e in examples], max_shapes=2, pad_to_multiple_of=8, batch_size=8)
    masking = MaskingSpec(mask_token_id=4, vocab_size=vocab, pad_token_id=1)
    # label_pad_id=0: every label is a valid class id for Keras' loss; the weight masks the rest
    collator = BucketingCollator(spec, pad_token_id=1, masking=masking, seed=0, label_pad_id=0)

    def batches():  # noqa: ANN202
        while True:
            for formed in BatchFormer(spec, shuffle_buffer=64, seed=0).form(examples):
                batch = collator(list(formed.rows))
                assert batch["sample_weight"].shape == batch["labels"].shape
                yield ({"input_ids": batch["input_ids"]}, batch["labels"], batch["sample_weight"])

    inputs = tf.keras.Input((None,), dtype="int64", name="input_ids")
    logits = tf.keras.layers.Dense(vocab)(tf.keras.layers.Embedding(vocab, 16)(inputs))
    model = tf.keras.Model(inputs, logits)
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), jit_compile=True,
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  weighted_metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
    history = model.fit(batches(), steps_per_epoch=8, epochs=3, verbose=0)
    losses = history.history["loss"]
    assert all(np.isfinite(losses)) and losses[-1] < losses[0]
    # the weighted accuracy counts masked positions only: predicting label 0 (the padding label) is never rewarded
    features, labels, weights = next(batches())
    predicted = model.predict_on_batch(features).argmax(-1)
    assert weights.sum() > 0 and not ((labels == 0) & (weights > 0)).any()
    assert 0.0 <= float(((predicted == labels) * weights).sum() / weights.sum()) <= 1.0


def test_torch_dataloader_with_mlm_and_per_token_weights() -> None:
    """The docs' PyTorch example, end to end: BucketBatchSampler + BucketingCollator in a
    DataLoader, a few optimizer steps on a tiny model with the per-token weights."""
    torch = pytest.importorskip("torch")
    from bucketing.torch_sampler import BucketBatchSampler, WithDummyRows

    vocab = 40
    examples = _mlm_examples(50, vocab, seed=1)
    lengths = [len(e["input_ids"]) for e in examples]
    spec = BucketSpec.fit(lengths, max_shapes=2, pad_to_multiple_of=8, batch_size=4)
    masking = MaskingSpec(mask_token_id=4, vocab_size=vocab, pad_token_id=1)
    loader = torch.utils.data.DataLoader(
        WithDummyRows(examples), batch_sampler=BucketBatchSampler(lengths, spec, seed=0),
        collate_fn=BucketingCollator(spec, pad_token_id=1, masking=masking, seed=0, return_tensors="pt"),
    )
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Embedding(vocab, 16), torch.nn.Linear(16, vocab))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses, shapes = [], set()
    for _ in range(3):
        for batch in loader:
            shapes.add(tuple(batch["input_ids"].shape))
            weight = batch["sample_weight"]
            assert weight.shape == batch["labels"].shape
            assert torch.equal(weight > 0, batch["labels"] != -100)
            per_token = torch.nn.functional.cross_entropy(
                model(batch["input_ids"]).transpose(1, 2), batch["labels"], ignore_index=-100, reduction="none")
            loss = (per_token * weight).sum() / weight.sum().clamp(min=1.0)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(float(loss))
    assert shapes <= set(spec.shapes()) and all(np.isfinite(losses))
    assert np.mean(losses[-5:]) < np.mean(losses[:5])
