"""Source: https://github.com/tensorflow/tensorflow/issues/12115 ("XLA feature fix: INVALID ARGUMENTS: Unsupported type in DataTypeToPrimitiveType complex64": XLA had no complex types, so spectral (FFT-based) code could not be compiled). This no longer reproduces on TF 2.21 CPU: complex64 FFTs and elementwise complex products compile. A denoiser that filters a signal in the frequency domain with a learned complex gain, jit-compiled."""
import tensorflow as tf

N = 32


class FrequencyDenoiser(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.gain_re = tf.Variable(tf.ones([N // 2 + 1]))
        self.gain_im = tf.Variable(tf.zeros([N // 2 + 1]))

    @tf.function(jit_compile=True)
    def call(self, signal):
        spectrum = tf.signal.rfft(signal)
        filtered = spectrum * tf.complex(self.gain_re, self.gain_im)
        return tf.signal.irfft(filtered)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = FrequencyDenoiser()
    _KEEP.append(m)
    t = tf.range(2 * N, dtype=tf.float32)
    signal = tf.reshape(tf.sin(t * 0.4) + 0.1 * tf.cos(t * 2.1), [2, N])
    return m, (signal,)
