"""Source: https://github.com/tensorflow/tensorflow/pull/40901 (the fix that works on TF 2.21: pass the decayed learning rate as a tensor, so one trace serves every value; row tensor_scalar_value_changes of xlacheck/data/tf_retrace.json)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def apply_update(w, g, lr):
    return w - lr * g


def train(w, grads, base_lr):
    for i, g in enumerate(grads):
        w = apply_update(w, g, tf.constant(base_lr / (i + 1), tf.float32))
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    return train, (tf.ones([3]), [tf.ones([3]), tf.ones([3])], 0.1)


def ALT_ARGS():
    return [(tf.ones([3]), [tf.ones([3]), tf.ones([3])], 0.3)]
