"""The `fill-mask` stage: reload the saved directory alone (model + tokenizer) and predict masks.

Uses the TF model directly, so no PyTorch is needed (transformers' ``pipeline("fill-mask",
framework="tf")`` also works on a TF-only install, but only with ``dtype=None``). Besides the
prompts it measures top-1/top-5 hits on one masked word-piece in each of the first eval records.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from reference_trainer import storage
from reference_trainer.config import TrainerConfig
from reference_trainer.manifest import StageError, require_section

log = logging.getLogger(__name__)

DEFAULT_PROMPTS = (
    "The <mask> statement is used to define a function.",
    "Return a new list containing all items from the <mask> in ascending order.",
    "If the file does not exist, an <mask> is raised.",
)
_HIT_RECORDS = 64


def check_prompt(config: TrainerConfig, prompt: str, mask_token: str, length: int, block_length: int) -> bool:
    """Whether a prompt of ``length`` tokens fits the ``block_length`` positions the model was
    trained on (both trainers' fill-mask stage). Raise naming the fix when a prompt the user gave has
    no mask token or is too long; a default prompt that is too long is skipped (False)."""
    if mask_token not in prompt:
        raise StageError(f"--fill-mask-prompt {prompt!r} has no {mask_token}; add one")
    if length <= block_length:
        return True
    if config.fill_mask_prompts:
        raise StageError(
            f"--fill-mask-prompt {prompt!r} is {length} tokens, more than "
            f"the {block_length} positions the model was trained on; shorten it"
        )
    return False


@dataclass(frozen=True)
class Prediction:
    prompt: str
    tokens: tuple[str, ...]
    scores: tuple[float, ...]


@dataclass(frozen=True)
class FillMaskResult:
    model_dir: str
    predictions: tuple[Prediction, ...]
    top1: float
    top5: float
    checked_positions: int


def fill_mask(config: TrainerConfig, top_k: int = 5) -> FillMaskResult:
    import numpy as np
    import tensorflow as tf
    from transformers import AutoTokenizer, TFAutoModelForMaskedLM

    out = config.output_dir
    _, prepared = require_section(out, "prepare", "prepare")
    _, trained = require_section(out, "train", "train")
    model_dir = storage.join(out, trained["model_dir"])
    try:
        with storage.local_copy(model_dir) as local:
            tokenizer = AutoTokenizer.from_pretrained(local)
            model = TFAutoModelForMaskedLM.from_pretrained(local)
    except OSError as error:
        raise StageError(f"{model_dir} does not hold a loadable model and tokenizer ({error}); run `train` again") from error

    predictions = []
    block_length = prepared["block_length"]
    for prompt in config.fill_mask_prompts or DEFAULT_PROMPTS:
        encoded = tokenizer(prompt, return_tensors="tf")
        if not check_prompt(config, prompt, tokenizer.mask_token, encoded["input_ids"].shape[1], block_length):
            log.info("fill-mask: default prompt %r is longer than %d tokens; skipped", prompt, block_length)
            continue
        logits = model(dict(encoded), training=False).logits[0]
        position = int(np.flatnonzero(encoded["input_ids"][0].numpy() == tokenizer.mask_token_id)[0])
        probs = tf.nn.softmax(logits[position]).numpy()
        best = np.argsort(-probs)[:top_k]
        predictions.append(Prediction(prompt, tuple(tokenizer.convert_ids_to_tokens(best.tolist())),
                                      tuple(float(probs[i]) for i in best)))

    top1, top5, checked = _eval_hits(model, tokenizer, out, prepared)
    log.info("fill-mask: top-1 %.3f, top-5 %.3f on %d masked eval positions", top1, top5, checked)
    return FillMaskResult(model_dir, tuple(predictions), top1, top5, checked)


def _eval_hits(model: Any, tokenizer: Any, out: str, prepared: dict[str, Any]) -> tuple[float, float, int]:
    """Mask the middle non-special token of each of the first eval records; count top-k hits."""
    import numpy as np
    import tensorflow as tf

    first_shard = storage.join(out, prepared["splits"]["eval"]["shards"][0]["file"])
    special = set(tokenizer.all_special_ids)
    hits1 = hits5 = checked = 0
    for raw in tf.data.TFRecordDataset(first_shard).take(_HIT_RECORDS):
        example = tf.train.Example.FromString(raw.numpy())
        ids = np.array(example.features.feature["input_ids"].int64_list.value, dtype=np.int32)
        candidates = [i for i, t in enumerate(ids) if t not in special]
        if not candidates:
            continue
        position = candidates[len(candidates) // 2]
        original = int(ids[position])
        masked = ids.copy()
        masked[position] = tokenizer.mask_token_id
        logits = model({"input_ids": masked[None], "attention_mask": np.ones_like(masked)[None]}, training=False).logits
        ranked = np.argsort(-logits[0, position].numpy())
        hits1 += int(ranked[0] == original)
        hits5 += int(original in ranked[:5])
        checked += 1
    return hits1 / max(checked, 1), hits5 / max(checked, 1), checked
