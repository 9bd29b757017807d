"""The parts of torch_parallel that need no XLA runtime: device count from the env, global specs."""

from __future__ import annotations

import pytest

from bucketing.spec import BucketSpec
from reference_trainer.torch_parallel import DataParallel, device_count_from_env


@pytest.mark.parametrize(("env", "expected"), [
    ({"PJRT_DEVICE": "CPU"}, 1),
    ({"PJRT_DEVICE": "CPU", "CPU_NUM_DEVICES": "2"}, 2),
    ({"PJRT_DEVICE": "cpu", "CPU_NUM_DEVICES": ""}, 1),
    ({"PJRT_DEVICE": "TPU", "CPU_NUM_DEVICES": "2"}, 0),  # 0: every device the runtime finds
])
def test_device_count_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                                 expected: int) -> None:
    monkeypatch.delenv("CPU_NUM_DEVICES", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert device_count_from_env() == expected


def test_the_global_spec_multiplies_each_buckets_batch_by_the_devices() -> None:
    per_device = BucketSpec((16, 24, 32), (8, 6, 4))
    spec = DataParallel(2).global_spec(per_device)
    assert spec.boundaries == per_device.boundaries and spec.batch_sizes == (16, 12, 8)
    assert [batch % 2 for batch, _ in spec.shapes()] == [0, 0, 0]
    assert DataParallel(1).global_spec(per_device) is per_device
    # no mesh, nothing sharded
    assert DataParallel(1).input_sharding() is None
