"""Packing changes nothing but speed, in PyTorch: HF BERT/RoBERTa (transformers 4.57) given the
3-D segment mask and per-segment position ids compute, for every packed sequence, the logits
and MLM loss it gets alone; eagerly (``eager`` and ``sdpa`` attention) and on a torch_xla
device (``PJRT_DEVICE=CPU``; skipped when torch_xla is not installed). Tiny configs, no
download; initializer_range 0.2 so attention is far from uniform and a leak shows.

Tolerance: atol 1e-5 on logits of magnitude ~1-10 (measured ~1e-6); the 2-D-mask run, which
leaks across segments, differs by ~0.1-1.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from bucketing.packing import pack_features, plan_packing
from bucketing.packing_masks import hf_position_ids
from bucketing.packing_models import torch_packed_inputs

ATOL = 1e-5
_CHILD = "XLACHECK_PACKING_TORCH_XLA_CHILD"
WIDTH = 48
VOCAB = 97


def _model(model_type: str, attn_implementation: str = "eager"):
    common = {
        "vocab_size": VOCAB, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
        "intermediate_size": 64, "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
        "initializer_range": 0.2,
    }
    torch.manual_seed(0)
    if model_type == "bert":
        config = transformers.BertConfig(max_position_embeddings=WIDTH, **common)
        cls = transformers.BertForMaskedLM
    else:
        config = transformers.RobertaConfig(max_position_embeddings=WIDTH + 2, pad_token_id=1, **common)
        cls = transformers.RobertaForMaskedLM
    return cls._from_config(config, attn_implementation=attn_implementation).eval()


def _packed_case(pad_token_id: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(2, 24, 9)
    features = [{"input_ids": rng.integers(5, VOCAB, n).tolist()} for n in lengths]
    plan = plan_packing(lengths, WIDTH, seed=seed)
    assert plan.max_segments_used >= 2
    return features, plan, pack_features(features, plan, pad_token_id=pad_token_id)


@torch.no_grad()
def _alone_logits(model, features):
    return [model(torch.tensor([f["input_ids"]])).logits[0].numpy() for f in features]


def _max_difference(packed: np.ndarray, alone: list[np.ndarray], plan) -> float:
    worst = 0.0
    for i, reference in enumerate(alone):
        r, o, n = int(plan.row[i]), int(plan.offset[i]), int(plan.lengths[i])
        worst = max(worst, float(np.abs(packed[r, o:o + n] - reference).max()))
    return worst


@torch.no_grad()
def _packed_logits(model, batch, device=None):
    # the mask is built where the model runs (on the XLA device: inside its graph)
    config = model.config
    ids, segment_ids, position_ids = (
        torch.from_numpy(batch[k]).to(device or "cpu") for k in ("input_ids", "segment_ids", "position_ids")
    )
    extra = torch_packed_inputs(segment_ids, position_ids, config.model_type, config.pad_token_id)
    return model(ids, **extra).logits


@pytest.mark.parametrize("attn_implementation", ["eager", "sdpa"])
@pytest.mark.parametrize("model_type", ["bert", "roberta"])
def test_packed_logits_and_loss_equal_one_by_one_eagerly(model_type, attn_implementation):
    model = _model(model_type, attn_implementation)
    features, plan, batch = _packed_case(model.config.pad_token_id)
    packed = _packed_logits(model, batch).numpy()
    alone = _alone_logits(model, features)
    assert np.abs(packed).max() > 1.0
    assert _max_difference(packed, alone, plan) < ATOL

    # MLM loss: HF's own loss on packed labels equals the token-weighted mean of the loss of
    # each sequence alone with the same labels
    rng = np.random.default_rng(1)
    selections = [rng.random(len(f["input_ids"])) < 0.3 for f in features]
    labelled = [{"input_ids": f["input_ids"], "labels": np.where(m, f["input_ids"], -100)}
                for f, m in zip(features, selections)]
    packed_labels = pack_features(labelled, plan, pad_token_id=model.config.pad_token_id)["labels"]
    extra = torch_packed_inputs(torch.from_numpy(batch["segment_ids"]), torch.from_numpy(batch["position_ids"]),
                                model_type, model.config.pad_token_id)
    with torch.no_grad():
        packed_loss = float(model(torch.from_numpy(batch["input_ids"]), labels=torch.from_numpy(packed_labels),
                                  **extra).loss)
        sums, count = 0.0, 0
        for f in labelled:
            n = int((f["labels"] != -100).sum())
            if n:
                out = model(torch.tensor([f["input_ids"]]), labels=torch.from_numpy(f["labels"])[None])
                sums, count = sums + float(out.loss) * n, count + n
    assert packed_loss == pytest.approx(sums / count, rel=1e-5)


@pytest.mark.parametrize("model_type", ["bert", "roberta"])
def test_a_padding_only_mask_leaks_across_segments_and_fails(model_type):
    model = _model(model_type)
    features, plan, batch = _packed_case(model.config.pad_token_id)
    positions = hf_position_ids(batch["position_ids"], batch["segment_ids"], model_type, model.config.pad_token_id)
    with torch.no_grad():
        leaking = model(torch.from_numpy(batch["input_ids"]),
                        attention_mask=torch.from_numpy((batch["segment_ids"] > 0).astype(np.int64)),
                        position_ids=torch.from_numpy(positions)).logits.numpy()
    assert _max_difference(leaking, _alone_logits(model, features), plan) > 1000 * ATOL


def test_hf_torch_models_reject_a_4d_mask():
    """Why the torch path passes the 3-D form: 4.57's get_extended_attention_mask raises on 4-D."""
    from bucketing.packing_masks import block_diagonal_mask_torch

    model = _model("bert")
    _, _, batch = _packed_case(0)
    segment_ids = torch.from_numpy(batch["segment_ids"])
    with pytest.raises(ValueError, match="Wrong shape for input_ids"):
        model(torch.from_numpy(batch["input_ids"]), attention_mask=block_diagonal_mask_torch(segment_ids))


