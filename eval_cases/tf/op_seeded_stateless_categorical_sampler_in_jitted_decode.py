"""Source: https://github.com/tensorflow/tensorflow/issues/58445 (`tf.random.stateless_categorical` gives different samples for the same seed on different devices: the stateless RNG algorithm is device-dependent, and the XLA kernels use their own bit generator, so a seeded, "reproducible" sampler changes its draws once the decoding step is compiled). Here a seeded top-k sampling step of a small language model's decoder, jit-compiled."""
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


def sample_next(tokens, seed, temperature=0.8, k=5):
    logits = model(tokens) / temperature
    top_logits, top_ids = tf.math.top_k(logits, k=k)
    choice = tf.random.stateless_categorical(top_logits, 1, seed=seed)  # XLA: op
    return tf.gather(top_ids, choice, batch_dims=1)[:, 0]


@tf.function(jit_compile=True)
def decode_step(tokens, seed):
    return sample_next(tokens, seed)


# --- oracle ---
WRAP = False


def ENTRY():
    tokens = tf.constant([[3, 7, 1, 9], [2, 2, 5, 11], [4, 6, 8, 10], [1, 3, 5, 7]])
    return decode_step, (tokens, tf.constant([42, 7]))
