"""Source: https://github.com/htjb/margarine/pull/26 (wrapping the training step of each masked autoregressive flow in a jit-compiled `tf.function`: "tensorflow is trying to create the function multiple times... in the for loop", because the compiled step is defined inside the loop over the flows, so every flow and every call traces and compiles a new function)."""
import tensorflow as tf


class FlowEnsemble:
    def __init__(self, n_flows):
        self.flows = [tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(2)])
                      for _ in range(n_flows)]
        for f in self.flows:
            f.build([None, 2])
        self.optimizers = [tf.keras.optimizers.SGD(0.01) for _ in range(n_flows)]

    def train(self, theta):
        losses = []
        for flow, optimizer in zip(self.flows, self.optimizers):
            @tf.function(jit_compile=True)  # XLA: retrace
            def _training(x):
                with tf.GradientTape() as tape:
                    z = flow(x)
                    loss = tf.reduce_mean(0.5 * tf.square(z))
                grads = tape.gradient(loss, flow.trainable_variables)
                optimizer.apply_gradients(zip(grads, flow.trainable_variables))
                return loss

            losses.append(_training(theta))
        return tf.stack(losses)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    e = FlowEnsemble(2)
    _KEEP.append(e)
    return e.train, (tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]) / 8.0,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]) / 16.0,)]
