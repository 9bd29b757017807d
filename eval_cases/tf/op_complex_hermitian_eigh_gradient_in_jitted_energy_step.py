"""Source: https://github.com/tensorflow/tensorflow/issues/56619 ("Gradient computation through tf.linalg.eigh does not work with complex-valued input in XLA": differentiating the lowest eigenvalue of a Hermitian matrix built with `tf.complex` fails under `jit_compile=True` with "Binary op add with different element types: f32 and c64"). Here a variational tight-binding model that minimizes the ground-state energy of a complex Hermitian Hamiltonian, in a jit-compiled step."""
import tensorflow as tf


class TightBinding(tf.Module):
    def __init__(self):
        super().__init__()
        self.hop_real = tf.Variable([[0.0, 1.0, 0.2], [1.0, 0.0, 0.5], [0.2, 0.5, 0.0]])
        self.hop_imag = tf.Variable([[0.0, 0.3, -0.1], [-0.3, 0.0, 0.4], [0.1, -0.4, 0.0]])

    @tf.function(jit_compile=True)
    def train_step(self, onsite):
        with tf.GradientTape() as tape:
            h = tf.complex(self.hop_real + tf.linalg.diag(onsite), self.hop_imag)
            h = 0.5 * (h + tf.linalg.adjoint(h))
            energies, _ = tf.linalg.eigh(h)  # XLA: op
            loss = tf.math.real(energies[0])
        grads = tape.gradient(loss, [self.hop_real, self.hop_imag])
        self.hop_real.assign_sub(0.01 * grads[0])
        self.hop_imag.assign_sub(0.01 * grads[1])
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = TightBinding()
    _KEEP.append(m)
    return m.train_step, (tf.constant([0.1, -0.2, 0.3]),)
