"""Source: https://github.com/keras-team/keras-hub/issues/241 ("Make decoding functions graph-compatible": the text-generation utilities appended each new token to the prompt in a Python loop; run as a graph with a tensor `max_length`, the loop becomes a `tf.while_loop` whose prompt changes shape every iteration, which needs shape invariants and cannot be compiled by XLA). Here a greedy decoder for a small GRU language model that concatenates tokens until a tensor `max_length`, jit-compiled."""
import tensorflow as tf

VOCAB = 16


class TinyLM(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(VOCAB, 8)
        self.rnn = tf.keras.layers.GRU(8)
        self.out = tf.keras.layers.Dense(VOCAB)

    def call(self, tokens):
        return self.out(self.rnn(self.embed(tokens)))


model = TinyLM()


@tf.function(jit_compile=True)
def greedy_generate(prompt, max_length):
    while tf.shape(prompt)[1] < max_length:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(prompt, tf.TensorShape([None, None]))])
        next_token = tf.argmax(model(prompt), axis=-1, output_type=tf.int32)
        prompt = tf.concat([prompt, next_token[:, None]], axis=1)  # XLA: shape
    return prompt


# --- oracle ---
WRAP = False


def ENTRY():
    return greedy_generate, (tf.constant([[1, 4, 2], [3, 3, 5]]), tf.constant(7))
