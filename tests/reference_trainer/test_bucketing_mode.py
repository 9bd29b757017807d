"""`--bucketing`: one record per document, batched into the bucketing package's declared shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.reference_trainer.conftest import tiny_config

pytest.importorskip("bucketing.tf_data")
pytestmark = pytest.mark.tf


def test_bucketed_run_compiles_once_per_shape_and_evaluates_every_token(tmp_path: Path, runtime) -> None:  # noqa: ANN001
    from reference_trainer.evaluate import evaluate
    from reference_trainer.pipeline import DataSpec, bucket_spec
    from reference_trainer.shards import prepare
    from reference_trainer.train import train

    config = tiny_config(tmp_path, bucketing=True, block_length=48, max_shapes=3, train_steps=24)
    prepared = prepare(config)
    assert prepared.layout == "sequences"
    manifest = json.loads((tmp_path / "manifest.json").read_text())["prepare"]
    data = DataSpec.from_manifest(str(tmp_path), manifest, 0.15)
    declared = set(bucket_spec(data, 8, 3, 8).shapes())
    assert 1 < len(declared) <= 3

    result = train(config, runtime)
    assert set(result.batch_shapes) <= declared
    assert result.train_compiles == len(result.batch_shapes)  # one XLA compilation per shape seen

    evaluated = evaluate(config, runtime)
    assert evaluated.real_tokens == manifest["splits"]["eval"]["tokens"]  # nothing lost to bucketing
    assert evaluated.eval_compiles <= len(declared)
