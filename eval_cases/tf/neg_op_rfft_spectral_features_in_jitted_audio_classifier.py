"""Source: https://github.com/tensorflow/tensorflow/issues/12314 ("Feature request: Add FFT to XLA bridge": the spectral ops had no XLA kernels, so models computing FFT features could not be compiled). This no longer reproduces on TF 2.21 CPU: `tf.signal.rfft` and `tf.signal.stft` compile. An audio classifier computing log-magnitude STFT features inside its jit-compiled forward pass."""
import tensorflow as tf


class SpectralClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(4)

    @tf.function(jit_compile=True)
    def call(self, waveform):
        spec = tf.abs(tf.signal.stft(waveform, frame_length=16, frame_step=8, fft_length=16))
        features = tf.reduce_mean(tf.math.log(spec + 1e-6), axis=1)
        return self.dense(features)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = SpectralClassifier()
    _KEEP.append(m)
    t = tf.range(2 * 128, dtype=tf.float32)
    waveform = tf.reshape(tf.sin(t * 0.3), [2, 128])
    return m, (waveform,)
