"""Source: https://github.com/tensorflow/tensorflow/issues/122051 ("tf2xla: `UnimplementedError: Complex types not supported` after `tf.bitcast` to complex under `jit_compile=True`": eager succeeds). Here a radio demodulator that reinterprets interleaved float32 I/Q samples as complex64 with `tf.bitcast` and takes the envelope, in a jit-compiled forward pass."""
import tensorflow as tf


class EnvelopeDetector(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.classifier = tf.keras.layers.Dense(2)

    @tf.function(jit_compile=True)
    def call(self, iq):
        samples = tf.bitcast(iq, tf.complex64)  # XLA: op
        envelope = tf.abs(samples)
        return self.classifier(envelope)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = EnvelopeDetector()
    _KEEP.append(m)
    t = tf.range(2 * 16 * 2, dtype=tf.float32)
    iq = tf.reshape(tf.cos(t * 0.2), [2, 16, 2])
    return m, (iq,)
