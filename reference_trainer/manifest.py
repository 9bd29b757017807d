"""``manifest.json``: what each stage wrote, and the config fields it was written with.

Layout: ``{"format": 1, "prepare": {...}, "train": {...}, "evaluate": {...}}``; each section
holds ``"config"`` (the fields of :data:`~reference_trainer.config.DATA_FIELDS` or
:data:`~reference_trainer.config.TRAIN_FIELDS`) plus the stage's own facts (shard record
counts, tokenizer hash, block shapes, completed steps). Counts are read from here, never
parsed back from file names.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from reference_trainer import storage
from reference_trainer.config import TrainerConfig, flag_for

MANIFEST_NAME = "manifest.json"
FORMAT = 1
# What a train stage writes under the output directory (both trainers; the train section records
# the model and checkpoint directories it used)
CHECKPOINT_DIR = "checkpoints"
MODEL_DIR = "model"
LOG_DIR = "logs"
log = logging.getLogger(__name__)


class StageError(RuntimeError):
    """A stage cannot run; the message is one line naming the file or flag and the fix."""


class Interrupted(StageError):
    """Ctrl-C in a stage that can say where it stopped and how a rerun resumes."""


class ManifestMismatch(StageError):
    def __init__(self, field: str, wanted: Any, recorded: Any, path: str, stage: str) -> None:
        self.field = field
        super().__init__(
            f"{flag_for(field)}={wanted!r} does not match {path} ({field}={recorded!r}, "
            f"written by `{stage}`): drop {flag_for(field)} to reuse that {stage} output, "
            f"or choose a new --output-dir"
        )


def manifest_path(output_dir: str) -> str:
    return storage.join(output_dir, MANIFEST_NAME)


def read_manifest(output_dir: str) -> dict[str, Any] | None:
    path = manifest_path(output_dir)
    if not storage.exists(path):
        return None
    try:
        data = json.loads(storage.read_text(path))
    except json.JSONDecodeError as error:
        raise StageError(f"{path} is not valid JSON ({error}); delete it and run `prepare` again") from error
    if data.get("format") != FORMAT:
        raise StageError(f"{path} has format {data.get('format')!r}, expected {FORMAT}; run `prepare` again")
    return data


def require_section(output_dir: str, section: str, producer: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return ``(manifest, manifest[section])`` or raise naming the stage to run first."""
    manifest = read_manifest(output_dir)
    if manifest is None or section not in manifest:
        raise StageError(
            f"{manifest_path(output_dir)} has no `{section}` record; run "
            f"`python -m reference_trainer {producer} --output-dir {output_dir}` first"
        )
    return manifest, manifest[section]


def finished_model_dir(output_dir: str) -> str:
    """The ``save_pretrained`` directory a finished train stage recorded, or raise naming the fix."""
    _, trained = require_section(output_dir, "train", "train")
    if not trained.get("finished"):
        raise StageError(
            f"training in {output_dir} stopped at step {trained.get('completed_steps')}; run `train` "
            "again to resume it before evaluating"
        )
    return storage.join(output_dir, trained["model_dir"])


def write_section(output_dir: str, section: str, content: dict[str, Any]) -> dict[str, Any]:
    manifest = read_manifest(output_dir) or {"format": FORMAT}
    manifest[section] = content
    storage.makedirs(output_dir)
    storage.write_text_atomic(manifest_path(output_dir), json.dumps(manifest, indent=2, sort_keys=True))
    log.debug("manifest section %s written to %s", section, manifest_path(output_dir))
    return manifest


def write_train_record(config: TrainerConfig, completed_steps: int, finished: bool = False, **facts: Any) -> None:
    """The ``train`` section as both training loops write it: at the start, at each checkpoint
    (``completed_steps``) and, with the run's facts, when training has finished."""
    from reference_trainer.config import TRAIN_FIELDS

    write_section(config.output_dir, "train", {
        "config": config_fields(config, TRAIN_FIELDS), "completed_steps": completed_steps, "finished": finished,
        **facts,
    })


def config_fields(config: TrainerConfig, fields: tuple[str, ...]) -> dict[str, Any]:
    values = config.to_dict()
    return {name: values[name] for name in fields}


def check_fields(
    config: TrainerConfig, recorded: dict[str, Any], fields: tuple[str, ...], output_dir: str, stage: str
) -> None:
    """Raise :class:`ManifestMismatch` for the first field that differs from the record."""
    wanted = config_fields(config, fields)
    for name in fields:
        if name in recorded and wanted[name] != recorded[name]:
            raise ManifestMismatch(name, wanted[name], recorded[name], manifest_path(output_dir), stage)


def recorded_config(manifest: dict[str, Any]) -> dict[str, Any]:
    """The config fields recorded by every stage, merged (later stages' fields win)."""
    merged: dict[str, Any] = {}
    for section in ("prepare", "train"):
        merged.update(manifest.get(section, {}).get("config", {}))
    return merged
