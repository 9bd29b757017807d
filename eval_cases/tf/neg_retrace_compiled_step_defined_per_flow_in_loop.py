"""Source: https://github.com/htjb/margarine/pull/26 (the fix: each flow's jit-compiled training step is created once, when the ensemble is built, and the training loop only calls it, so later epochs reuse the compiled functions)."""
import tensorflow as tf


class FlowEnsemble:
    def __init__(self, n_flows):
        self.flows = [tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(2)])
                      for _ in range(n_flows)]
        for f in self.flows:
            f.build([None, 2])
        self.optimizers = [tf.keras.optimizers.SGD(0.01) for _ in range(n_flows)]
        self.steps = [self._make_step(f, o) for f, o in zip(self.flows, self.optimizers)]

    def _make_step(self, flow, optimizer):
        @tf.function(jit_compile=True)
        def _training(x):
            with tf.GradientTape() as tape:
                z = flow(x)
                loss = tf.reduce_mean(0.5 * tf.square(z))
            grads = tape.gradient(loss, flow.trainable_variables)
            optimizer.apply_gradients(zip(grads, flow.trainable_variables))
            return loss

        return _training

    def train(self, theta):
        return tf.stack([step(theta) for step in self.steps])


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    e = FlowEnsemble(2)
    _KEEP.append(e)
    return e.train, (tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]) / 8.0,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]) / 16.0,)]
