"""Source: https://github.com/openxla/xla/issues/44942 ("XLA jit_compile=True crashes with segmentation fault when executing tf.image.rot90 followed by tf.experimental.numpy.cumsum": XLA:CPU compiles the rotated cumulative sum and the executable crashes or returns wrong values). Here a float64 wafer-inspection model rotates each scan by 90 degrees with `tf.image.rot90` to read column profiles and integrates them with `tf.experimental.numpy.cumsum` inside a jit-compiled function."""
import tensorflow as tf

tnp = tf.experimental.numpy


class ProfileInspector(tf.Module):
    def __init__(self):
        super().__init__()
        self.threshold = tf.constant(0.5, dtype=tf.float64)

    @tf.function(jit_compile=True)
    def __call__(self, scan):
        rotated = tf.image.rot90(scan)
        profile = tnp.cumsum(rotated)  # XLA: op
        return profile, tf.reduce_mean(tf.cast(profile > self.threshold, tf.float64))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = ProfileInspector()
    _KEEP.append(m)
    scan = tf.cast(tf.reshape(tf.range(8 * 4 * 3), [8, 4, 3]) % 7, tf.float64) / 7.0 - 0.4
    return m.__call__, (scan,)
