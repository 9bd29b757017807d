"""Source: https://github.com/huggingface/transformers/pull/17458 (TF XLA beam search: "XLA expects variable creation at trace time", so the past cache is created at its full length before the loop and each step writes one position with a dynamic update; shapes stay static)."""
import tensorflow as tf

MAX_STEPS = 4


class TinyDecoder(tf.keras.layers.Layer):
    def __init__(self, vocab=6, **kwargs):
        super().__init__(**kwargs)
        self.embed = tf.keras.layers.Embedding(vocab, 4)
        self.kv = tf.keras.layers.Dense(4)
        self.proj = tf.keras.layers.Dense(vocab)

    def call(self, first_token):
        batch = first_token.shape[0]
        cache = tf.zeros([batch, MAX_STEPS, 4])
        token = first_token
        for step in tf.range(MAX_STEPS):
            new_kv = self.kv(self.embed(token))[:, 0, :]
            cache = tf.tensor_scatter_nd_update(
                tf.transpose(cache, [1, 0, 2]), [[step]], new_kv[None])
            cache = tf.transpose(cache, [1, 0, 2])
            filled = tf.cast(tf.range(MAX_STEPS) <= step, tf.float32)[None, :, None]
            summary = tf.reduce_sum(cache * filled, axis=1, keepdims=True) / tf.cast(step + 1, tf.float32)
            token = tf.argmax(self.proj(summary), axis=-1, output_type=tf.int32)
        return cache


decoder = TinyDecoder()


@tf.function(jit_compile=True)
def generate(first_token):
    return tf.reduce_sum(decoder(first_token), axis=[1, 2])


# --- oracle ---
def ENTRY():
    return generate, (tf.constant([[1], [2]]),)
