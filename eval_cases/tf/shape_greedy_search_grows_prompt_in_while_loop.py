"""Source: https://github.com/keras-team/keras-hub/pull/271 ("Make Decoding Functions Graph-compatible (with XLA Support!)": the greedy/top-k search loop appended each new token to the prompt with `tf.concat` inside `tf.while_loop`, with `shape_invariants=[None, None]`; a loop variable that grows per iteration cannot be compiled by XLA, so the decoding functions were rewritten over a fixed-length buffer). Here a greedy search of that first form, jit-compiled."""
import tensorflow as tf


class NextTokenModel(tf.keras.Model):
    def __init__(self, vocab=12, dim=6):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(vocab, dim)
        self.out = tf.keras.layers.Dense(vocab)

    def call(self, tokens):
        return self.out(tf.reduce_mean(self.embed(tokens), axis=1))


def greedy_search(model, prompt, max_length=8):
    def cond(tokens):
        return tf.shape(tokens)[1] < max_length

    def body(tokens):
        next_token = tf.argmax(model(tokens), axis=-1, output_type=tf.int32)
        return [tf.concat([tokens, next_token[:, None]], axis=1)]  # XLA: shape

    return tf.while_loop(cond, body, loop_vars=[prompt],
                         shape_invariants=[tf.TensorShape([None, None])])[0]


# --- oracle ---
def ENTRY():
    model = NextTokenModel()
    model(tf.zeros([1, 2], tf.int32))
    return (lambda prompt: greedy_search(model, prompt)), (tf.constant([[1, 2, 3], [4, 5, 6]]),)
