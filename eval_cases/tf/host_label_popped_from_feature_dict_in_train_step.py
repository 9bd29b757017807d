"""Source: https://github.com/keras-team/keras/issues/20243 (fixed by keras-team/keras#20296: `CompileLoss` popped unused entries from the incoming data dict inside the jit-compiled TensorFlow step; the fix stops mutating the incoming data). Here a user's train step pops the label and the sample weight out of the feature dict it receives; `tf.function` refuses a step that modifies its Python input arguments."""
import tensorflow as tf


class RankingTrainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(6, activation="relu"), tf.keras.layers.Dense(1)])
        self.model.build([None, 4])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, batch):
        label = batch.pop("label")  # XLA: host
        weight = batch.pop("sample_weight")
        features = tf.concat([batch["user"], batch["item"]], axis=-1)
        with tf.GradientTape() as tape:
            pred = self.model(features)
            loss = tf.reduce_sum(weight * tf.square(pred - label)) / tf.reduce_sum(weight)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = RankingTrainer()
    _KEEP.append(t)
    batch = {
        "user": tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]) / 6.0,
        "item": tf.ones([3, 2]),
        "label": tf.constant([[1.0], [0.0], [1.0]]),
        "sample_weight": tf.constant([[1.0], [2.0], [1.0]]),
    }
    return t.train_step, (batch,)
