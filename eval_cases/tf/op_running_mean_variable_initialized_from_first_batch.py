"""Source: https://github.com/TensorSpeech/TensorFlowASR/issues/292 ("We failed to lift variable creations out of this tf.function, so this tf.function cannot be run on XLA. A possible workaround is to move variable creation outside of the XLA compiled function"). Here a feature-normalization layer creates its running-mean variable on the first call from the statistics of the first batch, inside the compiled step."""
import tensorflow as tf


class RunningNormalization(tf.keras.layers.Layer):
    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.running_mean = None

    def call(self, x):
        batch_mean = tf.reduce_mean(x, axis=0)
        if self.running_mean is None:
            self.running_mean = tf.Variable(batch_mean, trainable=False)  # XLA: op
        self.running_mean.assign(self.momentum * self.running_mean + (1.0 - self.momentum) * batch_mean)
        return x - self.running_mean


class AcousticEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.norm = RunningNormalization()
        self.proj = tf.keras.layers.Dense(4)

    def call(self, x):
        return self.proj(self.norm(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    m = AcousticEncoder()
    _KEEP.append(m)
    return m, (tf.reshape(tf.range(15, dtype=tf.float32), [3, 5]) / 15.0,)
