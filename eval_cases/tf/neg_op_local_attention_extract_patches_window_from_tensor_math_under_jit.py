"""Source: https://github.com/tensorflow/tensorflow/issues/109016 ("[XLA] Inconsistent parameter type acceptance in tf.image.extract_patches": `sizes` computed with TensorFlow ops fail under `jit_compile=True`). The fix suggested on the companion report tensorflow#108143: compute the window with Python arithmetic on the layer's integer config, so `sizes` is a list of Python ints. (Local self-attention over a token sequence in a tagging model.)"""
import tensorflow as tf


class LocalAttention(tf.keras.layers.Layer):
    def __init__(self, dim=8, window=2):
        super().__init__()
        self.window = window
        self.q = tf.keras.layers.Dense(dim)
        self.k = tf.keras.layers.Dense(dim)
        self.v = tf.keras.layers.Dense(dim)

    def neighbourhoods(self, x):
        span = 2 * self.window + 1
        padded = tf.pad(x, [[0, 0], [self.window, self.window], [0, 0]])[:, :, :, None]
        patches = tf.image.extract_patches(padded, sizes=[1, span, 1, 1],
                                           strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="VALID")
        windows = tf.reshape(patches, [tf.shape(x)[0], x.shape[1], x.shape[2], -1])
        return tf.transpose(windows, [0, 1, 3, 2])

    def call(self, x):
        q = self.q(x)
        context = self.neighbourhoods(x)
        keys, values = self.k(context), self.v(context)
        scores = tf.einsum("btd,btwd->btw", q, keys) / 8.0 ** 0.5
        return tf.einsum("btw,btwd->btd", tf.nn.softmax(scores, axis=-1), values)


class Trainer:
    def __init__(self):
        self.attn = LocalAttention()
        self.head = tf.keras.layers.Dense(3)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, x, tags):
        with tf.GradientTape() as tape:
            logits = self.head(self.attn(x))
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(tags, logits, from_logits=True))
        variables = self.attn.trainable_variables + self.head.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(2 * 9 * 8, dtype=tf.float32), [2, 9, 8]) / 144.0
    tags = tf.reshape(tf.range(18) % 3, [2, 9])
    return t.train_step, (x, tags)
