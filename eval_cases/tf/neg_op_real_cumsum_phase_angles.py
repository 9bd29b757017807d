"""Source: https://github.com/tensorflow/tensorflow/issues/117546 (near miss: cumsum over real angles and one complex exp at the end computes the same accumulated phase, and the real-valued Cumsum compiles under jit_compile)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def accumulated_phase(freqs, dt):
    angles = tf.math.cumsum(freqs * dt, axis=-1)
    return tf.cos(angles), tf.sin(angles)


# --- oracle ---
def ENTRY():
    return accumulated_phase, (tf.constant([[0.1, 0.2, 0.3, 0.4], [1.0, 0.5, 0.25, 0.125]]), tf.constant(0.5))
