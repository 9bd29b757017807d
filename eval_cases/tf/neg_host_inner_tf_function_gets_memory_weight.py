"""Source: https://github.com/tensorflow/tensorflow/issues/117881 (NotImplementedError "numpy() is only available when eager execution is enabled" reported on TF 2.20 when a @tf.function method of a layer is called with the layer's self.memory weight inside a jit_compile function; on TF 2.21 XLA:CPU this compiles)."""
import tensorflow as tf


class MemoryNetwork(tf.keras.layers.Layer):
    def __init__(self, memory_size=6, memory_dim=4, **kwargs):
        super().__init__(**kwargs)
        self.memory_size = memory_size
        self.memory_dim = memory_dim

    def build(self, input_shape):
        self.memory = self.add_weight(name="memory", shape=(self.memory_size, self.memory_dim),
                                      initializer="glorot_uniform")
        self.query = tf.keras.layers.Dense(self.memory_dim)

    @tf.function
    def attention(self, query, memory):
        weights = tf.nn.softmax(tf.matmul(query, memory, transpose_b=True), axis=-1)
        return tf.matmul(weights, memory)

    def call(self, x):
        return self.attention(self.query(x), self.memory)


layer = MemoryNetwork()


@tf.function(jit_compile=True)
def read_memory(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    return read_memory, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0,)
