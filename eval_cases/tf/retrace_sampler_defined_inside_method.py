"""Source: https://github.com/theislab/scCODA/issues/13 ("triggered tf.function retracing" from a sample_mcmc tf.function defined inside the sampling method, so each call makes a new function)."""
import tensorflow as tf


class CompositionalModel:
    def __init__(self, step_size):
        self.step_size = step_size

    def sampling(self, state, noise):
        @tf.function(jit_compile=True)  # XLA: retrace
        def sample_step(s, n):
            return s + self.step_size * n - 0.5 * self.step_size * s

        return sample_step(state, noise)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = CompositionalModel(0.1)
    _KEEP.append(m)
    return m.sampling, (tf.constant([1.0, 2.0]), tf.constant([0.5, -0.5]))


def ALT_ARGS():
    return [(tf.constant([1.5, 2.5]), tf.constant([0.1, 0.2])), (tf.constant([0.5, 0.0]), tf.constant([0.3, 0.3]))]
