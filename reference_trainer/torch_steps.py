"""The code the PyTorch/XLA run traces: masked-LM totals, the train step and the eval step.

Kept in its own module so the preflight lints exactly what torch_xla will trace. Nothing here
reads a value back to the host: every figure leaves the step as a device tensor, and the
caller hands it to ``xm.add_step_closure``, which reads it after the step's graph has run.
The optimizer update is ``xm.optimizer_step`` split in its two halves (``xm.reduce_gradients``
then ``optimizer.step()``) so that the global-norm clip sees the replica-averaged gradient, as
the TensorFlow path's ``adam_global_clipnorm`` does. On several devices the run is SPMD
(:mod:`reference_trainer.torch_parallel`): the step is traced once for the global batch, its
sums are already global and XLA's partitioner reduces the gradients (``reduce_gradients`` is a
no-op there: ``xr.world_size()`` is 1).
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F

IGNORE_INDEX = -100
# Per-step totals: [loss_sum, masked, correct, real_tokens] (the TF path's layout).
TOTALS = 4
CLIP_NORM = 1.0


def masked_lm_totals(logits: torch.Tensor, labels: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Loss summed over masked positions, their count, correct predictions, non-pad tokens.

    ``ignore_index`` and a float weight instead of boolean indexing: ``logits[mask]`` would be
    a data-dependent shape (a CPU fallback and a recompile per count under torch_xla).
    """
    weight = (labels != IGNORE_INDEX).to(torch.float32)
    loss_sum = F.cross_entropy(
        logits.float().reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=IGNORE_INDEX,
        reduction="sum",
    )
    correct = (logits.argmax(dim=-1) == labels).to(torch.float32) * weight
    return torch.stack([loss_sum, weight.sum(), correct.sum(), attention_mask.to(torch.float32).sum()])


def label_histogram(labels: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """Counts of each token id among masked labels (for the most-frequent-token baseline).

    ``scatter_add_`` into a fixed ``vocab_size`` vector (``torch.bincount`` falls back to the CPU).
    """
    weight = (labels != IGNORE_INDEX).to(torch.float32).reshape(-1)
    ids = torch.where(labels == IGNORE_INDEX, torch.zeros_like(labels), labels).reshape(-1)
    return torch.zeros(vocab_size, dtype=torch.float32, device=labels.device).scatter_add_(0, ids, weight)


def forward_totals(model: Any, batch: dict[str, torch.Tensor], autocast_dtype: torch.dtype | None) -> torch.Tensor:
    if autocast_dtype is None:
        logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
    else:
        with torch.autocast(device_type="xla", dtype=autocast_dtype):
            logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
    # the loss and its statistics in float32, whatever the forward pass ran in
    return masked_lm_totals(logits, batch["labels"], batch["attention_mask"])


def train_step(
    model: Any, batch: dict[str, torch.Tensor], optimizer: Any, scheduler: Any,
    autocast_dtype: torch.dtype | None = None,
) -> torch.Tensor:
    """One optimizer step; returns this replica's totals (a device tensor, not read here)."""
    import torch_xla.core.xla_model as xm

    totals = forward_totals(model, batch, autocast_dtype)
    # Mean over the batch's masked tokens (the global batch under SPMD).
    loss = totals[0] / totals[1].clamp(min=1.0)
    loss.backward()
    xm.reduce_gradients(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP_NORM)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return totals.detach()


def accelerate_train_step(
    model: Any, batch: dict[str, torch.Tensor], optimizer: Any, scheduler: Any, accelerator: Any,
) -> torch.Tensor:
    """The same step through ``accelerate``: its backward, clip and (XLA) optimizer step."""
    totals = forward_totals(model, batch, None)
    loss = totals[0] / totals[1].clamp(min=1.0)
    accelerator.backward(loss)
    accelerator.clip_grad_norm_(model.parameters(), CLIP_NORM)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return totals.detach()


def eval_step(
    model: Any, batch: dict[str, torch.Tensor], vocab_size: int, autocast_dtype: torch.dtype | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    with torch.no_grad():
        totals = forward_totals(model, batch, autocast_dtype)
        return totals, label_histogram(batch["labels"], vocab_size)
