"""Layers and losses whose control flow depends on tensors: what AutoGraph stages, and what it cannot."""
import tensorflow as tf

SPECIAL_IDS = (0, 1, 2)


class GatedResidual(tf.keras.layers.Layer):
    """`if` on a tensor inside Keras call(): AutoGraph makes it a tf.cond, which compiles."""

    def __init__(self, units=8, **kwargs):
        super().__init__(**kwargs)
        self.proj = tf.keras.layers.Dense(units)

    def call(self, x, training=False):
        gate = tf.reduce_mean(tf.nn.sigmoid(self.proj(x)))
        if gate > 0.5:
            x = x + self.proj(x)
        elif gate > 0.25:
            x = x - self.proj(x)
        y = x * 2.0 if tf.reduce_max(x) > 10.0 else x
        if x.shape[-1] > 4 and training:
            y = tf.nn.dropout(y, rate=0.1)
        return y


@tf.function(jit_compile=True, autograph=False)
def clipped_update(w, grad, max_norm):
    norm = tf.norm(grad)
    if norm > max_norm:  # error: XLA101
        grad = grad * (max_norm / norm)
    return w - grad


@tf.function(jit_compile=True)
def warmup_scale(loss, step, warmup=1000.0):
    scale = min(step / warmup, 1.0)  # preview: XLA103
    assert tf.reduce_all(tf.math.is_finite(loss)), "non-finite loss"  # error: XLA102
    return loss * scale


def token_weights(token_ids):
    return tf.stack([0.0 if t in SPECIAL_IDS else 1.0 for t in tf.unstack(token_ids)])  # error: XLA104


def clip_by_norm_helper(grad, max_norm):
    norm = tf.norm(grad)
    if norm > max_norm:  # preview: XLA107
        factor = max_norm / norm
    return grad * factor


def aux_loss(logits, active):
    if tf.reduce_any(active):  # error: XLA108
        return tf.reduce_mean(tf.square(logits))


@tf.function(jit_compile=True)
def checked_step(x, labels):
    total = tf.constant(0.0)
    for _ in range(4):
        total += tf.reduce_sum(x)
        if total > 100.0:
            break  # error: XLA110
    if tf.reduce_any(labels < 0):
        raise ValueError("negative label")  # error: XLA109
    return total + clip_by_norm_helper(x, 1.0) + aux_loss(x, labels > 0) + token_weights(labels)


@tf.function(jit_compile=True)
def staged_early_stop(x):
    total = tf.constant(0.0)
    for _ in tf.range(4):
        total += tf.reduce_sum(x)
        if total > 100.0:
            break
    steps = tf.TensorArray(tf.float32, size=4)
    hidden = []
    for i in tf.range(4):
        steps = steps.write(i, total * tf.cast(i, tf.float32))
        hidden.append(total)  # error: XLA111
    return steps.stack()
