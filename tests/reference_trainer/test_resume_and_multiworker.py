"""Crash recovery and multi-worker training, each in real subprocesses of the CLI."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from reference_trainer.progress import KILL_AFTER_CHECKPOINT_ENV
from tests.reference_trainer.conftest import REPO, TINY_FLAGS, copy_prepared, run_cli

pytestmark = [pytest.mark.tf, pytest.mark.slow]


def test_a_run_killed_after_a_checkpoint_resumes_to_the_same_final_step(prepared_dir: Path, tmp_path: Path) -> None:
    out = copy_prepared(prepared_dir, tmp_path / "run")
    flags = ["train", "--output-dir", str(out), *TINY_FLAGS]
    killed = run_cli(flags, env={KILL_AFTER_CHECKPOINT_ENV: "10"})
    assert killed.returncode == -signal.SIGKILL, killed.stdout + killed.stderr
    record = json.loads((out / "manifest.json").read_text())["train"]
    assert (record["finished"], record["completed_steps"]) == (False, 10)
    assert [p.name for p in (out / "checkpoints").glob("ckpt-*.index")] == ["ckpt-10.index"]
    from reference_trainer.evaluate import load_trained_model
    from reference_trainer.manifest import StageError

    with pytest.raises(StageError, match=r"stopped at step 10; run `train` again to resume"):
        load_trained_model(str(out))

    resumed = run_cli(flags)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "resuming from" in resumed.stdout and "10 -> 20 (resumed)" in resumed.stdout
    record = json.loads((out / "manifest.json").read_text())["train"]
    assert (record["finished"], record["completed_steps"]) == (True, 20)
    steps = [json.loads(line)["step"] for line in (out / "train_history.jsonl").read_text().splitlines()]
    assert steps == [5, 10, 15, 20]  # no execution counted twice, none lost


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_two_workers_train_and_evaluate_with_multi_worker_mirrored_strategy(prepared_dir: Path, tmp_path: Path) -> None:
    import os

    out = copy_prepared(prepared_dir, tmp_path / "run")
    workers = [f"127.0.0.1:{_free_port()}", f"127.0.0.1:{_free_port()}"]
    procs = []
    for index in range(2):
        tf_config = {"cluster": {"worker": workers}, "task": {"type": "worker", "index": index}}
        env = {**os.environ, "PYTHONPATH": str(REPO), "TF_CONFIG": json.dumps(tf_config)}
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "reference_trainer", "run", "--output-dir", str(out), *TINY_FLAGS],
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        ))
    outputs = []
    try:
        for proc in procs:
            outputs.append(proc.communicate(timeout=300)[0])
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    for proc, output in zip(procs, outputs):
        assert proc.returncode == 0, output
        assert "multi_worker, 2 replica(s)" in output
    manifest = json.loads((out / "manifest.json").read_text())
    record = manifest["train"]
    assert (record["strategy"], record["replicas"], record["completed_steps"]) == ("multi_worker", 2, 20)
    # Both workers evaluated their share in lockstep: every eval token once, none twice.
    assert manifest["evaluate"]["real_tokens"] == manifest["prepare"]["splits"]["eval"]["tokens"]
    assert record["train_compiles"] == 1 and record["batch_shapes"] == [[4, 32]]
    assert (out / "model" / "tf_model.h5").exists()
    assert not list((out / "checkpoints").glob("worker*"))  # only the chief's copy is kept
