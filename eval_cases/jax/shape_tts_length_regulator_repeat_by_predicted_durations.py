"""Source: https://github.com/data-apis/array-api/pull/690 (in the discussion of `repeat` for the array API standard: `jnp.repeat(x, x[2])` works eagerly but raises ConcretizationTypeError under `jax.jit`, because the number of repeats, and so the output length, depends on the data; JAX's documented way to jit `repeat` is a static `total_repeat_length`). Here a text-to-speech length regulator repeats each phoneme encoding by its predicted duration inside the jitted acoustic model."""
import jax
import jax.numpy as jnp


@jax.jit
def length_regulator(phoneme_enc, log_durations):
    durations = jnp.maximum(jnp.round(jnp.exp(log_durations)), 1).astype(jnp.int32)
    frames = jnp.repeat(phoneme_enc, durations, axis=0)  # XLA: shape
    return frames.mean(axis=0)


# --- oracle ---
def ENTRY():
    phoneme_enc = jnp.arange(5 * 4, dtype=jnp.float32).reshape(5, 4) / 10.0
    log_durations = jnp.log(jnp.array([1.0, 2.0, 3.0, 1.0, 2.0]))
    return length_regulator, (phoneme_enc, log_durations)
