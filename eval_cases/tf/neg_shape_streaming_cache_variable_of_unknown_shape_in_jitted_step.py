"""Source: https://github.com/tensorflow/tensorflow/issues/26104 (the fixed-size alternative to a variable whose shape changes: a ring buffer of a fixed number of frames and a write position, updated with `tensor_scatter_nd_update`, so the variable keeps one shape). Streaming encoder whose jit-compiled step writes each chunk into the buffer."""
import tensorflow as tf

CAPACITY = 8


class StreamingEncoder(tf.Module):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(4)
        self.proj.build([None, 3])
        self.history = tf.Variable(tf.zeros([CAPACITY, 4]), trainable=False)
        self.count = tf.Variable(0, trainable=False)

    @tf.function(jit_compile=True)
    def step(self, chunk):
        frames = self.proj(chunk)
        rows = (self.count + tf.range(tf.shape(frames)[0])) % CAPACITY
        self.history.assign(tf.tensor_scatter_nd_update(self.history, rows[:, None], frames))
        self.count.assign_add(tf.shape(frames)[0])
        filled = tf.minimum(self.count, CAPACITY)
        valid = tf.cast(tf.range(CAPACITY) < filled, tf.float32)[:, None]
        return tf.reduce_sum(self.history * valid, axis=0) / tf.cast(filled, tf.float32)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    enc = StreamingEncoder()
    _KEEP.append(enc)
    return enc.step, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0,)
