"""Source: https://github.com/jax-ml/jax/pull/4413 ("numpy histogramdd implementation": in review, `jnp.histogramdd` could not be compiled: it used `ravel_multi_index(..., mode='raise')`, and with `mode='clip'` the test under `jit` still failed with "ConcretizationTypeError ... The problem arose with the `bool` function"). No longer reproduces on jax 0.10.2: `jnp.histogramdd` with static `bins` and `range` compiles under `jax.jit`. Here a jitted lidar preprocessing step counts points per cell of a 2-D occupancy grid with `jnp.histogramdd` and normalizes the counts. (Occupancy-grid features for a point-cloud detector.)"""
import jax
import jax.numpy as jnp

GRID_BINS = (6, 6)
GRID_RANGE = ((-3.0, 3.0), (-3.0, 3.0))


@jax.jit
def occupancy_features(points_xy, intensities):
    counts, _ = jnp.histogramdd(points_xy, bins=GRID_BINS, range=GRID_RANGE)
    weighted, _ = jnp.histogramdd(points_xy, bins=GRID_BINS, range=GRID_RANGE, weights=intensities)
    mean_intensity = weighted / jnp.maximum(counts, 1.0)
    return jnp.stack([counts / points_xy.shape[0], mean_intensity], axis=-1)


# --- oracle ---
def ENTRY():
    t = jnp.linspace(0.0, 6.0, 40)
    points = jnp.stack([2.5 * jnp.sin(t), 2.5 * jnp.cos(1.3 * t)], axis=1)
    return occupancy_features, (points, jnp.abs(jnp.sin(3.0 * t)))
