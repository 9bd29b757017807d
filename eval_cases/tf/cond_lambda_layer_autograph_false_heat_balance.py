"""Source: https://github.com/tensorflow/tensorflow/issues/60604 (a physics post-processing function decorated with `@tf.function(autograph=False)` and used in a Keras Lambda layer branches on a tensor: "Using a symbolic tf.Tensor as a Python bool is not allowed: AutoGraph is disabled in this function")."""
import tensorflow as tf


@tf.function(autograph=False)
def heat_balance(q):
    indoor = q[:, 0:1]
    outdoor = q[:, 1:2]
    flow = (indoor - outdoor) * 0.3
    if tf.reduce_mean(flow) > 0.0:  # XLA: cond
        flow = flow * 0.9
    return tf.concat([indoor - flow, outdoor + flow], axis=1)


class ThermalModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.q = tf.keras.layers.Dense(2)
        self.physics = tf.keras.layers.Lambda(heat_balance, name="physics")

    def call(self, inputs):
        return self.physics(self.q(inputs))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = ThermalModel()
    _KEEP.append(model)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0
    return model, (x,)
