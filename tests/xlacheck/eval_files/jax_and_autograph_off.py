"""JAX has no AutoGraph, and neither do lambdas or do_not_convert functions in TF."""
import jax
import jax.numpy as jnp
import tensorflow as tf


@jax.jit
def jax_clip(x, limit):
    if jnp.linalg.norm(x) > limit:  # error: XLA101
        x = x / jnp.linalg.norm(x) * limit
    return x


@jax.jit
def jax_static_branch(x):
    if x.shape[0] > 2:
        return x[:2]
    return x


relu_or_neg = tf.keras.layers.Lambda(lambda t: t if tf.reduce_mean(t) > 0 else -t)  # error: XLA101


class Frozen(tf.keras.layers.Layer):
    @tf.autograph.experimental.do_not_convert
    def call(self, x):
        ratio = float(tf.reduce_mean(x))  # error: XLA302
        return x * ratio


@tf.function(jit_compile=True)
def cast_then_mix(per_token_loss, mask):
    n = int(tf.reduce_sum(mask))
    return tf.reduce_sum(per_token_loss) / n  # error: XLA303


@jax.jit
def jax_masked_mean(x, labels):
    valid = x[labels >= 0]  # error: XLA207
    safe = jnp.where(labels >= 0, x, 0.0)
    return jnp.mean(valid), jnp.sum(safe) / jnp.maximum(jnp.sum(labels >= 0), 1)


@jax.jit
def jax_durations(emb, durations):
    fixed = jnp.repeat(emb, durations, axis=0, total_repeat_length=16)
    free = jnp.repeat(emb, durations, axis=0)  # error: XLA207
    return fixed, free
