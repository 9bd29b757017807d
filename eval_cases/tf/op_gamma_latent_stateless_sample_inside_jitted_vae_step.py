"""Source: https://github.com/tensorflow/tensorflow/issues/62286 (the Gamma reparameterisation path under `jit_compile=True`). The near miss in the other direction: this Gamma-latent VAE draws its Gamma samples inside the jit-compiled training step with `tf.random.stateless_gamma`, whose `StatelessRandomGammaV3` op has no XLA kernel."""
import tensorflow as tf


class GammaVAEStep(tf.Module):
    def __init__(self):
        super().__init__()
        self.log_alpha = tf.Variable([0.2, 0.5, -0.3, 1.0])
        self.decoder = tf.keras.layers.Dense(6)
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def __call__(self, x, seed):
        with tf.GradientTape() as tape:
            alpha = tf.exp(self.log_alpha)
            z = tf.random.stateless_gamma([tf.shape(x)[0], 4], seed=seed, alpha=alpha)  # XLA: op
            recon = self.decoder(z)
            loss = tf.reduce_mean(tf.square(recon - x))
        variables = [self.log_alpha] + self.decoder.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False
COMPARE = False


def ENTRY():
    m = GammaVAEStep()
    _KEEP.append(m)
    x = tf.reshape(tf.range(3 * 6, dtype=tf.float32), [3, 6]) / 18.0
    return m.__call__, (x, tf.constant([1, 2]))
