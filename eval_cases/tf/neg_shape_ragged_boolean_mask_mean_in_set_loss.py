"""Source: https://github.com/tensorflow/tensorflow/issues/33012 (the dense form of the masked row mean: multiply by the mask and divide by the per-row count, so no shape depends on the mask's values and the jit-compiled step compiles). Set-scoring loss averaging valid candidate scores with a dense mask."""
import tensorflow as tf


def valid_candidate_loss(scores, valid):
    weights = tf.cast(valid, scores.dtype)
    per_example = tf.reduce_sum(scores * weights, axis=1) / tf.maximum(tf.reduce_sum(weights, axis=1), 1.0)
    return -tf.reduce_mean(per_example)


class Trainer:
    def __init__(self):
        self.scorer = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(5)])
        self.scorer.build([None, 4])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, features, valid):
        with tf.GradientTape() as tape:
            scores = tf.nn.log_softmax(self.scorer(features), axis=-1)
            loss = valid_candidate_loss(scores, valid)
        grads = tape.gradient(loss, self.scorer.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.scorer.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    features = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0
    valid = tf.constant([[True, False, True, False, False], [True, True, True, False, True], [False, True, False, False, False]])
    return t.train_step, (features, valid)
