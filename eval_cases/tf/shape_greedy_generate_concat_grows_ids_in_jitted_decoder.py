"""Source: https://github.com/huggingface/transformers/issues/11601 ("Using `TFGPT2LMHeadModel.generate` with tf.distribute.TPUStrategy and tf.function": generation fails once `generate` is wrapped in a compiled function). Here a small TF language model's greedy generation appends each new token with `tf.concat` inside a `tf.range` loop of the jit-compiled generate function, so the loop carry grows one position per step."""
import tensorflow as tf

VOCAB = 12


class TinyLM(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(VOCAB, 8)
        self.proj = tf.keras.layers.Dense(VOCAB)

    def call(self, ids):
        h = tf.reduce_mean(self.embed(ids), axis=1)
        return self.proj(h)


lm = TinyLM()
lm(tf.zeros([1, 3], tf.int32))


@tf.function(jit_compile=True)
def generate(prompt_ids, max_new_tokens=4):
    ids = prompt_ids
    for _ in tf.range(max_new_tokens):
        logits = lm(ids)
        next_id = tf.argmax(logits, axis=-1, output_type=tf.int32)
        ids = tf.concat([ids, next_id[:, None]], axis=1)  # XLA: shape
    return ids


# --- oracle ---
def ENTRY():
    return generate, (tf.constant([[1, 5, 7], [2, 2, 9]], dtype=tf.int32),)
