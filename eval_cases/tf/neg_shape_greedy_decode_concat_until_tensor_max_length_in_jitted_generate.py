"""Source: https://github.com/keras-team/keras-hub/issues/241 (the graph- and XLA-compatible form the PR moved to: pad the prompt to `max_length` up front and write each generated token into its slot with a `tf.while_loop` over a fixed-shape buffer). Greedy decoder for a small GRU language model over a fixed-length buffer, jit-compiled."""
import tensorflow as tf

VOCAB = 16
MAX_LENGTH = 7


class TinyLM(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(VOCAB, 8)
        self.rnn = tf.keras.layers.GRU(8)
        self.out = tf.keras.layers.Dense(VOCAB)

    def call(self, tokens, mask):
        return self.out(self.rnn(self.embed(tokens), mask=mask))


model = TinyLM()


@tf.function(jit_compile=True)
def greedy_generate(prompt):
    batch, prompt_len = prompt.shape
    buffer = tf.pad(prompt, [[0, 0], [0, MAX_LENGTH - prompt_len]])

    def body(i, buffer):
        mask = tf.range(MAX_LENGTH)[None, :] < i
        next_token = tf.argmax(model(buffer, tf.tile(mask, [batch, 1])), axis=-1, output_type=tf.int32)
        rows = tf.stack([tf.range(batch), tf.fill([batch], i)], axis=1)
        return i + 1, tf.tensor_scatter_nd_update(buffer, rows, next_token)

    _, buffer = tf.while_loop(lambda i, b: i < MAX_LENGTH, body, [tf.constant(prompt_len), buffer])
    return buffer


# --- oracle ---
WRAP = False


def ENTRY():
    return greedy_generate, (tf.constant([[1, 4, 2], [3, 3, 5]]),)
