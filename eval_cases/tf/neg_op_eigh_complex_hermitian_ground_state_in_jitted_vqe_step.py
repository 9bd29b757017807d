"""Source: https://github.com/tensorflow/tensorflow/issues/117864 ("`tf.linalg.eigvalsh` / `eigh` returns wrong results for complex input under XLA": the compiled eigen-decomposition of a complex Hermitian matrix returns wrong eigenvalues). Here a jit-compiled variational step builds a small complex Hamiltonian from trainable couplings and takes its ground-state energy from `tf.linalg.eigh`. The oracle (TF 2.21, XLA:CPU) finds the compiled energies and state magnitudes equal to eager for this Hamiltonian, so this form is a negative: the report's wrong packing does not reproduce here."""
import tensorflow as tf


class Hamiltonian(tf.Module):
    def __init__(self):
        self.field = tf.Variable([0.7, -0.3])
        self.coupling = tf.Variable(0.4)

    def matrix(self):
        hx, hz = self.field[0], self.field[1]
        zero = tf.constant(0.0)
        real = tf.stack([tf.stack([hz, hx]), tf.stack([hx, -hz])])
        imag = tf.stack([tf.stack([zero, -self.coupling]), tf.stack([self.coupling, zero])])
        return tf.complex(real, imag)


ham = Hamiltonian()


@tf.function(jit_compile=True)
def ground_state(scale):
    energies, states = tf.linalg.eigh(ham.matrix() * tf.cast(scale, tf.complex64))
    return tf.math.real(energies[0]), tf.abs(states[:, 0])


# --- oracle ---
def ENTRY():
    return ground_state, (tf.constant(1.5),)
