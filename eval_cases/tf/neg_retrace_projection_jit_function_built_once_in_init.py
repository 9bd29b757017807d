"""Source: https://github.com/sek788432/Waymo-2D-Object-Detection/issues/2 (a `tf.function` defined inside a helper that runs per batch is traced again on every call). The fix the report suggests, used here: the jit-compiled projection is created once in `__init__` and `fused_project` only calls it, so every batch reuses one compiled function."""
import tensorflow as tf


class HashedProjection(tf.Module):
    def __init__(self, num_hashes):
        super().__init__()
        self.planes = tf.Variable(tf.random.stateless_normal([8, num_hashes], seed=[3, 4]))
        self._project = tf.function(self._func, jit_compile=True)

    def _func(self, x):
        return tf.cast(tf.matmul(x, self.planes) > 0.0, tf.float32)

    def fused_project(self, features):
        return self._project(features)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    p = HashedProjection(16)
    _KEEP.append(p)
    return p.fused_project, (tf.reshape(tf.range(3 * 8, dtype=tf.float32), [3, 8]) / 24.0 - 0.5,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(3 * 8, dtype=tf.float32), [3, 8]) / 12.0 - 1.0,)]
