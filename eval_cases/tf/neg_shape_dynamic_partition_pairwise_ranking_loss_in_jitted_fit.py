"""Source: https://github.com/tensorflow/tensorflow/issues/14655 ("Support dynamic partition in loss function": a pairwise AUC-style loss splits the predictions into positives and negatives with `tf.dynamic_partition` and compares every pair; the compiled Keras model failed although the loss worked on its own). Here a click model trained with `Model.compile(jit_compile=True)` uses that loss: the partitions' sizes depend on the labels of the batch, and the pair matrix is built from them. On TF 2.21 XLA:CPU it compiles (bounded-dynamic partitions) and matches eager: the TF 1.3 failure does not reproduce."""
import tensorflow as tf


def pairwise_ranking_loss(y_true, y_pred):
    labels = tf.cast(tf.reshape(y_true, [-1]), tf.int32)
    negatives, positives = tf.dynamic_partition(tf.reshape(y_pred, [-1]), labels, 2)
    margins = negatives[:, None] - positives[None, :]
    return tf.reduce_mean(tf.sigmoid(margins))


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
        self.model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=pairwise_ranking_loss, jit_compile=True)
        self.model.build((None, 3))

    def fit_batch(self, features, clicks):
        return self.model.train_on_batch(features, clicks)


# --- oracle ---
_KEEP = []


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    features = tf.reshape(tf.range(6 * 3, dtype=tf.float32) / 18.0, [6, 3])
    clicks = tf.constant([[1.0], [0.0], [0.0], [1.0], [0.0], [1.0]])
    return trainer.fit_batch, (features, clicks)


WRAP = False
