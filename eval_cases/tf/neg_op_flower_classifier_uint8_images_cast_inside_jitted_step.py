"""Source: https://github.com/tensorflow/tensorflow/issues/37426 ("NotFoundError: No registered 'Identity' OpKernel for 'TPU' devices compatible with node": images decoded with `tf.io.decode_jpeg` reached a Keras model trained on a TPU as `uint8`, which the TPU does not support; the answer was to cast them to `float32` (or `int32`) in the input pipeline). Here a flower classifier's jit-compiled training step receives the `uint8` images and casts them itself. XLA on the CPU has kernels for `uint8`, so on TF 2.21 CPU the step compiles and runs: the report is TPU-specific and does not reproduce here, and this case is a negative that says so. (Small convolutional flower classifier.)"""
import tensorflow as tf


def make_model(classes=5):
    return tf.keras.Sequential([
        tf.keras.layers.Conv2D(8, 3, activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Conv2D(16, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(classes),
    ])


class Trainer:
    def __init__(self):
        self.model = make_model()
        self.model.build([None, 16, 16, 3])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, images, labels):
        x = tf.cast(images, tf.float32) / 255.0
        with tf.GradientTape() as tape:
            logits = self.model(x, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def make_batch(seed):
    pixels = (tf.range(4 * 16 * 16 * 3) * (seed + 7)) % 256
    return tf.cast(tf.reshape(pixels, [4, 16, 16, 3]), tf.uint8), tf.constant([0, 1, 2, 3]) % 5


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, make_batch(0)


def ALT_ARGS():
    return [make_batch(1)]
