"""Source: https://github.com/keras-team/keras-hub/issues/443 ("BERT fails on TPU when jit_compile=True": the dataset's last batch is smaller, its batch dimension is dynamic, and the jit-compiled train function fails on TPU with an ambiguous dynamic reshape; the suggested workaround is `drop_remainder=True`). On CPU the smaller last batch is a new input shape for the compiled step. Here a small BERT-style classifier trained over `dataset.batch(4)` with a remainder."""
import numpy as np
import tensorflow as tf

VOCAB = 60
SEQ = 6


class TinyBertClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.tokens = tf.keras.layers.Embedding(VOCAB, 8)
        self.positions = tf.keras.layers.Embedding(SEQ, 8)
        self.attn = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
        self.ffn = tf.keras.layers.Dense(8, activation="gelu")
        self.head = tf.keras.layers.Dense(2)

    def call(self, token_ids):
        h = self.tokens(token_ids) + self.positions(tf.range(SEQ))
        h = h + self.attn(h, h)
        h = h + self.ffn(h)
        return self.head(h[:, 0])


class Trainer:
    def __init__(self):
        self.model = TinyBertClassifier()
        self.model(tf.zeros([1, SEQ], tf.int32))
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, token_ids, labels):
        with tf.GradientTape() as tape:
            logits = self.model(token_ids)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def make_dataset(num_examples=10):
    rng = np.random.default_rng(0)
    ids = rng.integers(1, VOCAB, size=(num_examples, SEQ)).astype("int32")
    labels = rng.integers(0, 2, size=(num_examples,))
    return tf.data.Dataset.from_tensor_slices((ids, labels)).batch(4)  # XLA: retrace


def batches():
    return list(make_dataset())


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, tuple(batches()[0])


def ALT_ARGS():
    return [tuple(b) for b in batches()[1:]]
