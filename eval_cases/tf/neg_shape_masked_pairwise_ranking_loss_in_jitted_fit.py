"""Source: https://github.com/tensorflow/tensorflow/issues/14655 ("Support dynamic partition in loss function": a pairwise AUC-style loss built with `tf.dynamic_partition` failed in the compiled Keras model). Near miss: the click model trained with `Model.compile(jit_compile=True)` compares every pair of the batch and weights the negative-positive pairs with masks built from the labels, so no shape depends on the labels."""
import tensorflow as tf


def pairwise_ranking_loss(y_true, y_pred):
    labels = tf.reshape(y_true, [-1])
    scores = tf.reshape(y_pred, [-1])
    pair_weights = (1.0 - labels)[:, None] * labels[None, :]
    margins = scores[:, None] - scores[None, :]
    return tf.reduce_sum(pair_weights * tf.sigmoid(margins)) / tf.maximum(tf.reduce_sum(pair_weights), 1.0)


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
