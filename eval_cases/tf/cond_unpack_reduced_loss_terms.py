"""Source: https://github.com/tensorflow/tensorflow/issues/40023 (OperatorNotAllowedInGraphError "iterating over `tf.Tensor` is not allowed" after reducing a loss history; the answer: index a[0], a[1] instead of unpacking); here a VAE loss that unpacks the per-term means."""
import tensorflow as tf


@tf.function(jit_compile=True)
def vae_loss(x, x_hat, mu, log_var, beta):
    recon = tf.reduce_sum(tf.square(x - x_hat), axis=-1)
    kl = -0.5 * tf.reduce_sum(1.0 + log_var - tf.square(mu) - tf.exp(log_var), axis=-1)
    recon_mean, kl_mean = tf.reduce_mean(tf.stack([recon, kl], axis=1), axis=0)  # XLA: cond
    return recon_mean + beta * kl_mean


# --- oracle ---
def ENTRY():
    x = tf.constant([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]])
    x_hat = tf.constant([[0.1, 0.8, 0.5], [0.7, 0.2, 0.2]])
    mu = tf.constant([[0.1, -0.2], [0.3, 0.0]])
    log_var = tf.constant([[0.0, -0.1], [0.2, 0.1]])
    return vae_loss, (x, x_hat, mu, log_var, tf.constant(0.5))
