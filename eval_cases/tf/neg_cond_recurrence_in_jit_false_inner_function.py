"""Source: https://github.com/tensorflow/tensorflow/issues/55207 ("Is tf2xla used even when jit_compile=False": a Fibonacci-style tf.range recurrence in a tf.function(jit_compile=False); called from a jit-compiled step it is inlined and compiled by XLA)."""
import tensorflow as tf


@tf.function(jit_compile=False)
def recurrence(a, b, steps):
    c = a + b
    for _ in tf.range(steps):
        c = a + b
        a = b
        b = c
    return c


@tf.function(jit_compile=True)
def damped_recurrence(a, b):
    return recurrence(a, b, 10) * 0.01


# --- oracle ---
def ENTRY():
    return damped_recurrence, (tf.constant([0.1, 0.2, 0.3]), tf.constant([0.5, -0.4, 0.2]))
