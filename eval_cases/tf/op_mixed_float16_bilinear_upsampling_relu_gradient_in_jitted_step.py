"""Source: https://github.com/keras-team/keras/issues/20931 ("TF+XLA+Mixed Precision: Keras fails to compute gradients": an autoencoder under the `mixed_float16` policy with `UpSampling2D(interpolation="bilinear")` followed by ReLU fails when the train step is XLA-compiled, because the resize gradient comes back in float32 and meets the float16 ReLU gradient). Here a small convolutional autoencoder under `mixed_float16`, trained in a jit-compiled step."""
import tensorflow as tf

tf.keras.mixed_precision.set_global_policy("mixed_float16")


def build_autoencoder():
    inputs = tf.keras.Input(shape=(8, 8, 1))
    x = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(inputs)
    x = tf.keras.layers.UpSampling2D(2, interpolation="bilinear")(x)  # XLA: op
    x = tf.keras.layers.ReLU()(x)
    outputs = tf.keras.layers.Conv2D(1, 3, padding="same", dtype="float32")(x)
    return tf.keras.Model(inputs, outputs)


class Trainer:
    def __init__(self):
        self.model = build_autoencoder()
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def train_step(self, images):
        with tf.GradientTape() as tape:
            recon = self.model(images, training=True)
            loss = tf.reduce_mean(tf.square(recon - images))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 64, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    return t.train_step, (images,)
