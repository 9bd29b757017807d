"""Source: https://github.com/tensorflow/tensorflow/issues/58445 (the deterministic near miss: greedy decoding takes the arg-max of the logits, so the compiled decoding step returns the same token ids as the eager one; no seeded RNG is involved). Greedy step of a small language model's decoder, jit-compiled."""
import tensorflow as tf

VOCAB = 20


class TinyLM(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(VOCAB, 8)
        self.rnn = tf.keras.layers.GRU(8)
        self.out = tf.keras.layers.Dense(VOCAB)

    def call(self, tokens):
        return self.out(self.rnn(self.embed(tokens)))


model = TinyLM()


def greedy_next(tokens):
    return tf.argmax(model(tokens), axis=-1, output_type=tf.int32)


@tf.function(jit_compile=True)
def decode_step(tokens):
    return greedy_next(tokens)


# --- oracle ---
WRAP = False


def ENTRY():
    tokens = tf.constant([[3, 7, 1, 9], [2, 2, 5, 11], [4, 6, 8, 10], [1, 3, 5, 7]])
    return decode_step, (tokens,)
