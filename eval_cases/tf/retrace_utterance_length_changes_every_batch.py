"""Source: https://github.com/tensorflow/tensorflow/issues/62198 (XLA auto-clustering / jit_scope recompiles at every batch of a speech model whose inputs vary only in the time dimension: each new utterance length is a new shape)."""
import tensorflow as tf


class SpeechTrainer:
    def __init__(self):
        self.encoder = tf.keras.Sequential([tf.keras.layers.Conv1D(8, 3, padding="same", activation="relu"),
                                            tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(4)])
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def train_step(self, features, labels):
        with tf.GradientTape() as tape:
            logits = self.encoder(features)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.encoder.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.encoder.trainable_variables))
        return loss

    def fit(self, batches):
        return [self.train_step(f, y) for f, y in batches]  # XLA: retrace


# --- oracle ---
_KEEP = []
WRAP = False


def _batch(frames):
    return tf.reshape(tf.range(2 * frames * 5, dtype=tf.float32), [2, frames, 5]) / (10.0 * frames), tf.constant([1, 3])


def ENTRY():
    t = SpeechTrainer()
    _KEEP.append(t)
    return t.train_step, _batch(12)


def ALT_ARGS():
    return [_batch(15), _batch(9)]
