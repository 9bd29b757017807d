"""Source: https://github.com/keras-team/keras/issues/20369 (the usual answer to a step that is traced again for each unseen sequence length: pad every batch to a fixed length and mask the padding, so the jit-compiled step sees one shape). Attention encoder's jit-compiled training step fed batches padded to a fixed maximum length with a padding mask."""
import numpy as np
import tensorflow as tf

D_MODEL = 8
NUM_CLASSES = 3
MAX_LEN = 16


class SeqToVec(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(D_MODEL)
        self.attn = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
        self.norm = tf.keras.layers.LayerNormalization()
        self.head = tf.keras.layers.Dense(NUM_CLASSES)

    def call(self, x, mask):
        h = self.proj(x)
        attn_mask = mask[:, tf.newaxis, :] & mask[:, :, tf.newaxis]
        h = self.norm(h + self.attn(h, h, attention_mask=attn_mask))
        w = tf.cast(mask, h.dtype)[..., tf.newaxis]
        return self.head(tf.reduce_sum(h * w, axis=1) / tf.maximum(tf.reduce_sum(w, axis=1), 1.0))


class Trainer:
    def __init__(self):
        self.model = SeqToVec()
        self.model(tf.zeros([1, MAX_LEN, 2]), tf.ones([1, MAX_LEN], tf.bool))
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, x, mask, y):
        with tf.GradientTape() as tape:
            logits = self.model(x, mask)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def make_batch(seq_len, batch=4):
    rng = np.random.default_rng(seq_len)
    x = np.zeros((batch, MAX_LEN, 2), "float32")
    x[:, :seq_len] = rng.normal(size=(batch, seq_len, 2))
    mask = np.arange(MAX_LEN)[None, :] < seq_len
    y = rng.integers(0, NUM_CLASSES, size=(batch,))
    return tf.constant(x), tf.constant(np.repeat(mask, batch, axis=0)), tf.constant(y)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, make_batch(5)


def ALT_ARGS():
    return [make_batch(9), make_batch(13)]
