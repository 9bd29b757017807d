"""Source: https://github.com/keras-team/keras/issues/20243 (the fix in keras-team/keras#20296, "avoid modifying the incoming data": the train step copies the feature dict before popping the label and the sample weight, so the compiled step does not modify its Python input)."""
import tensorflow as tf


class RankingTrainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(6, activation="relu"), tf.keras.layers.Dense(1)])
        self.model.build([None, 4])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, batch):
        batch = dict(batch)
        label = batch.pop("label")
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
