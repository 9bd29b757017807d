"""Source: https://github.com/tensorflow/tensorflow/issues/26104 ("[TF2.0] Variable with dynamic shape": `assign` refuses a value of another shape; the answer is a variable created with `shape=tf.TensorShape(None)` whose shape may change with each assignment). Here a streaming encoder that keeps the frames seen so far in such a variable and appends each chunk inside a jit-compiled step, so the variable grows every call."""
import tensorflow as tf


class StreamingEncoder(tf.Module):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(4)
        self.proj.build([None, 3])
        self.history = tf.Variable(tf.zeros([0, 4]), shape=tf.TensorShape(None), trainable=False)

    @tf.function(jit_compile=True)
    def step(self, chunk):
        frames = self.proj(chunk)
        self.history.assign(tf.concat([self.history, frames], axis=0))  # XLA: shape
        return tf.reduce_mean(self.history, axis=0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    enc = StreamingEncoder()
    _KEEP.append(enc)
    return enc.step, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0,)
