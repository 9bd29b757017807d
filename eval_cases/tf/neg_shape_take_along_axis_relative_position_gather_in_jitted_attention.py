"""Source: https://github.com/huggingface/transformers/issues/18476 ("Fine tuning TensorFlow DeBERTa fails on TPU": `tf.experimental.numpy.take_along_axis` in the disentangled attention produced a `BroadcastArgs` that "must be a compile-time constant"). Does not reproduce on TF 2.21 CPU for fixed-shape batches: with static shapes the broadcast folds and XLA compiles. Here a DeBERTa-style content-to-position attention bias gathered with `take_along_axis` inside a jit-compiled attention block."""
import tensorflow as tf

tnp = tf.experimental.numpy


class DisentangledBias(tf.keras.layers.Layer):
    def __init__(self, span):
        super().__init__()
        self.span = span
        self.query = tf.keras.layers.Dense(8)
        self.pos_key = tf.keras.layers.Dense(8)
        self.query.build((None, None, 8))
        self.pos_key.build((None, 8))

    def call(self, hidden, rel_embeddings):
        q = self.query(hidden)
        pk = self.pos_key(rel_embeddings)
        c2p = tf.einsum("bqd,rd->bqr", q, pk)
        seq = tf.shape(hidden)[1]
        rel = tf.range(seq)[:, None] - tf.range(seq)[None, :]
        index = tf.clip_by_value(rel + self.span, 0, 2 * self.span - 1)
        index = tf.broadcast_to(index[None], [tf.shape(hidden)[0], seq, seq])
        return tnp.take_along_axis(c2p, index, axis=-1)


bias = DisentangledBias(span=4)


@tf.function(jit_compile=True)
def attention_bias(hidden, rel_embeddings):
    return bias(hidden, rel_embeddings)


# --- oracle ---
def ENTRY():
    hidden = tf.reshape(tf.range(2 * 5 * 8, dtype=tf.float32), [2, 5, 8]) / 80.0
    rel = tf.reshape(tf.range(8 * 8, dtype=tf.float32), [8, 8]) / 64.0
    return attention_bias, (hidden, rel)
