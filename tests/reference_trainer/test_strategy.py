from __future__ import annotations

import json

import pytest

from reference_trainer import strategy
from reference_trainer.strategy import DeviceReport, plan_strategy

pytestmark = pytest.mark.tf


@pytest.mark.parametrize(
    ("report", "kind", "jit"),
    [
        (DeviceReport("TPU", tpu_name="v3-8"), "tpu", False),
        (DeviceReport("CPU"), "default", True),
        (DeviceReport("GPU", gpus=1), "one_device", True),
        (DeviceReport("GPU", gpus=4), "mirrored", True),
        (DeviceReport("CPU", workers=2, task_type="worker", task_index=1), "multi_worker", True),
    ],
)
def test_auto_jit_compile_is_off_on_tpu_and_on_elsewhere(report: DeviceReport, kind: str, jit: bool) -> None:
    plan = plan_strategy(report, "auto")
    assert (plan.kind, plan.jit_compile) == (kind, jit)
    assert plan.jit_reason.startswith("auto")


def test_jit_override_is_honoured_and_reported() -> None:
    plan = plan_strategy(DeviceReport("TPU", tpu_name="v3-8"), "on")
    assert plan.jit_compile is True
    assert "overrides auto, which would be off on TPU" in plan.jit_reason
    assert plan_strategy(DeviceReport("CPU"), "off").jit_compile is False


def test_resolver_with_tpu_detection_mocked_at_its_boundary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only detect_devices (the hardware boundary) is replaced; planning and the choice run for real."""
    made = {}
    monkeypatch.setattr(strategy, "detect_devices", lambda tpu: DeviceReport("TPU", tpu_name=tpu, tpu_resolver="r"))
    monkeypatch.setattr(strategy, "make_strategy", lambda report, plan: made.setdefault("s", _Fake()))
    runtime = strategy.resolve_strategy("my-tpu", "auto")
    assert runtime.plan.kind == "tpu" and runtime.plan.jit_compile is False and runtime.num_replicas == 8


class _Fake:
    num_replicas_in_sync = 8


def test_detection_reads_tf_config_and_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    cluster = {"cluster": {"worker": ["127.0.0.1:1", "127.0.0.1:2"]}, "task": {"type": "worker", "index": 1}}
    monkeypatch.setenv("TF_CONFIG", json.dumps(cluster))
    monkeypatch.delenv("TPU_NAME", raising=False)
    report = strategy.detect_devices(None)
    assert (report.device_type, report.workers, report.task_index) == ("CPU", 2, 1)
    assert plan_strategy(report, "auto").is_chief is False


def test_real_cpu_resolution(runtime) -> None:  # noqa: ANN001
    assert runtime.plan.kind == "default" and runtime.plan.jit_compile is True and runtime.num_replicas == 1
