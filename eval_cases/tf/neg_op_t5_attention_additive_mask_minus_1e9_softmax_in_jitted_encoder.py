"""Source: https://github.com/tensorflow/tensorflow/issues/55682 ("XLA: softmax with numerically masked inputs does not match its non-XLA counterpart on CPU": T5-style attention adds a -1e9 penalty at padded positions before the softmax, and the jit-compiled result on CPU is far from the eager one). Here a T5-style self-attention layer over a padded batch, with the binary attention mask turned into a -1e9 additive penalty, in a jit-compiled encoder call. Written as the failing case; does not reproduce on TF 2.21 CPU (the compiled masked softmax matches eager execution), so it is a negative."""
import tensorflow as tf

LARGE_NEGATIVE = -1e9


class MaskedSelfAttention(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.q = tf.keras.layers.Dense(dim, use_bias=False)
        self.k = tf.keras.layers.Dense(dim, use_bias=False)
        self.v = tf.keras.layers.Dense(dim, use_bias=False)

    def call(self, hidden, attention_mask):
        scores = tf.matmul(self.q(hidden), self.k(hidden), transpose_b=True)
        penalty = (1.0 - tf.cast(attention_mask[:, None, :], scores.dtype)) * LARGE_NEGATIVE
        weights = tf.nn.softmax(scores + penalty, axis=-1)
        return tf.matmul(weights, self.v(hidden))


attention = MaskedSelfAttention(8)


@tf.function(jit_compile=True)
def encode(hidden, attention_mask):
    return attention(hidden, attention_mask)


# --- oracle ---
WRAP = False


def ENTRY():
    hidden = tf.random.stateless_normal([2, 10, 8], seed=[55, 682])
    attention_mask = tf.constant([[1] * 9 + [0], [1] * 6 + [0] * 4])
    return encode, (hidden, attention_mask)
