"""Source: https://github.com/keras-team/keras-hub/pull/271 (the XLA-compatible form of the decoding functions: the prompt is padded to `max_length` up front and each step writes the next token at the current index of that fixed-length buffer, so every loop variable keeps its shape). Greedy search over a fixed buffer, jit-compiled."""
import tensorflow as tf


class NextTokenModel(tf.keras.Model):
    def __init__(self, vocab=12, dim=6):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(vocab, dim)
        self.out = tf.keras.layers.Dense(vocab)

    def call(self, tokens, length):
        mask = tf.cast(tf.range(tf.shape(tokens)[1]) < length, tf.float32)[None, :, None]
        h = tf.reduce_sum(self.embed(tokens) * mask, axis=1) / tf.cast(length, tf.float32)
        return self.out(h)


def greedy_search(model, prompt, max_length=8):
    prompt_len = prompt.shape[1]
    buffer = tf.pad(prompt, [[0, 0], [0, max_length - prompt_len]])
    positions = tf.range(max_length)[None, :]

    def body(i, tokens):
        next_token = tf.argmax(model(tokens, i), axis=-1, output_type=tf.int32)
        tokens = tf.where(positions == i, next_token[:, None], tokens)
        return [i + 1, tokens]

    _, out = tf.while_loop(lambda i, t: i < max_length, body, [tf.constant(prompt_len), buffer],
                           maximum_iterations=max_length - prompt_len)
    return out


# --- oracle ---
def ENTRY():
    model = NextTokenModel()
    model(tf.zeros([1, 8], tf.int32), tf.constant(2))
    return (lambda prompt: greedy_search(model, prompt)), (tf.constant([[1, 2, 3], [4, 5, 6]]),)
