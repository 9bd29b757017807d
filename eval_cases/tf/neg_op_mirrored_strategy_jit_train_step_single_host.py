"""Source: https://github.com/keras-team/keras-hub/issues/949 ("Default compilation won't work for tf.distribute": a keras-nlp classifier compiled with its default `jit_compile=True` failed to train under `tf.distribute.MirroredStrategy`). Does not reproduce on TF 2.21 with a one-device CPU strategy: a custom jit-compiled step that calls `strategy.run` and applies the gradients compiles. A small classifier trained this way."""
import tensorflow as tf


class DistributedTrainer:
    def __init__(self):
        self.strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
        with self.strategy.scope():
            self.model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
            self.model.build([None, 4])
            self.optimizer = tf.keras.optimizers.Adam(1e-3)

    def _replica_step(self, features, labels):
        with tf.GradientTape() as tape:
            logits = self.model(features, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    @tf.function(jit_compile=True)
    def train_step(self, features, labels):
        per_replica = self.strategy.run(self._replica_step, args=(features, labels))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = DistributedTrainer()
    _KEEP.append(t)
    features = tf.reshape(tf.range(16, dtype=tf.float32), [4, 4]) / 16.0
    return t.train_step, (features, tf.constant([0, 1, 2, 1]))
