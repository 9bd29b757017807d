"""Source: https://github.com/tensorflow/tensorflow/issues/53294 ("compiled tf.function and tf.data.Iterator error": calling `next` on a `tf.data.Iterator` inside a `jit_compile=True` function fails, while the same function without compilation works). Here a streaming trainer whose jit-compiled step takes the dataset iterator and pulls its own batch with `next(iterator)` before the forward and backward pass."""
import numpy as np
import tensorflow as tf


class StreamTrainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Dense(8, activation="relu"),
            tf.keras.layers.Dense(1),
        ])
        self.model.build([None, 4])
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, iterator):
        features, targets = next(iterator)  # XLA: op
        with tf.GradientTape() as tape:
            preds = self.model(features, training=True)
            loss = tf.reduce_mean(tf.square(preds - targets))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def make_dataset():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 4)).astype("float32")
    y = rng.normal(size=(16, 1)).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = StreamTrainer()
    _KEEP.append(t)
    return t.train_step, (iter(make_dataset()),)
