"""Source: https://github.com/keras-team/keras/issues/20369 ("Tensorflow executes slow on GPU - retracing issue?": a transformer sequence-to-vector model trained on batches whose sequence length differs; every unseen length makes the step much slower because the function is traced and compiled again). Here a small attention encoder's jit-compiled training step fed each batch at its own length, as the reporter's data generator yields them."""
import numpy as np
import tensorflow as tf

D_MODEL = 8
NUM_CLASSES = 3


class SeqToVec(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(D_MODEL)
        self.attn = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
        self.norm = tf.keras.layers.LayerNormalization()
        self.head = tf.keras.layers.Dense(NUM_CLASSES)

    def call(self, x):
        h = self.proj(x)
        h = self.norm(h + self.attn(h, h))
        return self.head(tf.reduce_mean(h, axis=1))


class Trainer:
    def __init__(self):
        self.model = SeqToVec()
        self.model(tf.zeros([1, 3, 2]))
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, self.model(x), from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def make_batch(seq_len, batch=4):
    rng = np.random.default_rng(seq_len)
    x = rng.normal(size=(batch, seq_len, 2)).astype("float32")  # XLA: retrace
    y = rng.integers(0, NUM_CLASSES, size=(batch,))
    return tf.constant(x), tf.constant(y)


def fit(trainer, lengths):
    for seq_len in lengths:
        trainer.train_step(*make_batch(seq_len))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, make_batch(5)


def ALT_ARGS():
    return [make_batch(9), make_batch(13)]
