"""Train a Unigram tokenizer with ``tokenizers`` and save it as a transformers tokenizer directory.

The directory loads with ``AutoTokenizer.from_pretrained`` (``PreTrainedTokenizerFast``) and uses
RoBERTa's special tokens and ids (``<s>``=0, ``<pad>``=1, ``</s>``=2, ``<unk>``=3) with
``<mask>`` last, so ``RobertaConfig``'s defaults for bos/pad/eos hold. It is always saved next
to the run (the reference scripts saved it only when pushing to the Hub).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from reference_trainer import storage

log = logging.getLogger(__name__)

SPECIAL_TOKENS = ("<s>", "<pad>", "</s>", "<unk>")
MASK_TOKEN = "<mask>"
TOKENIZER_FILE = "tokenizer.json"


@dataclass(frozen=True)
class TokenizerInfo:
    path: str
    sha256: str
    vocab_size: int
    bos_token_id: int
    pad_token_id: int
    eos_token_id: int
    unk_token_id: int
    mask_token_id: int

    @property
    def special_token_ids(self) -> tuple[int, ...]:
        return (self.bos_token_id, self.pad_token_id, self.eos_token_id, self.unk_token_id, self.mask_token_id)

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


def train_tokenizer(texts: Iterable[str], vocab_size: int) -> Any:
    """A Unigram model (SentencePiece-style: NFKC, metaspace) with a RoBERTa-style template."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.NFKC()
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size - 1,  # <mask> is appended last, as in RoBERTa's vocabulary
        special_tokens=list(SPECIAL_TOKENS),
        unk_token="<unk>",
        show_progress=False,
    )
    tokenizer.train_from_iterator(texts, trainer=trainer)
    tokenizer.add_special_tokens([MASK_TOKEN])
    bos, eos = tokenizer.token_to_id("<s>"), tokenizer.token_to_id("</s>")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", bos), ("</s>", eos)]
    )
    return tokenizer


def save_tokenizer(tokenizer: Any, target_dir: str) -> TokenizerInfo:
    """Save as a transformers tokenizer directory (local or URL) and describe it."""
    from transformers import PreTrainedTokenizerFast

    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>", unk_token="<unk>",
        pad_token="<pad>", mask_token=MASK_TOKEN, cls_token="<s>", sep_token="</s>",
    )
    with tempfile.TemporaryDirectory(prefix="reference_trainer_tok_") as tmp:
        fast.save_pretrained(tmp)
        with open(os.path.join(tmp, TOKENIZER_FILE), "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()
        storage.copy_tree(tmp, target_dir)
    info = describe(fast, target_dir, digest)
    log.info("tokenizer: %d tokens saved to %s (sha256 %s)", info.vocab_size, target_dir, digest[:12])
    return info


def describe(fast: Any, path: str, digest: str) -> TokenizerInfo:
    return TokenizerInfo(
        path=path, sha256=digest, vocab_size=len(fast), bos_token_id=fast.bos_token_id,
        pad_token_id=fast.pad_token_id, eos_token_id=fast.eos_token_id,
        unk_token_id=fast.unk_token_id, mask_token_id=fast.mask_token_id,
    )


def file_sha256(tokenizer_dir: str) -> str:
    with storage.gfile().GFile(storage.join(tokenizer_dir, TOKENIZER_FILE), "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def load_tokenizer(tokenizer_dir: str) -> Any:
    from transformers import AutoTokenizer

    with storage.local_copy(tokenizer_dir) as local:
        return AutoTokenizer.from_pretrained(local)
