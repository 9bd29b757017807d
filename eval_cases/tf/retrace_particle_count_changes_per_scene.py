"""Source: https://github.com/isl-org/DeepLagrangianFluids/issues/28 ("5 out of the last 5 calls to train triggered tf.function retracing" with some datasets: every scene has a different number of particles, so the compiled step sees a new input shape each time)."""
import tensorflow as tf


class FluidTrainer:
    def __init__(self):
        self.net = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(3)])
        self.optimizer = tf.keras.optimizers.SGD(1e-3)

    @tf.function(jit_compile=True)
    def train(self, positions, velocities):
        with tf.GradientTape() as tape:
            predicted = positions + self.net(tf.concat([positions, velocities], axis=-1))
            loss = tf.reduce_mean(tf.reduce_sum(tf.square(predicted - (positions + velocities)), axis=-1))
        grads = tape.gradient(loss, self.net.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.net.trainable_variables))
        return loss

    def fit(self, scenes):
        return [self.train(p, v) for p, v in scenes]  # XLA: retrace


# --- oracle ---
_KEEP = []
WRAP = False


def _scene(n):
    p = tf.reshape(tf.range(3 * n, dtype=tf.float32), [n, 3]) / (3.0 * n)
    return p, p * 0.1


def ENTRY():
    t = FluidTrainer()
    _KEEP.append(t)
    return t.train, _scene(6)


def ALT_ARGS():
    return [_scene(7), _scene(9)]
