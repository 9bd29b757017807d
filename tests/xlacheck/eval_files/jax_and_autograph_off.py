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
