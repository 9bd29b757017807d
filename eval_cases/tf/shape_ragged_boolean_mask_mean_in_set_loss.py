"""Source: https://github.com/tensorflow/tensorflow/issues/33012 ("tf.function fails with tf.ragged.boolean_mask": a function that masks each row with `tf.ragged.boolean_mask` and reduces the ragged rows works eagerly but not as a traced function; under `jit_compile=True` the ragged rows' sizes come from the mask's values, which XLA cannot compile). Here a set-scoring loss that averages each example's valid candidate scores with a ragged boolean mask inside a jit-compiled training step."""
import tensorflow as tf


def valid_candidate_loss(scores, valid):
    picked = tf.ragged.boolean_mask(scores, valid)
    per_example = tf.reduce_mean(picked, axis=1)  # XLA: shape
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
