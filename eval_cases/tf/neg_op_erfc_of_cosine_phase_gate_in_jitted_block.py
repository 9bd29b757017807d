"""Source: https://github.com/tensorflow/tensorflow/issues/62287 ("Different Behavior of tf.raw_ops.Cos+tf.raw_ops.Erfc with jit_compile=True" on CPU: the chain Cos -> Erfc differs from eager while each op alone matches). Here a phase-gated block computes a soft gate `erfc(cos(phase))` over positional phases inside its jit-compiled call. Does not reproduce on TF 2.21 CPU: eager and XLA agree within the oracle's tolerance, so this is a negative."""
import tensorflow as tf


class PhaseGate(tf.Module):
    @tf.function(jit_compile=True)
    def __call__(self, x, phase):
        gate = tf.math.erfc(tf.cos(phase))
        return x * gate


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    g = PhaseGate()
    _KEEP.append(g)
    phase = tf.reshape(tf.range(10 * 9, dtype=tf.float32), [10, 9]) * 0.37 - 12.0
    x = tf.ones([10, 9])
    return g.__call__, (x, phase)
