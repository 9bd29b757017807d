"""Source: https://github.com/tensorflow/tensorflow/issues/62286 ("Different Behavior of tf.raw_ops.RandomGammaGrad with jit_compile=True": the reparameterisation gradient of Gamma samples reported to differ from eager). Does not reproduce on TF 2.21 CPU within the oracle's tolerance. Here a Gamma-latent VAE draws its Gamma samples in the input pipeline and computes their pathwise derivative with `tf.raw_ops.RandomGammaGrad` inside the jit-compiled step."""
import tensorflow as tf


class GammaLatentStep(tf.Module):
    def __init__(self):
        super().__init__()
        self.log_alpha = tf.Variable([0.2, 0.5, -0.3, 1.0])

    @tf.function(jit_compile=True)
    def __call__(self, samples):
        alpha = tf.exp(self.log_alpha)
        dsample_dalpha = tf.raw_ops.RandomGammaGrad(alpha=tf.broadcast_to(alpha, tf.shape(samples)), sample=samples)
        return tf.reduce_mean(dsample_dalpha * alpha, axis=0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = GammaLatentStep()
    _KEEP.append(m)
    samples = tf.constant([[0.3, 1.2, 0.05, 4.0], [1.1, 0.7, 0.4, 2.2], [0.9, 2.5, 0.2, 3.1]])
    return m.__call__, (samples,)
