"""The one frozen configuration every stage reads, and which of its fields each stage depends on.

``manifest.json`` records the fields a stage's artifacts depend on; a later stage compares its
own config with them (:func:`reference_trainer.manifest.check_fields`), so nothing has to
"match the other script" by convention.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

JIT_CHOICES = ("auto", "on", "off")
FRAMEWORK_CHOICES = ("tf", "torch")
PRECISION_CHOICES = ("fp32", "bf16")


@dataclass(frozen=True)
class ModelPreset:
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int | None = None  # None: block length + RoBERTa's offset


MODEL_PRESETS: dict[str, ModelPreset] = {
    # For tests and smoke runs: compiles in seconds, learns little.
    "micro": ModelPreset(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64),
    # Small enough that the default run trains visibly in a few minutes on a 2-core CPU.
    "tiny": ModelPreset(hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512),
    "roberta-base": ModelPreset(
        hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
        max_position_embeddings=514,
    ),
}


@dataclass(frozen=True)
class TrainerConfig:
    """Everything a run needs. Validated on construction; paths may be local or ``gs://``."""

    output_dir: str = "reference_trainer_run"
    # corpus: the embedded default unless text files or a cached Hugging Face dataset are named
    train_files: tuple[str, ...] = ()
    hf_dataset: str | None = None
    hf_config: str | None = None
    hf_split: str = "train"
    hf_text_column: str = "text"
    hf_cache_dir: str | None = None
    max_documents: int | None = None
    eval_fraction: float = 0.05
    # tokenizer and shards
    vocab_size: int = 4096
    block_length: int = 64
    bucketing: bool = False
    max_shapes: int = 4
    pad_to_multiple_of: int = 8
    records_per_shard: int = 2048
    # model and training
    model_preset: str = "tiny"
    batch_size: int = 32
    train_steps: int = 600
    warmup_steps: int = 60
    learning_rate: float = 1e-3
    weight_decay: float = 0.01
    mlm_probability: float = 0.15
    seed: int = 0
    shuffle_buffer: int = 10_000
    framework: str = "tf"  # tf: TensorFlow/Keras; torch: PyTorch/XLA (reference_trainer.torch_train)
    precision: str = "fp32"  # bf16: Keras mixed_bfloat16 on TF, autocast on torch_xla; float32 loss
    # runtime: may change between a run and its resumption
    steps_per_execution: int = 20
    checkpoint_every: int = 100
    jit_compile: str = "auto"
    tpu: str | None = None
    skip_preflight: bool = False
    check_modules: tuple[str, ...] = field(default_factory=tuple)
    fill_mask_prompts: tuple[str, ...] = ()
    accelerate: bool = False  # torch only: the same loop under Hugging Face accelerate

    def __post_init__(self) -> None:
        object.__setattr__(self, "train_files", tuple(self.train_files))
        object.__setattr__(self, "check_modules", tuple(self.check_modules))
        object.__setattr__(self, "fill_mask_prompts", tuple(self.fill_mask_prompts))
        if self.train_files and self.hf_dataset:
            raise ValueError("give either --train-files or --hf-dataset, not both")
        if self.hf_config and not self.hf_dataset:
            raise ValueError("--hf-config needs --hf-dataset")
        if self.model_preset not in MODEL_PRESETS:
            raise ValueError(
                f"--model-preset {self.model_preset!r} is unknown; choose one of {sorted(MODEL_PRESETS)}"
            )
        if self.jit_compile not in JIT_CHOICES:
            raise ValueError(f"--jit-compile must be one of {JIT_CHOICES}, got {self.jit_compile!r}")
        if self.framework not in FRAMEWORK_CHOICES:
            raise ValueError(f"--framework must be one of {FRAMEWORK_CHOICES}, got {self.framework!r}")
        if self.precision not in PRECISION_CHOICES:
            raise ValueError(f"--precision must be one of {PRECISION_CHOICES}, got {self.precision!r}")
        if self.framework != "torch" and self.accelerate:
            raise ValueError("--accelerate needs --framework torch")
        positive = (
            "vocab_size", "block_length", "max_shapes", "pad_to_multiple_of", "records_per_shard",
            "batch_size", "train_steps", "steps_per_execution", "checkpoint_every",
        )
        for name in positive:
            if getattr(self, name) <= 0:
                raise ValueError(f"--{_flag(name)} must be positive, got {getattr(self, name)}")
        if self.vocab_size < 64:
            raise ValueError(f"--vocab-size {self.vocab_size} is too small for a Unigram tokenizer (>= 64)")
        if self.block_length < 8:
            raise ValueError(f"--block-length must be at least 8, got {self.block_length}")
        if not 0.0 < self.eval_fraction < 1.0:
            raise ValueError(f"--eval-fraction must be in (0, 1), got {self.eval_fraction}")
        if not 0.0 < self.mlm_probability < 1.0:
            raise ValueError(f"--mlm-probability must be in (0, 1), got {self.mlm_probability}")
        if self.learning_rate <= 0:
            raise ValueError(f"--learning-rate must be positive, got {self.learning_rate}")
        # A linear-decay schedule whose decay phase has 0 steps divides by zero: NaN loss.
        if not 0 <= self.warmup_steps < self.train_steps:
            raise ValueError(
                f"--warmup-steps ({self.warmup_steps}) must be >= 0 and smaller than --train-steps "
                f"({self.train_steps}); otherwise the learning-rate schedule divides by zero (NaN loss)"
            )
        if self.max_documents is not None and self.max_documents <= 0:
            raise ValueError(f"--max-documents must be positive, got {self.max_documents}")
        preset = MODEL_PRESETS[self.model_preset]
        if preset.max_position_embeddings is not None and self.block_length + 2 > preset.max_position_embeddings:
            raise ValueError(
                f"--block-length {self.block_length} exceeds the {self.model_preset} preset's "
                f"{preset.max_position_embeddings - 2} positions; lower --block-length"
            )

    @property
    def preset(self) -> ModelPreset:
        return MODEL_PRESETS[self.model_preset]

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainerConfig:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"unknown config fields {unknown}; the manifest was written by another version")
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})

    def replace(self, **changes: Any) -> TrainerConfig:
        return dataclasses.replace(self, **changes)


# Fields whose change invalidates the prepared corpus, tokenizer and shards.
DATA_FIELDS = (
    "train_files", "hf_dataset", "hf_config", "hf_split", "hf_text_column", "max_documents",
    "eval_fraction", "vocab_size", "block_length", "bucketing", "max_shapes", "pad_to_multiple_of",
    "records_per_shard",
)
# Fields whose change makes a checkpoint a different model or a different optimisation.
TRAIN_FIELDS = (
    "model_preset", "batch_size", "train_steps", "warmup_steps", "learning_rate", "weight_decay",
    "mlm_probability", "seed", "shuffle_buffer", "framework", "precision",
)


def _flag(name: str) -> str:
    return name.replace("_", "-")


def flag_for(name: str) -> str:
    """The command-line flag that sets config field ``name``."""
    return "--" + _flag(name)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