@pytest.mark.parametrize("model_type", ["bert", "roberta"])
def test_packed_logits_equal_one_by_one_on_torch_xla(model_type):
    if importlib.util.find_spec("torch_xla") is None:
        pytest.skip("torch_xla is not installed (the [torch-xla] extra)")
    if os.environ.get(_CHILD) != "1":
        # torch_xla's runtime is per process, and importing it after TensorFlow (which other tests
        # of this run import) aborts the process: run this test alone in a child interpreter.
        test_id = f"{__file__}::test_packed_logits_equal_one_by_one_on_torch_xla[{model_type}]"
        # one test, one process: without pyproject's addopts (-n auto would start xdist workers)
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                               "-p", "no:xdist", test_id],
                              env={**os.environ, _CHILD: "1", "PJRT_DEVICE": "CPU", "USE_TORCH_XLA": "1"},
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
        return
    import torch_xla

    device = torch_xla.device()
    model = _model(model_type)
    features, plan, batch = _packed_case(model.config.pad_token_id)
    alone = _alone_logits(model, features)  # CPU eager: the reference
    model.to(device)
    packed = _packed_logits(model, batch, device)
    torch_xla.sync()
    assert _max_difference(packed.cpu().numpy(), alone, plan) < ATOL


@torch.no_grad()
def test_segment_pooling_gives_each_example_its_own_pooled_output():
    """Classification: one label per segment; the [CLS] of segment s sits at segment_starts[:, s-1].
    Pooling the packed hidden states there gives each example the pooled output it gets alone."""
    common = {"vocab_size": VOCAB, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
                  "intermediate_size": 64, "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
                  "initializer_range": 0.2, "max_position_embeddings": WIDTH}
    torch.manual_seed(0)
    model = transformers.BertModel._from_config(transformers.BertConfig(**common), attn_implementation="eager").eval()
    rng = np.random.default_rng(2)
    lengths = rng.integers(2, 24, 9)
    features = [{"input_ids": rng.integers(5, VOCAB, n).tolist(), "label": i % 3} for i, n in enumerate(lengths)]
    plan = plan_packing(lengths, WIDTH, max_segments=4, seed=0)
    batch = pack_features(features, plan, max_segments=4)
    extra = torch_packed_inputs(torch.from_numpy(batch["segment_ids"]), torch.from_numpy(batch["position_ids"]),
                                "bert")
    hidden = model(torch.from_numpy(batch["input_ids"]), **extra).last_hidden_state
    starts = torch.from_numpy(batch["segment_starts"])  # (rows, max_segments)
    cls = hidden[torch.arange(hidden.shape[0])[:, None], starts]  # (rows, max_segments, hidden)
    pooled = model.pooler.activation(model.pooler.dense(cls))
    for i, f in enumerate(features):
        alone = model(torch.tensor([f["input_ids"]])).pooler_output[0]
        r, s = int(plan.row[i]), int(plan.segment[i])
        assert batch["labels"][r, s - 1] == f["label"]
        assert float((pooled[r, s - 1] - alone).abs().max()) < ATOL
