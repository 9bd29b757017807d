"""The CLI as a user meets it: progress in a pipe, early flag errors, Ctrl-C, exit codes, logs."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from reference_trainer.cli import _RichObserver
from reference_trainer.train import Progress, TrainStart
from tests.reference_trainer.conftest import REPO, TINY_FLAGS, copy_prepared, tiny_config

pytestmark = pytest.mark.tf


def _start(start_step: int = 0, total: int = 600) -> TrainStart:
    return TrainStart(start_step, total, "default", 1, True, "auto: on for CPU", 1.0, ((32, 64),))


def _feed(observer: _RichObserver, start: TrainStart, every: int) -> None:
    observer.on_start(start)
    for step in range(start.start_step + every, start.total_steps + 1, every):
        observer.on_progress(Progress(step, start.total_steps, 5.0, 0.1, 1000.0, 1e-3))
    observer.close()


def _logged_steps(caplog: pytest.LogCaptureFixture) -> list[int]:
    return [int(r.getMessage().split()[1].split("/")[0]) for r in caplog.records if r.getMessage().startswith("step ")]


def test_without_a_terminal_a_plain_line_every_n_steps(caplog: pytest.LogCaptureFixture) -> None:
    piped = Console(file=io.StringIO(), force_terminal=False)
    assert not piped.is_terminal
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(piped, enabled=True), _start(), every=20)
    # ~20 lines for the run: every 30 steps (rounded to the 20-step host calls), the first and the last
    assert _logged_steps(caplog) == [20, 40, 60, 100, 120, 160, 180, 220, 240, 280, 300, 340, 360, 400, 420,
                                     460, 480, 520, 540, 580, 600]
    assert "loss 5.0000 masked acc 0.100" in caplog.records[-1].getMessage()


def test_log_every_and_a_resumed_start(caplog: pytest.LogCaptureFixture) -> None:
    piped = Console(file=io.StringIO(), force_terminal=False)
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(piped, enabled=True, log_every=100), _start(start_step=200), every=20)
    assert _logged_steps(caplog) == [220, 300, 400, 500, 600]


def test_no_progress_logs_every_host_call_and_a_terminal_gets_the_bar(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(Console(file=io.StringIO(), force_terminal=False), enabled=False), _start(total=100), 20)
    assert _logged_steps(caplog) == [20, 40, 60, 80, 100]
    caplog.clear()
    terminal = Console(file=io.StringIO(), force_terminal=True)
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(terminal, enabled=True), _start(total=100), 20)
    assert _logged_steps(caplog) == [] and "100/100" in terminal.file.getvalue()


_EARLY_ERRORS = r'''
import json, sys
from reference_trainer.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    code = main(argv)
    results.append([code, "tensorflow" in sys.modules])
print("RESULTS " + json.dumps(results))
'''


def test_flag_and_input_errors_come_before_tensorflow_loads(tmp_path: Path) -> None:
    """Each mistake gets its one-line error with TensorFlow never imported (checked in a fresh
    interpreter's sys.modules, which is evidence that does not depend on timing)."""
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n\n")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("A first paragraph of plain text.\n\nCaf\u00e9 au lait, in latin-1.\n".encode("latin-1"))
    good = tmp_path / "good.txt"
    good.write_text("Some text that is fine.\n")
    out = str(tmp_path / "run")
    cases = {
        "--batch-size must be positive, got 0": ["--output-dir", out, "--batch-size", "0"],
        "--warmup-steps (600) must be >= 0 and smaller than --train-steps": ["train", "--output-dir", out,
                                                                             "--warmup-steps", "600"],
        f"--train-files {str(tmp_path / 'missing.txt')!r} matches no file": [
            "--output-dir", out, "--train-files", str(tmp_path / "missing.txt")],
        f"--train-files {empty} is empty": ["prepare", "--output-dir", out, "--train-files", str(good), str(empty)],
        f"--train-files {latin1} is not UTF-8 text: byte offset 37 (line 3) holds b'\\xe9'": [
            "--output-dir", out, "--train-files", str(latin1)],
        "--hf-dataset './no_such_dataset' does not exist": ["--output-dir", out, "--hf-dataset", "./no_such_dataset"],
        "--check-module nope.py is not a file": ["train", "--output-dir", out, "--check-module", "nope.py"],
        "--log-every must be positive, got 0": ["--output-dir", out, "--log-every", "0"],
    }
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "300"}
    done = subprocess.run([sys.executable, "-c", _EARLY_ERRORS, json.dumps(list(cases.values()))], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.split("RESULTS ")[-1])
    for (message, _), (code, tensorflow_loaded) in zip(cases.items(), results):
        assert code in (1, 2) and not tensorflow_loaded, (message, code, tensorflow_loaded)
        assert f"error: {message}" in done.stdout, (message, done.stdout)
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.slow
def test_ctrl_c_prints_one_line_naming_the_step_and_checkpoint(prepared_dir: Path, tmp_path: Path) -> None:
    """A piped run (stdout is not a terminal) streams progress lines while it trains; Ctrl-C
    (SIGINT) then ends it with one line and exit code 130, not a traceback."""
    out = copy_prepared(prepared_dir, tmp_path / "run")
    flags = [arg for arg in TINY_FLAGS if arg != "--no-progress"]
    flags = ["train", "--output-dir", str(out), *flags, "--train-steps", "100000", "--log-every", "5"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "300"}
    proc = subprocess.Popen([sys.executable, "-m", "reference_trainer", *flags], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # lines arrive while it runs: progress is flushed, not buffered
            seen.append(line)
            if "step 15/100000" in line:
                break
        assert any("stage train: started" in line for line in seen), "".join(seen)
        proc.send_signal(signal.SIGINT)
        rest, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, "".join(seen) + rest + stderr
    final = [line for line in rest.splitlines() if "interrupted at step" in line]
    assert len(final) == 1, rest
    match = re.search(r"interrupted at step (\d+) of 100000; checkpoint at step (\d+) in (\S+); rerun the same "
                      r"command to resume from step (\d+)", final[0])
    assert match, final[0]
    step, checkpoint = int(match[1]), int(match[2])
    assert step >= 15 and checkpoint >= 10 and checkpoint % 10 == 0 and match[4] == match[2]
    assert (out / "checkpoints" / f"ckpt-{checkpoint}.index").exists()
    assert "Traceback" not in rest + stderr and "KeyboardInterrupt" not in rest + stderr


def test_a_finished_run_extends_to_a_higher_train_steps(trained, runtime, tmp_path: Path,  # noqa: ANN001
                                                        caplog: pytest.LogCaptureFixture) -> None:
    from reference_trainer.manifest import StageError
    from reference_trainer.train import train

    source, _ = trained
    out = tmp_path / "run"
    shutil.copytree(source, out)
    with pytest.raises(StageError, match=r"--train-steps 10 is below step 20, which the checkpoint .* give "
                                         r"--train-steps 20 or more"):
        train(tiny_config(out, train_steps=10), runtime)
    with caplog.at_level(logging.WARNING, logger="reference_trainer"):
        result = train(tiny_config(out, train_steps=30), runtime)
    assert (result.start_step, result.final_step) == (20, 30)
    assert [step for step, _ in result.history] == [5, 10, 15, 20, 25, 30]
    assert "--train-steps changed from 20 to 30: training continues from step 20" in caplog.text
    record = json.loads((out / "manifest.json").read_text())["train"]
    assert (record["finished"], record["completed_steps"], record["config"]["train_steps"]) == (True, 30, 30)


_CUINIT = "cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)"
_WINDOW = r'''
import os
from reference_trainer.tf_logging import filtered_startup_stderr
with filtered_startup_stderr() as window:
    import tensorflow as tf
    window.gpus = len(tf.config.list_physical_devices("GPU"))
    os.write(2, b"E0000 00:00:1795619674.742118    9535 some_kernel.cc:12] a real error stays\n")
    os.write(2, b"F0000 00:00:1795619674.742118    9535 cuda_platform.cc:99] a fatal line stays\n")
    os.write(2, b"plain text on stderr stays\n")
print("GPUS", window.gpus)
'''


def test_startup_filter_drops_the_cuda_probe_only_without_a_gpu() -> None:
    from reference_trainer.tf_logging import filter_startup_lines

    lines = [
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n",
        "I0000 00:00:1795619671.490679    9535 cudart_stub.cc:31] Could not find cuda drivers on your machine, "
        "GPU will not be used.\n",
        "I0000 00:00:1795619671.489127    9535 port.cc:153] oneDNN custom operations are on.\n",
        f"E0000 00:00:1795619674.742118    9535 {_CUINIT}\n",
        "E0000 00:00:1795619674.742118    9535 op_kernel.cc:1] something real\n",
        "W0000 00:00:1795619674.742118    9535 cuda_executor.cc:1] a warning\n",
    ]
    assert filter_startup_lines(lines, gpus=0, min_log_level=2) == [lines[4]]
    assert filter_startup_lines(lines, gpus=1, min_log_level=2) == lines[3:5]
    assert filter_startup_lines(lines, gpus=0, min_log_level=0) == lines[:1] + lines[2:3] + lines[4:5]


@pytest.mark.slow  # three fresh TensorFlow start-ups
def test_tensorflow_startup_shows_no_cuda_probe_error_but_real_errors(tmp_path: Path) -> None:
    """In fresh interpreters: plain TensorFlow prints the cuInit error here (no GPU), the trainer
    does not, and a real error written to stderr inside the filtered window still shows."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "TF_CPP_MIN_LOG_LEVEL": "2", "TF_USE_LEGACY_KERAS": "1"}
    plain = subprocess.run([sys.executable, "-c", "import tensorflow as tf; tf.config.list_physical_devices('GPU')"],
                           cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    window = subprocess.run([sys.executable, "-c", _WINDOW], cwd=REPO, env=env, capture_output=True, text=True,
                            timeout=300)
    assert window.returncode == 0, window.stderr
    if "GPUS 0" not in window.stdout:
        pytest.skip("a GPU is visible: the CUDA lines are kept by design")
    assert "failed call to cuInit" in plain.stderr, plain.stderr  # the noise is real on this machine
    assert "cuInit" not in window.stderr and "cudart_stub" not in window.stderr, window.stderr
    for line in ("some_kernel.cc:12] a real error stays", "cuda_platform.cc:99] a fatal line stays",
                 "plain text on stderr stays"):
        assert line in window.stderr
    # the CLI itself: TensorFlow loads (then the stage stops, nothing is prepared)
    cli = subprocess.run([sys.executable, "-m", "reference_trainer", "train", "--output-dir", str(tmp_path)],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 1 and "has no `prepare` record" in cli.stdout, cli.stdout + cli.stderr
    assert "cuInit" not in cli.stderr and "E0000" not in cli.stderr, cli.stderr


@pytest.mark.parametrize("framework", ["tf", "torch"])
def test_a_check_that_says_no_gives_advice_and_exit_code_3(framework: str, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Both frameworks: the summary's NO rows become advice lines and the CLI exits 3 unless
    --allow-failed-checks (the stage's work replaced: only the summary and exit-code logic run)."""
    from reference_trainer import cli, summary, torch_cli

    evaluation = {"masked_accuracy": 0.05, "frequency_baseline": 0.06, "most_frequent_token": "the", "loss": 6.0,
                  "perplexity": 400.0, "masked_tokens": 1000, "eval_compiles": 1, "batch_shapes": [[8, 32]]}
    built = summary.build_summary({"evaluate": evaluation}, {}, [], framework=framework)
    assert len(built.failed) == 1
    assert "eval masked accuracy 0.050 is not above the 0.060 of always predicting 'the'" in built.failed[0]
    assert "--train-steps" in built.failed[0]

    monkeypatch.setattr(cli, "_check_inputs", lambda stage, config: None)
    monkeypatch.setattr(cli, "_run_tf", lambda *args: built)
    monkeypatch.setattr(torch_cli, "run_torch", lambda *args: built)
    flags = ["evaluate", "--output-dir", "unused", "--framework", framework]
    monkeypatch.setenv("COLUMNS", "200")
    assert cli.main(flags) == cli.EXIT_CHECKS_FAILED == 3
    printed = " ".join(capsys.readouterr().out.split())
    assert "0.050 vs 0.060" in printed and "NO" in printed and "check failed: eval masked accuracy 0.050" in printed
    assert "exit code 3" in printed
    assert cli.main([*flags, "--allow-failed-checks"]) == 0
    assert "check failed:" in capsys.readouterr().out  # still said, only the exit code changes
