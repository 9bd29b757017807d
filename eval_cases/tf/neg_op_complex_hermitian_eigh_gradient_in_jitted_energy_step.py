"""Source: https://github.com/tensorflow/tensorflow/issues/56619 ("Gradient computation through tf.linalg.eigh does not work with complex-valued input in XLA"). The near miss: a real symmetric Hamiltonian (no imaginary hopping), whose ground-state energy differentiates through `tf.linalg.eigh` in the same jit-compiled step."""
import tensorflow as tf


class TightBinding(tf.Module):
    def __init__(self):
        super().__init__()
        self.hop_real = tf.Variable([[0.0, 1.0, 0.2], [1.0, 0.0, 0.5], [0.2, 0.5, 0.0]])

    @tf.function(jit_compile=True)
    def train_step(self, onsite):
        with tf.GradientTape() as tape:
            h = self.hop_real + tf.linalg.diag(onsite)
            h = 0.5 * (h + tf.transpose(h))
            energies, _ = tf.linalg.eigh(h)
            loss = energies[0]
        grad = tape.gradient(loss, self.hop_real)
        self.hop_real.assign_sub(0.01 * grad)
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = TightBinding()
    _KEEP.append(m)
    return m.train_step, (tf.constant([0.1, -0.2, 0.3]),)
