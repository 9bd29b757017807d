"""Source: https://github.com/tensorflow/tensorflow/issues/25116 ("XLA JIT compiler fails on MLPerf Transformer reference model": with XLA JIT on, the decoder's feed-forward network fails at `filter_layer/Tensordot/Shape`, the shape computation `tf.tensordot` emits for inputs of unknown length). Near miss on TF 2.21: a translation decoder's jit-compiled step applies its feed-forward network with `tf.tensordot` over inputs whose length is not static in the graph; XLA knows the shapes when it compiles, so it compiles and matches eager."""
import tensorflow as tf

HIDDEN = 6
FILTER = 12


class FeedForward:
    def __init__(self):
        self.filter_kernel = tf.Variable(tf.reshape(tf.range(HIDDEN * FILTER, dtype=tf.float32) / 72.0, [HIDDEN, FILTER]))
        self.output_kernel = tf.Variable(tf.reshape(tf.range(FILTER * HIDDEN, dtype=tf.float32) / 72.0, [FILTER, HIDDEN]))

    def __call__(self, x):
        hidden = tf.nn.relu(tf.tensordot(x, self.filter_kernel, axes=[[2], [0]]))
        return tf.tensordot(hidden, self.output_kernel, axes=[[2], [0]])


class DecoderLayer:
    def __init__(self):
        self.ffn = FeedForward()
        self.norm = tf.keras.layers.LayerNormalization()

    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, None, HIDDEN], tf.float32)])
    def __call__(self, x):
        return self.norm(x + self.ffn(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = DecoderLayer()
    _KEEP.append(layer)
    return layer.__call__, (tf.reshape(tf.range(2 * 5 * HIDDEN, dtype=tf.float32) / 60.0, [2, 5, HIDDEN]),)

