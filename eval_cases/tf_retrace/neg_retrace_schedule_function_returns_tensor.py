"""The warm-up schedule of the tf2rl report computed as a tensor: traced once.

Counterpart of keiohta/tf2rl#99 (https://github.com/keiohta/tf2rl/issues/99).
"""
import tensorflow as tf


def warmup(step, base=0.1, warm=4):
    step = tf.cast(step, tf.float32)
    return base * tf.minimum(1.0, (step + 1.0) / warm)


@tf.function(jit_compile=True)
def update(w, g, lr):
    return w - lr * g


def train(w, grads):
    for step, g in enumerate(grads):
        w = update(w, g, warmup(step))
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    return train, (tf.constant([1.0, 2.0]), [tf.constant([0.5, 0.5])] * 2)


def ALT_ARGS():
    return [(tf.constant([1.0, 2.0]), [tf.constant([0.5, 0.5])] * 4)]
