"""Source: https://github.com/tencent-quantum-lab/tensorcircuit/issues/143 ("Failed to transfer Tensor to Numpy when using jit": `psi.numpy()` inside a function jit-compiled by the TensorFlow backend). Documented fix: stay in the backend's tensor ops. The two-qubit eigensolver's jit-compiled energy takes the expectation with `tf.linalg.matvec` and `tf.math.conj` on the complex state."""
import numpy as np
import tensorflow as tf

Z = np.diag([1.0, -1.0])
X = np.array([[0.0, 1.0], [1.0, 0.0]])
HAMILTONIAN = tf.constant(np.kron(Z, Z) + 0.5 * (np.kron(X, np.eye(2)) + np.kron(np.eye(2), X)), tf.complex64)


def ry_qubit(theta):
    half = tf.cast(theta / 2.0, tf.complex64)
    return tf.stack([tf.cos(half), tf.sin(half)])


def circuit_state(params):
    state = tf.reshape(ry_qubit(params[0])[:, None] * ry_qubit(params[1])[None, :], [4])
    phase = tf.exp(tf.complex(0.0, params[2]))
    return state * tf.stack([tf.constant(1.0 + 0j, tf.complex64), 1.0, 1.0, phase])


@tf.function(jit_compile=True)
def energy(params):
    psi = circuit_state(params)
    return tf.math.real(tf.reduce_sum(tf.math.conj(psi) * tf.linalg.matvec(HAMILTONIAN, psi)))


# --- oracle ---
def ENTRY():
    return energy, (tf.constant([0.3, 1.1, 0.7]),)

