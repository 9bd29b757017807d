"""Source: https://github.com/openxla/xla/issues/44942 (`tf.image.rot90` followed by a cumulative sum crashes or miscomputes under XLA:CPU). The workaround used here: the 90-degree rotation is written out as `tf.transpose` + `tf.reverse` before `tf.experimental.numpy.cumsum`, which XLA compiles and computes as eager does."""
import tensorflow as tf

tnp = tf.experimental.numpy


class ProfileInspector(tf.Module):
    def __init__(self):
        super().__init__()
        self.threshold = tf.constant(0.5, dtype=tf.float64)

    @tf.function(jit_compile=True)
    def __call__(self, scan):
        rotated = tf.reverse(tf.transpose(scan, [1, 0, 2]), [0])
        profile = tnp.cumsum(rotated)
        return profile, tf.reduce_mean(tf.cast(profile > self.threshold, tf.float64))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = ProfileInspector()
    _KEEP.append(m)
    scan = tf.cast(tf.reshape(tf.range(8 * 4 * 3), [8, 4, 3]) % 7, tf.float64) / 7.0 - 0.4
    return m.__call__, (scan,)
