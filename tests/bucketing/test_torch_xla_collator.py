"""The collator and batch sampler on torch_xla: compiles == len(spec.shapes()), from the metrics.

The XLA part runs in a subprocess (PJRT_DEVICE=CPU): torch_xla's runtime is per process. The
property test (every real token of every example reaches exactly one replica's batch, in order,
with masking on) runs on the CPU tensors the collator returns with ``return_tensors="pt"``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from bucketing import BucketingCollator, BucketSpec, MaskingSpec  # noqa: E402
from bucketing.torch_sampler import BucketBatchSampler, WithDummyRows  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

XLA_SCRIPT = """
import json, numpy as np, torch, torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.debug.metrics as met
import torch_xla.distributed.parallel_loader as pl
from bucketing import BucketingCollator, BucketSpec, MaskingSpec
from bucketing.torch_sampler import BucketBatchSampler, WithDummyRows

device = torch_xla.device()  # before any backward
rng = np.random.default_rng(0)
lengths = np.minimum(rng.geometric(1 / 40, 600) + 2, 128)
dataset = [{"input_ids": rng.integers(5, 500, n).tolist()} for n in lengths]
spec = BucketSpec.fit(lengths, max_shapes=4, pad_to_multiple_of=8, batch_size=16, max_length=128)
masking = MaskingSpec(mask_token_id=4, vocab_size=500, special_token_ids=(0, 1, 2, 3), pad_token_id=1)
collator = BucketingCollator(spec, pad_token_id=1, return_tensors="pt", masking=masking, seed=0)
sampler = BucketBatchSampler(lengths, spec, seed=0)
loader = torch.utils.data.DataLoader(WithDummyRows(dataset), batch_sampler=sampler, collate_fn=collator)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Embedding(500, 32), torch.nn.Linear(32, 500)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

def step(batch):
    logits = model(batch["input_ids"])
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 500), batch["labels"].reshape(-1), ignore_index=-100)
    loss.backward()
    xm.optimizer_step(optimizer)
    optimizer.zero_grad()

torch_xla.sync()
before = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
compiles, shapes = [], set()
for epoch in range(2):
    sampler.set_epoch(epoch)
    for batch in pl.MpDeviceLoader(loader, device):
        shapes.add(tuple(batch["input_ids"].shape))
        step(batch)
    torch_xla.sync()
    now = met.metric_data("CompileTime")[0]
    compiles.append(now - before - sum(compiles))
fallbacks = [n for n in met.counter_names() if n.startswith("aten::")]
print(json.dumps({"compiles_per_epoch": compiles, "shapes": sorted(shapes), "spec_shapes": sorted(spec.shapes()),
                  "fallbacks": fallbacks}))
"""


def test_collator_on_torch_xla_compiles_once_per_declared_shape() -> None:
    # found, never imported in this process: torch_xla after TensorFlow aborts the process
    if importlib.util.find_spec("torch_xla") is None:
        pytest.skip("torch_xla is not installed")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PJRT_DEVICE": "CPU", "USE_TORCH_XLA": "1"}
    env.pop("CPU_NUM_DEVICES", None)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(XLA_SCRIPT)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    spec_shapes = [list(s) for s in result["spec_shapes"]]
    assert [list(s) for s in result["shapes"]] == spec_shapes  # every bucket was used
    # measured by torch_xla: one compilation per declared shape in epoch 1, none in epoch 2
    assert result["compiles_per_epoch"] == [len(spec_shapes), 0]
    assert result["fallbacks"] == []


@settings(max_examples=40, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 70), min_size=1, max_size=120),
    max_shapes=st.integers(1, 4),
    batch_size=st.integers(1, 6),
    replicas=st.integers(1, 3),
    seed=st.integers(0, 3),
)
def test_pt_batches_hold_every_real_token_exactly_once(
    lengths: list[int], max_shapes: int, batch_size: int, replicas: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    dataset = [{"input_ids": rng.integers(5, 300, n).tolist(), "idx": i} for i, n in enumerate(lengths)]
    spec = BucketSpec.fit(lengths, max_shapes=max_shapes, pad_to_multiple_of=8, batch_size=batch_size)
    masking = MaskingSpec(mask_token_id=4, vocab_size=300, special_token_ids=(0, 2, 3), pad_token_id=1)
    collator = BucketingCollator(spec, pad_token_id=1, return_tensors="pt", masking=masking, seed=seed)
    seen: dict[int, list[int]] = {}
    for rank in range(replicas):
        sampler = BucketBatchSampler(lengths, spec, seed=seed, num_replicas=replicas, rank=rank)
        loader = torch.utils.data.DataLoader(WithDummyRows(dataset), batch_sampler=sampler, collate_fn=collator)
        for batch in loader:
            assert tuple(batch["input_ids"].shape) in spec.shapes()
            assert batch["input_ids"].dtype == torch.int64
            for row in range(batch["input_ids"].shape[0]):
                if batch["attention_mask"][row].sum() == 0:  # a dummy row: no weight, no label
                    assert (batch["sample_weight"][row] == 0).all() and (batch["labels"][row] == -100).all()
                    continue
                # per-token weights with MLM labels: 1 exactly where a label counts
                assert torch.equal(batch["sample_weight"][row] > 0, batch["labels"][row] != -100)
                keep = batch["attention_mask"][row].bool()
                ids, labels = batch["input_ids"][row][keep], batch["labels"][row][keep]
                # a masked position's label is its original token; others are unchanged
                original = torch.where(labels != -100, labels, ids)
                index = int(batch["idx"][row])
                assert index not in seen
                seen[index] = original.tolist()
    assert seen == {i: d["input_ids"] for i, d in enumerate(dataset)}
