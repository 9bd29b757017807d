"""Source: https://github.com/tensorflow/tensorflow/pull/40901 (type annotations were to let tf.function convert annotated Python arguments to tensors; measured on TF 2.21, row python_float_follow_type_hints_tensor of xlacheck/data/tf_retrace.json: a Python float annotated `tf.Tensor` under experimental_follow_type_hints=True still traces once per value)."""
import tensorflow as tf


@tf.function(jit_compile=True, experimental_follow_type_hints=True)
def apply_update(w, g, lr: tf.Tensor):
    return w - lr * g


def train(w, grads, base_lr):
    for i, g in enumerate(grads):
        w = apply_update(w, g, base_lr / (i + 1))  # XLA: retrace
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    return train, (tf.ones([3]), [tf.ones([3]), tf.ones([3])], 0.1)


def ALT_ARGS():
    return [(tf.ones([3]), [tf.ones([3]), tf.ones([3])], 0.3)]
