"""Source: https://github.com/tensorflow/tpu/issues/732 ("Known compatibility issues with tf.while_loop and TPU?": an autoregressive sampler written with `tf.while_loop` runs eagerly on the host but fails under XLA with "Condition argument must be a boolean for XLA compilation"; the loop condition was not a scalar boolean). Here a greedy decoder's stop condition keeps a length-1 axis from `reduce_all(..., keepdims=True)`, so the compiled loop gets a `bool[1]` predicate. Does not reproduce on TF 2.21 CPU: the `bool[1]` loop predicate compiles and matches eager, so this is a negative."""
import tensorflow as tf

VOCAB, EOS, MAX_LEN = 7, 0, 6


class TinyLM(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(VOCAB, 5)
        self.out = tf.keras.layers.Dense(VOCAB)

    def call(self, token):
        return self.out(self.embed(token))


lm = TinyLM()
lm(tf.zeros([2], tf.int32))


@tf.function(jit_compile=True)
def greedy_decode(first_token):
    def keep_going(step, token, done, total):
        not_all_done = tf.logical_not(tf.reduce_all(done, axis=0, keepdims=True))
        return tf.logical_and(step < MAX_LEN, not_all_done)

    def advance(step, token, done, total):
        logits = lm(token)
        nxt = tf.argmax(logits, axis=-1, output_type=tf.int32)
        total = total + tf.reduce_max(logits, axis=-1) * tf.cast(tf.logical_not(done), tf.float32)
        return step + 1, nxt, tf.logical_or(done, tf.equal(nxt, EOS)), total

    state = (tf.constant(0), first_token, tf.zeros_like(first_token, tf.bool), tf.zeros([2]))
    _, last, _, total = tf.while_loop(keep_going, advance, state)
    return last, total


# --- oracle ---
def ENTRY():
    return greedy_decode, (tf.constant([3, 5], tf.int32),)
