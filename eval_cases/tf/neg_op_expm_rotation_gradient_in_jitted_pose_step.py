"""Source: https://github.com/tensorflow/tensorflow/issues/77693 ("Gradients of tf.linalg.expm not supported with JIT compilation"). For a rotation the exponential of a skew-symmetric matrix has a closed form (Rodrigues' formula), which differentiates without a loop; the same pose-refinement model trained in a jit-compiled step."""
import tensorflow as tf


def skew(w):
    zero = tf.zeros_like(w[..., 0])
    return tf.stack([
        tf.stack([zero, -w[..., 2], w[..., 1]], axis=-1),
        tf.stack([w[..., 2], zero, -w[..., 0]], axis=-1),
        tf.stack([-w[..., 1], w[..., 0], zero], axis=-1),
    ], axis=-2)


class PoseRefiner(tf.Module):
    def __init__(self):
        super().__init__()
        self.omega = tf.Variable([0.1, -0.2, 0.05])

    def rotation(self):
        theta = tf.sqrt(tf.reduce_sum(tf.square(self.omega)) + 1e-12)
        k = skew(self.omega / theta)
        return tf.eye(3) + tf.sin(theta) * k + (1.0 - tf.cos(theta)) * tf.matmul(k, k)

    @tf.function(jit_compile=True)
    def train_step(self, points, targets):
        with tf.GradientTape() as tape:
            rotated = tf.matmul(points, self.rotation(), transpose_b=True)
            loss = tf.reduce_mean(tf.square(rotated - targets))
        grad = tape.gradient(loss, self.omega)
        self.omega.assign_sub(0.1 * grad)
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = PoseRefiner()
    _KEEP.append(m)
    points = tf.reshape(tf.range(18, dtype=tf.float32), [6, 3]) / 18.0
    targets = tf.reverse(points, axis=[1])
    return m.train_step, (points, targets)
