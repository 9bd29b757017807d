"""Data parallel on every device of this process: torch_xla SPMD over a one-axis mesh.

One process traces one program; ``xs.mark_sharding`` splits each batch on its first axis over a
``("data",)`` mesh of all devices, the model and optimizer state stay replicated, and XLA's
SPMD partitioner inserts the gradient all-reduce. So the step code is the one-device step:
``totals`` are global sums, ``xm.reduce_gradients`` is a no-op (``xr.world_size()`` is 1 under
SPMD) and ``--batch-size`` is the global batch (each device gets ``batch / devices`` rows).

Why not ``torch_xla.launch`` (one replica per device): on the CPU its replicas are threads of
one process, and XLA:CPU's cross-replica collectives are not supported upstream (pytorch/xla
#9089, #5005): the first gradient all-reduce aborts. SPMD is also the data-parallel path
torch_xla documents for TPU, so it is the one multi-device path here.

``enable()`` must run before the process creates any XLA tensor (``xr.use_spmd()`` would
otherwise replicate what exists, with a warning); ``current()`` then describes the mesh.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

DATA_AXIS = "data"


def device_count_from_env() -> int:
    """Devices torch_xla will use, read from the environment without starting the runtime:
    CPU_NUM_DEVICES on the CPU; 0 (= every device the runtime finds) for anything else."""
    kind = os.environ.get("PJRT_DEVICE", "CPU").upper()
    if kind == "CPU":
        return max(1, int(os.environ.get("CPU_NUM_DEVICES", "1") or 1))
    return 0


def enable() -> int:
    """Turn SPMD on unless the environment names one CPU device; returns the device count.

    One CPU device (no CPU_NUM_DEVICES, or 1) stays in torch_xla's plain (non-SPMD) mode:
    nothing to shard, and its graphs are the ones the one-device accounting was measured on.
    Other runtimes (TPU) are not counted before the runtime starts, so they always run SPMD,
    over a mesh of however many devices they have (not run here: no TPU).
    """
    import torch_xla.runtime as xr

    if device_count_from_env() == 1:
        return 1
    if not xr.is_spmd():
        xr.use_spmd()
    return int(xr.global_runtime_device_count())


@dataclass(frozen=True)
class DataParallel:
    """The mesh a step runs on: ``devices`` == 1 means no mesh and no sharding."""

    devices: int
    mesh: Any = None

    def input_sharding(self) -> Any:
        """Every batch tensor is [batch, length]: rows split over the mesh, lengths whole."""
        if self.mesh is None:
            return None
        import torch_xla.distributed.spmd as xs

        return xs.ShardingSpec(self.mesh, (DATA_AXIS, None))

    def device_loader(self, loader: Any, device: Any) -> Any:
        """``MpDeviceLoader`` that uploads each batch already sharded over the mesh."""
        import torch_xla.distributed.parallel_loader as pl

        sharding = self.input_sharding()
        if sharding is None:
            return pl.MpDeviceLoader(loader, device)
        return pl.MpDeviceLoader(loader, device, input_sharding=sharding)

    def replicate(self, model: Any, optimizer: Any = None) -> None:
        """Mark every parameter and optimizer-state tensor as replicated over the mesh.

        Needed for one compile per shape: a tensor the step reads without a sharding gets one
        from the compiled step's outputs (``{replicated}``), and torch_xla hashes input
        shardings into the graph, so step 2 would trace a second graph for the shape of step 1
        (measured: CompileTime 2 over 20 steps of one shape without this, 1 with it).
        """
        import torch

        tensors = list(model.parameters()) + list(model.buffers())
        if optimizer is not None:
            tensors += [value for state in optimizer.state.values() for value in state.values()
                        if isinstance(value, torch.Tensor)]
        self.replicate_tensors(tensors)

    def replicate_tensors(self, tensors: Any) -> None:
        """Mark device tensors (an eval loop's accumulators, say) replicated, for the same reason."""
        if self.mesh is None:
            return
        import torch_xla.distributed.spmd as xs

        for tensor in tensors:
            if tensor.device.type == "xla" and tensor.dim() > 0:
                xs.mark_sharding(tensor, self.mesh, (None,) * tensor.dim())

    def global_spec(self, per_device_spec: Any) -> Any:
        """The loader's BucketSpec: each bucket's per-device batch times the devices, so every
        global batch splits evenly (the per-device shapes are those of ``per_device_spec``)."""
        if self.devices == 1:
            return per_device_spec
        from bucketing.spec import BucketSpec

        return BucketSpec(per_device_spec.boundaries, tuple(b * self.devices for b in per_device_spec.batch_sizes))


def current() -> DataParallel:
    """The mesh of this process: all devices under SPMD, else one device."""
    import torch_xla.runtime as xr

    if not xr.is_spmd():
        return DataParallel(1)
    import numpy as np
    import torch_xla.distributed.spmd as xs

    devices = int(xr.global_runtime_device_count())
    return DataParallel(devices, xs.Mesh(np.arange(devices), (devices,), (DATA_AXIS,)))
