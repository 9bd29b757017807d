"""Source: https://github.com/tensorflow/tensorflow/issues/108073 (fix twin: pull request #108495 documents that static configuration values such as layer dimensions must be plain Python numbers under XLA). The same causal self-attention layer keeps `d_model` as a Python int, so the head-merging `tf.reshape` gets a shape XLA can evaluate at compile time. (Decoder block of a small causal language model.)"""
import tensorflow as tf


class CausalAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.d_model = d_model
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.wo = tf.keras.layers.Dense(d_model)

    def split_heads(self, x, batch):
        x = tf.reshape(x, (batch, -1, self.num_heads, self.depth))
        return tf.transpose(x, [0, 2, 1, 3])

    def call(self, x):
        batch, length = tf.shape(x)[0], tf.shape(x)[1]
        q = self.split_heads(self.wq(x), batch)
        k = self.split_heads(self.wk(x), batch)
        v = self.split_heads(self.wv(x), batch)
        logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(float(self.depth))
        mask = tf.linalg.band_part(tf.ones((length, length)), -1, 0)
        weights = tf.nn.softmax(logits + (1.0 - mask) * -1e9, axis=-1)
        out = tf.transpose(tf.matmul(weights, v), [0, 2, 1, 3])
        out = tf.reshape(out, (batch, -1, self.d_model))
        return self.wo(out)


class Trainer:
    def __init__(self, vocab=50, d_model=16, num_heads=4):
        self.embed = tf.keras.layers.Embedding(vocab, d_model)
        self.attn = CausalAttention(d_model, num_heads)
        self.head = tf.keras.layers.Dense(vocab)
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, ids, targets):
        with tf.GradientTape() as tape:
            logits = self.head(self.attn(self.embed(ids)))
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(targets, logits, from_logits=True))
        variables = self.embed.trainable_variables + self.attn.trainable_variables + self.head.trainable_variables
        self.opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    ids = tf.reshape(tf.range(2 * 8) % 50, [2, 8])
    return t.train_step, (ids, (ids + 1) % 50)
