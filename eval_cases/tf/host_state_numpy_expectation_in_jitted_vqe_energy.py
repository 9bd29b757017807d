"""Source: https://github.com/tencent-quantum-lab/tensorcircuit/issues/143 ("Failed to transfer Tensor to Numpy when using jit": with the TensorFlow backend, `tc.backend.jit` compiles the function with XLA and `psi.numpy()` on the circuit state fails). Here a two-qubit variational eigensolver builds its state with TensorFlow ops inside a jit-compiled energy function, then converts the state to NumPy to take the Hamiltonian expectation."""
import numpy as np
import tensorflow as tf

Z = np.diag([1.0, -1.0])
X = np.array([[0.0, 1.0], [1.0, 0.0]])
HAMILTONIAN = np.kron(Z, Z) + 0.5 * (np.kron(X, np.eye(2)) + np.kron(np.eye(2), X))


def ry_qubit(theta):
    half = tf.cast(theta / 2.0, tf.complex64)
    return tf.stack([tf.cos(half), tf.sin(half)])


def circuit_state(params):
    state = tf.reshape(ry_qubit(params[0])[:, None] * ry_qubit(params[1])[None, :], [4])
    phase = tf.exp(tf.complex(0.0, params[2]))
    return state * tf.stack([tf.constant(1.0 + 0j, tf.complex64), 1.0, 1.0, phase])


@tf.function(jit_compile=True)
def energy(params):
    psi = circuit_state(params).numpy()  # XLA: host
    return np.real(np.vdot(psi, HAMILTONIAN @ psi)).astype(np.float32)


# --- oracle ---
def ENTRY():
    return energy, (tf.constant([0.3, 1.1, 0.7]),)

