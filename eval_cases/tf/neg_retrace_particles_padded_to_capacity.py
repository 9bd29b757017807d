"""Source: https://github.com/isl-org/DeepLagrangianFluids/issues/28 (fix for the per-scene retracing: pad every scene to a fixed particle capacity and carry a mask, so the compiled step always sees the same shapes)."""
import tensorflow as tf

CAPACITY = 10


class FluidTrainer:
    def __init__(self):
        self.net = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(3)])
        self.optimizer = tf.keras.optimizers.SGD(1e-3)

    @tf.function(jit_compile=True)
    def train(self, positions, velocities, mask):
        with tf.GradientTape() as tape:
            predicted = positions + self.net(tf.concat([positions, velocities], axis=-1))
            err = tf.reduce_sum(tf.square(predicted - (positions + velocities)), axis=-1)
            loss = tf.reduce_sum(err * mask) / tf.maximum(tf.reduce_sum(mask), 1.0)
        grads = tape.gradient(loss, self.net.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.net.trainable_variables))
        return loss


def pad_scene(p, v):
    n = p.shape[0]
    pad = [[0, CAPACITY - n], [0, 0]]
    return tf.pad(p, pad), tf.pad(v, pad), tf.pad(tf.ones([n]), [[0, CAPACITY - n]])


# --- oracle ---
_KEEP = []
WRAP = False


def _scene(n):
    p = tf.reshape(tf.range(3 * n, dtype=tf.float32), [n, 3]) / (3.0 * n)
    return pad_scene(p, p * 0.1)


def ENTRY():
    t = FluidTrainer()
    _KEEP.append(t)
    return t.train, _scene(6)


def ALT_ARGS():
    return [_scene(7), _scene(9)]
