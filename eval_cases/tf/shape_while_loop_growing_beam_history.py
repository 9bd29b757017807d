"""Source: https://github.com/tensorflow/tensorflow/issues/45538 ("tf.while_loop allow to vary shapes by default": a loop variable that grows every iteration needs a None shape invariant; under jit_compile such a growing loop state has no static shape)."""
import tensorflow as tf


class GreedyDecoder(tf.keras.layers.Layer):
    def __init__(self, vocab=7, **kwargs):
        super().__init__(**kwargs)
        self.embed = tf.keras.layers.Embedding(vocab, 4)
        self.proj = tf.keras.layers.Dense(vocab)

    def call(self, start_tokens, steps):
        def body(i, tokens):
            logits = self.proj(tf.reduce_mean(self.embed(tokens), axis=1))
            next_token = tf.argmax(logits, axis=-1, output_type=tf.int32)[:, None]
            return i + 1, tf.concat([tokens, next_token], axis=1)

        _, tokens = tf.while_loop(lambda i, t: i < steps, body, (0, start_tokens),
                                  shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, None])))  # XLA: shape
        return tokens


decoder = GreedyDecoder()


def decode(start_tokens, steps):
    return decoder(start_tokens, steps)


# --- oracle ---
def ENTRY():
    return decode, (tf.constant([[1], [2]]), tf.constant(3))
