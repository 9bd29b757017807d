"""Source: https://github.com/data-apis/array-api/pull/690 (the documented way to use `jnp.repeat` with data-dependent repeats under `jax.jit`: pass a static `total_repeat_length`, so the output has a fixed length). Here the text-to-speech length regulator repeats the phoneme encodings into a fixed budget of frames and averages only the frames that the durations fill."""
import jax
import jax.numpy as jnp

MAX_FRAMES = 16


@jax.jit
def length_regulator(phoneme_enc, log_durations):
    durations = jnp.maximum(jnp.round(jnp.exp(log_durations)), 1).astype(jnp.int32)
    frames = jnp.repeat(phoneme_enc, durations, axis=0, total_repeat_length=MAX_FRAMES)
    valid = (jnp.arange(MAX_FRAMES) < durations.sum())[:, None]
    return jnp.sum(jnp.where(valid, frames, 0.0), axis=0) / durations.sum()


# --- oracle ---
def ENTRY():
    phoneme_enc = jnp.arange(5 * 4, dtype=jnp.float32).reshape(5, 4) / 10.0
    log_durations = jnp.log(jnp.array([1.0, 2.0, 3.0, 1.0, 2.0]))
    return length_regulator, (phoneme_enc, log_durations)
