"""Source: https://github.com/tensorflow/tensorflow/issues/41915 ("tf.math.reduce_euclidean_norm can not be in tf.function with experimental_compile=True"). The documented workaround: compute the norm from `reduce_sum` of squares (what `tf.math.l2_normalize` does), which XLA compiles. The same SimCLR-style projection head and jit-compiled contrastive step."""
import tensorflow as tf


class ProjectionHead(tf.keras.layers.Layer):
    def __init__(self, dim):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(32, activation="relu")
        self.out = tf.keras.layers.Dense(dim)

    def call(self, x):
        z = self.out(self.hidden(x))
        norms = tf.sqrt(tf.reduce_sum(tf.square(z), axis=-1, keepdims=True))
        return z / (norms + 1e-6)


class Trainer:
    def __init__(self):
        self.head = ProjectionHead(16)
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.temperature = 0.5

    @tf.function(jit_compile=True)
    def train_step(self, view_a, view_b):
        with tf.GradientTape() as tape:
            za = self.head(view_a)
            zb = self.head(view_b)
            logits = tf.matmul(za, zb, transpose_b=True) / self.temperature
            labels = tf.range(tf.shape(logits)[0])
            loss = tf.reduce_mean(
                tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.head.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.head.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    a = tf.reshape(tf.range(8 * 12, dtype=tf.float32), [8, 12]) / 96.0
    b = tf.reverse(a, axis=[1])
    return t.train_step, (a, b)
