"""A warm-up schedule written as a Python function returns a float that feeds the compiled step.

Rebuilt from keiohta/tf2rl#99 (https://github.com/keiohta/tf2rl/issues/99): the value that
retraced was a Python float computed on the host each step and passed to the tf.function.
"""
import tensorflow as tf


def warmup(step, base=0.1, warm=4):
    return base * min(1.0, (step + 1) / warm)


@tf.function(jit_compile=True)
def update(w, g, lr):
    return w - lr * g


def train(w, grads):
    for step, g in enumerate(grads):
        w = update(w, g, warmup(step))  # XLA: retrace
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    return train, (tf.constant([1.0, 2.0]), [tf.constant([0.5, 0.5])] * 2)


def ALT_ARGS():
    return [(tf.constant([1.0, 2.0]), [tf.constant([0.5, 0.5])] * 4)]
