"""Source: https://github.com/tensorflow/tensorflow/issues/117546 (tf.math.cumsum / tf.math.cumprod fail under jit_compile=True on complex64/complex128, "No registered 'Cumsum' OpKernel": a signal model accumulates unit phase rotations with a complex cumprod)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def accumulated_phase(freqs, dt):
    rotations = tf.exp(tf.complex(tf.zeros_like(freqs), freqs * dt))
    phase = tf.math.cumprod(rotations, axis=-1)  # XLA: op
    return tf.math.real(phase), tf.math.imag(phase)


# --- oracle ---
def ENTRY():
    return accumulated_phase, (tf.constant([[0.1, 0.2, 0.3, 0.4], [1.0, 0.5, 0.25, 0.125]]), tf.constant(0.5))
