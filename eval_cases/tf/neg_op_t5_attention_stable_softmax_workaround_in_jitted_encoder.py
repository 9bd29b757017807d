"""Source: https://github.com/huggingface/transformers/issues/16838 ("TF: XLA model output differs when certain outputs are passed": the -1e9 additive attention mask makes the XLA softmax on CPU differ from eager; the fix adopted in transformers is a `stable_softmax` wrapper that adds a tiny constant to the logits before `tf.nn.softmax`). Here the T5-style masked self-attention with that workaround, in a jit-compiled encoder call."""
import tensorflow as tf

LARGE_NEGATIVE = -1e9


def stable_softmax(logits, axis=-1):
    return tf.nn.softmax(logits + 1e-9, axis=axis)


class MaskedSelfAttention(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.q = tf.keras.layers.Dense(dim, use_bias=False)
        self.k = tf.keras.layers.Dense(dim, use_bias=False)
        self.v = tf.keras.layers.Dense(dim, use_bias=False)

    def call(self, hidden, attention_mask):
        scores = tf.matmul(self.q(hidden), self.k(hidden), transpose_b=True)
        penalty = (1.0 - tf.cast(attention_mask[:, None, :], scores.dtype)) * LARGE_NEGATIVE
        weights = stable_softmax(scores + penalty, axis=-1)
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
