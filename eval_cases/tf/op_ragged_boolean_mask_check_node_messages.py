"""Source: https://github.com/NVlabs/gnn-decoder/issues/3 ("No registered 'RaggedRange' OpKernel for XLA_CPU_JIT" inside an LDPC belief-propagation decoder: ragged helpers such as RaggedWhere in the message-passing loop)."""
import tensorflow as tf


class CheckNodeUpdate(tf.keras.layers.Layer):
    def __init__(self, parity_check, **kwargs):
        super().__init__(**kwargs)
        self.pcm = tf.cast(tf.constant(parity_check), tf.bool)

    def call(self, llr):
        edges = tf.ragged.boolean_mask(tf.broadcast_to(llr[None, :], tf.shape(self.pcm)), self.pcm)  # XLA: op
        signs = tf.reduce_prod(tf.sign(edges), axis=1)
        magnitude = tf.reduce_min(tf.abs(edges), axis=1)
        return signs * magnitude


class Decoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.check = CheckNodeUpdate([[1, 1, 0, 1], [0, 1, 1, 1]])

    @tf.function(jit_compile=True)
    def call(self, llr):
        return self.check(llr)


decoder = Decoder()


def decode(llr):
    return decoder(llr)


# --- oracle ---
def ENTRY():
    return decode, (tf.constant([1.5, -0.5, 2.0, -1.0]),)
