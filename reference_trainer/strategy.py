"""Pick the distribution strategy and the ``jit_compile`` setting from the hardware.

:func:`detect_devices` is the only function that looks at the machine (TPU resolver, GPU list,
``TF_CONFIG``); everything after it is decided from its :class:`DeviceReport`, so tests replace
that one boundary to play a TPU or several GPUs. :func:`resolve_strategy` is the one entry point.

- TPU (``--tpu NAME``, or ``TPU_NAME`` set): ``TPUStrategy``; ``jit_compile`` off, because the
  TPU compiles the whole step with XLA anyway and nested jit scopes are refused there.
- ``TF_CONFIG`` naming several workers: ``MultiWorkerMirroredStrategy``.
- Several GPUs: ``MirroredStrategy``; one GPU: ``OneDeviceStrategy``; otherwise the default
  strategy. ``jit_compile`` on for CPU and GPU.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from typing import Any

from reference_trainer.manifest import StageError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DeviceReport:
    device_type: str  # "TPU", "GPU" or "CPU"
    gpus: int = 0
    tpu_name: str | None = None
    tpu_resolver: Any = None
    workers: int = 1  # from TF_CONFIG
    task_type: str | None = None
    task_index: int = 0


@dataclass(frozen=True)
class StrategyPlan:
    kind: str  # "tpu", "multi_worker", "mirrored", "one_device", "default"
    device_type: str
    jit_compile: bool
    jit_reason: str
    workers: int
    task_index: int

    @property
    def is_chief(self) -> bool:
        # MultiWorkerMirroredStrategy without an explicit chief makes worker 0 the chief.
        return self.task_index == 0


@dataclass(frozen=True)
class Runtime:
    plan: StrategyPlan
    strategy: Any  # tf.distribute.Strategy

    @property
    def num_replicas(self) -> int:
        return int(self.strategy.num_replicas_in_sync)


def detect_devices(tpu: str | None) -> DeviceReport:
    """The hardware boundary: connect to a TPU when one is named, count GPUs, read TF_CONFIG."""
    import tensorflow as tf

    tpu_name = tpu or os.environ.get("TPU_NAME")
    if tpu_name:
        try:
            resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="" if tpu_name == "local" else tpu_name)
            tf.config.experimental_connect_to_cluster(resolver)
            tf.tpu.experimental.initialize_tpu_system(resolver)
        except (ValueError, tf.errors.OpError) as error:
            raise StageError(f"--tpu {tpu_name!r}: cannot connect to the TPU ({error}); check the name and zone") from error
        return DeviceReport(device_type="TPU", tpu_name=tpu_name, tpu_resolver=resolver)
    cluster = json.loads(os.environ.get("TF_CONFIG", "{}") or "{}")
    task = cluster.get("task", {})
    workers = sum(len(cluster.get("cluster", {}).get(role, [])) for role in ("chief", "worker"))
    gpus = len(tf.config.list_physical_devices("GPU"))
    return DeviceReport(
        device_type="GPU" if gpus else "CPU", gpus=gpus, workers=max(workers, 1),
        task_type=task.get("type"), task_index=int(task.get("index", 0)),
    )


def plan_strategy(report: DeviceReport, jit_setting: str) -> StrategyPlan:
    if report.device_type == "TPU":
        kind = "tpu"
    elif report.workers > 1:
        kind = "multi_worker"
    elif report.gpus > 1:
        kind = "mirrored"
    elif report.gpus == 1:
        kind = "one_device"
    else:
        kind = "default"
    auto = report.device_type != "TPU"
    if jit_setting == "auto":
        reason = (
            "auto: off on TPU (TPUStrategy compiles the whole step with XLA)"
            if not auto else f"auto: on for {report.device_type}"
        )
        jit = auto
    else:
        jit = jit_setting == "on"
        reason = f"--jit-compile {jit_setting}"
        if jit != auto:
            reason += f" (overrides auto, which would be {'on' if auto else 'off'} on {report.device_type})"
    return StrategyPlan(kind, report.device_type, jit, reason, report.workers, report.task_index)


def make_strategy(report: DeviceReport, plan: StrategyPlan) -> Any:
    import tensorflow as tf

    if plan.kind == "tpu":
        return tf.distribute.TPUStrategy(report.tpu_resolver)
    if plan.kind == "multi_worker":
        return tf.distribute.MultiWorkerMirroredStrategy()
    if plan.kind == "mirrored":
        return tf.distribute.MirroredStrategy()
    if plan.kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/gpu:0")
    return tf.distribute.get_strategy()


def resolve_strategy(tpu: str | None, jit_setting: str) -> Runtime:
    """The one resolver: detect the hardware, plan, and build the strategy.

    Must run before any other TensorFlow op when ``TF_CONFIG`` names several workers
    (MultiWorkerMirroredStrategy configures the runtime's collectives at creation).
    """
    report = detect_devices(tpu)
    plan = plan_strategy(report, jit_setting)
    strategy = make_strategy(report, plan)
    log.info("strategy: %s on %s, %d replica(s); jit_compile=%s (%s)", plan.kind, plan.device_type,
             strategy.num_replicas_in_sync, plan.jit_compile, plan.jit_reason)
    return Runtime(plan, strategy)
