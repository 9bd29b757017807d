"""Source: https://github.com/jax-ml/jax/issues/4309 (the answer there: to read a window at a traced position, use `lax.dynamic_slice` with a static window length). Here the EEG feature extractor keeps the window length a module constant and reads each shifted window with `lax.dynamic_slice_in_dim` at the traced start."""
import jax
import jax.numpy as jnp

OFFSETS = (-1, 0, 1)
WINDOW = 12


@jax.jit
def neighbour_features(signal, channel_map, start):
    feats = []
    for row in range(channel_map.shape[0]):
        stacked = []
        for dt in OFFSETS:
            stacked.append(jax.lax.dynamic_slice_in_dim(signal[channel_map[row]], start + dt, WINDOW))
        feats.append(jnp.stack(stacked).mean(axis=-1))
    return jnp.stack(feats)


# --- oracle ---
def ENTRY():
    signal = jnp.sin(jnp.arange(4 * 32, dtype=jnp.float32).reshape(4, 32) / 5.0)
    channel_map = jnp.array([0, 2, 3])
    return neighbour_features, (signal, channel_map, jnp.array(8))
