"""Source: https://github.com/lshug/first-order-model-tf/issues/22 ("Performance issues about tf.function": `animate` is called in a for loop over videos and defines the `tf.function`s `slice_driving` and `next_batch` inside itself, so every call creates and traces new functions). Here a keypoint-driven animator defines its jit-compiled frame helper inside `animate`, which the demo calls once per driving video, so XLA compiles the helper again for every video."""
import tensorflow as tf


class KeypointAnimator(tf.Module):
    def __init__(self):
        super().__init__()
        self.proj = tf.Variable(tf.eye(4) * 0.9 + 0.05)

    def animate(self, source, driving):
        @tf.function(jit_compile=True)  # XLA: retrace
        def next_batch(frames, start):
            window = tf.slice(frames, [start, 0, 0], [2, -1, -1])
            return tf.einsum("tkd,de->tke", window, self.proj) + source[None]

        outputs = [next_batch(driving, tf.constant(i)) for i in range(0, 4, 2)]
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
