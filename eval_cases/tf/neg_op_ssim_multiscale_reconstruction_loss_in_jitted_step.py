"""Source: https://github.com/tensorflow/tensorflow/issues/37393 ("tf.image.ssim_multiscale broke in tensorflow 2.1.0-rc2": used as an autoencoder's reconstruction loss in a compiled Keras model it raised "using a tf.Tensor as a Python bool is not allowed in Graph execution"). Here a convolutional autoencoder trained on `1 - ssim_multiscale` in a jit-compiled step. Written as the failing case; does not reproduce on TF 2.21 CPU (`ssim_multiscale` traces with static shapes and the loss compiles under `jit_compile`), so it is a negative."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
            tf.keras.layers.Conv2D(1, 1, activation="sigmoid"),
        ])
        self.model.build([None, 176, 176, 1])
        self.optimizer = tf.keras.optimizers.RMSprop(1e-4)

    @tf.function(jit_compile=True)
    def train_step(self, images):
        with tf.GradientTape() as tape:
            recon = self.model(images)
            loss = 1.0 - tf.reduce_mean(tf.image.ssim_multiscale(images, recon, 1.0))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.random.stateless_uniform([1, 176, 176, 1], seed=[9, 10])
    return t.train_step, (images,)
