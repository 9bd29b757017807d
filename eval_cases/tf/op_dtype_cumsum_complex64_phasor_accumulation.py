"""Source: https://github.com/tensorflow/tensorflow/issues/117546 (cumsum/cumprod fail with jit_compile=True on complex64/complex128 inputs; the same ops work eagerly). A running sum of complex phasors, the discrete integral of an instantaneous-frequency signal."""
import tensorflow as tf


@tf.function(jit_compile=True)
def accumulated_phase(amplitude, phase):
    real = amplitude * tf.math.cos(phase)
    imag = amplitude * tf.math.sin(phase)
    phasors = tf.cast(real, tf.complex64) + 1j * tf.cast(imag, tf.complex64)
    running = tf.math.cumsum(phasors, axis=-1)  # XLA: op
    return tf.math.abs(running), tf.math.angle(running)


# --- oracle ---
def ENTRY():
    t = tf.reshape(tf.linspace(0.0, 3.0, 12), [2, 6])
    return accumulated_phase, (tf.ones_like(t), t)
