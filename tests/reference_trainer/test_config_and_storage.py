from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_trainer.config import TrainerConfig
from reference_trainer.storage import is_url


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (dict(train_steps=60, warmup_steps=60), "NaN"),
        (dict(train_steps=0), "--train-steps must be positive"),
        (dict(model_preset="roberta-huge"), "--model-preset"),
        (dict(train_files=("a.txt",), hf_dataset="wikitext"), "not both"),
        (dict(jit_compile="yes"), "--jit-compile"),
        (dict(eval_fraction=1.0), "--eval-fraction"),
        (dict(model_preset="roberta-base", block_length=1024), "--block-length"),
    ],
)
def test_invalid_config_is_one_clear_error(changes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrainerConfig(**changes)


@given(
    vocab=st.integers(64, 50_000), block=st.integers(8, 512), steps=st.integers(2, 10_000),
    files=st.lists(st.text(min_size=1, max_size=8), max_size=3),
)
def test_config_round_trips_through_the_manifest_dict(vocab: int, block: int, steps: int, files: list[str]) -> None:
    config = TrainerConfig(vocab_size=vocab, block_length=block, train_steps=steps, warmup_steps=steps - 1,
                           train_files=tuple(files))
    assert TrainerConfig.from_dict(config.to_dict()) == config


def test_unknown_manifest_field_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown config fields"):
        TrainerConfig.from_dict({"vocab_size": 100, "colour": "blue"})


@pytest.mark.parametrize(
    ("path", "remote"),
    [
        ("gs://bucket/run", True), ("s3://bucket/run", True), ("/tmp/gs_runs/out", False),
        ("gsdata/out", False), ("runs/gs", False), ("C:\\runs\\out", False), ("file:///tmp/x", False),
    ],
)
def test_remote_paths_are_decided_by_scheme_not_substring(path: str, remote: bool) -> None:
    assert is_url(path) is remote
