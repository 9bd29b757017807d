"""Source: https://github.com/tensorflow/tensorflow/issues/30820 (the XLA-compatible form of the wide part: fixed-width, padded id slots with a validity mask, looked up with `tf.gather` and summed; no sparse ops inside the compiled function). Wide-and-deep click model under `jit_compile`."""
import tensorflow as tf

NUM_IDS = 50


class WideAndDeep(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.wide_weights = tf.Variable(tf.random.stateless_normal([NUM_IDS, 1], seed=[5, 6]) * 0.1)
        self.deep = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])

    def call(self, dense_features, id_slots, id_valid):
        looked_up = tf.gather(self.wide_weights, id_slots)[..., 0]
        wide = tf.reduce_sum(looked_up * tf.cast(id_valid, looked_up.dtype), axis=1, keepdims=True)
        return tf.sigmoid(wide + self.deep(dense_features))


model = WideAndDeep()


@tf.function(jit_compile=True)
def predict(dense_features, id_slots, id_valid):
    return model(dense_features, id_slots, id_valid)


# --- oracle ---
WRAP = False


def ENTRY():
    dense = tf.constant([[0.2, 0.5, 0.1], [0.9, 0.3, 0.4]])
    slots = tf.constant([[3, 17, 0, 0], [42, 0, 0, 0]])
    valid = tf.constant([[True, True, False, False], [True, False, False, False]])
    return predict, (dense, slots, valid)
