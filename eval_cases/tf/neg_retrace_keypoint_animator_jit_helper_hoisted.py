"""Source: https://github.com/lshug/first-order-model-tf/issues/22 (`tf.function`s defined inside a function that is called per video are traced again on every call). The fix the report suggests, used here: the jit-compiled frame helper is a method defined once on the animator and takes the source keypoints as an argument, so every video reuses one compiled function."""
import tensorflow as tf


class KeypointAnimator(tf.Module):
    def __init__(self):
        super().__init__()
        self.proj = tf.Variable(tf.eye(4) * 0.9 + 0.05)

    @tf.function(jit_compile=True)
    def next_batch(self, frames, source, start):
        window = tf.slice(frames, [start, 0, 0], [2, -1, -1])
        return tf.einsum("tkd,de->tke", window, self.proj) + source[None]

    def animate(self, source, driving):
        outputs = [self.next_batch(driving, source, tf.constant(i)) for i in range(0, 4, 2)]
        return tf.concat(outputs, axis=0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    a = KeypointAnimator()
    _KEEP.append(a)
    source = tf.reshape(tf.range(5 * 4, dtype=tf.float32), [5, 4]) / 20.0
    driving = tf.reshape(tf.range(4 * 5 * 4, dtype=tf.float32), [4, 5, 4]) / 80.0
    return a.animate, (source, driving)


def ALT_ARGS():
    source = tf.reshape(tf.range(5 * 4, dtype=tf.float32), [5, 4]) / 40.0
    driving = tf.reshape(tf.range(4 * 5 * 4, dtype=tf.float32), [4, 5, 4]) / 160.0
    return [(source, driving)]
