"""Source: https://github.com/leondgarse/keras_cv_attention_models/issues/8 (VOLO's unfold layer failed on TPU because the gradient of ExtractImagePatches runs it on an int64 index image; on TF 2.21 XLA:CPU the training step through the unfold layer compiles)."""
import tensorflow as tf


class Unfold(tf.keras.layers.Layer):
    def call(self, x):
        patches = tf.image.extract_patches(x, sizes=[1, 3, 3, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1],
                                           padding="SAME")
        return tf.reshape(patches, tf.concat([tf.shape(x)[:3], [9, x.shape[-1]]], axis=0))


class OutlookAttention(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.v = tf.keras.layers.Dense(dim)
        self.attn = tf.keras.layers.Dense(9)
        self.unfold = Unfold()

    def call(self, x):
        v = self.unfold(self.v(x))
        weights = tf.nn.softmax(self.attn(x), axis=-1)
        return tf.einsum("bhwk,bhwkc->bhwc", weights, v)


class Trainer:
    def __init__(self):
        self.layer = OutlookAttention(4)
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def train_step(self, images, targets):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.layer(images) - targets))
        grads = tape.gradient(loss, self.layer.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.layer.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 4 * 4 * 4, dtype=tf.float32), [2, 4, 4, 4]) / 128.0
    return t.train_step, (images, tf.ones([2, 4, 4, 4]) * 0.1)
