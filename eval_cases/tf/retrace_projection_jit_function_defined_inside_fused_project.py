"""Source: https://github.com/sek788432/Waymo-2D-Object-Detection/issues/2 ("Performance issue in .../seq_flow_lite/models/sgnn/sgnn.py": `fused_project` defines the `tf.function` `func` inside itself and is called in a for loop, so each call traces a new graph). Here an SGNN-style hashed projection layer defines its jit-compiled projection inside `fused_project`, which the featurizer calls for every batch, so XLA compiles it again per batch."""
import tensorflow as tf


class HashedProjection(tf.Module):
    def __init__(self, num_hashes):
        super().__init__()
        self.planes = tf.Variable(tf.random.stateless_normal([8, num_hashes], seed=[3, 4]))

    def fused_project(self, features):
        @tf.function(jit_compile=True)  # XLA: retrace
        def func(x):
            return tf.cast(tf.matmul(x, self.planes) > 0.0, tf.float32)

        return func(features)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    p = HashedProjection(16)
    _KEEP.append(p)
    return p.fused_project, (tf.reshape(tf.range(3 * 8, dtype=tf.float32), [3, 8]) / 24.0 - 0.5,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(3 * 8, dtype=tf.float32), [3, 8]) / 12.0 - 1.0,)]
