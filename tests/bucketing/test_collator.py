from __future__ import annotations

import numpy as np
import pytest

from bucketing import BucketingCollator, BucketSpec, DummyRow, MaskingSpec

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
    assert batch["sample_weight"].tolist() == [1.0, 1.0, 0.0]


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
