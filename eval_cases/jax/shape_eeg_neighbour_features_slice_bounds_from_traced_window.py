"""Source: https://github.com/jax-ml/jax/issues/4309 ("Help with array slice indices": a feature extractor stacks `x[resMap[j, i + 1], st + dt:en + dt]` for a few offsets `dt` around a window `[st, en)`; under `jit`/`vmap` the window bounds are traced, and NumPy-style slicing needs static start/stop, so it raises IndexError; the maintainers point to `lax.dynamic_slice` with a fixed window length). Here an EEG feature extractor stacks a channel's window and its time-shifted neighbours, with the window bounds passed to the jitted function as arrays."""
import jax
import jax.numpy as jnp

OFFSETS = (-1, 0, 1)


@jax.jit
def neighbour_features(signal, channel_map, start, stop):
    feats = []
    for row in range(channel_map.shape[0]):
        stacked = []
        for dt in OFFSETS:
            stacked.append(signal[channel_map[row], start + dt:stop + dt])  # XLA: shape
        feats.append(jnp.stack(stacked).mean(axis=-1))
    return jnp.stack(feats)


# --- oracle ---
def ENTRY():
    signal = jnp.sin(jnp.arange(4 * 32, dtype=jnp.float32).reshape(4, 32) / 5.0)
    channel_map = jnp.array([0, 2, 3])
    return neighbour_features, (signal, channel_map, jnp.array(8), jnp.array(20))
