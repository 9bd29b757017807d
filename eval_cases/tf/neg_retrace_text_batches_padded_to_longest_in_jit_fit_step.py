"""Source: https://github.com/keras-team/keras-hub/issues/662 (the answer to dynamic padding under XLA: pad every batch to a fixed sequence length (or a few buckets), so the jit-compiled step sees one input shape and compiles once). Text classifier training step fed batches padded to a fixed length."""
import tensorflow as tf

SEQUENCE_LENGTH = 8


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Embedding(50, 8),
            tf.keras.layers.GlobalAveragePooling1D(),
            tf.keras.layers.Dense(2),
        ])
        self.model.build([None, None])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, token_ids, labels):
        with tf.GradientTape() as tape:
            logits = self.model(token_ids)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def pad_to_length(sequences, length=SEQUENCE_LENGTH):
    return tf.constant([s[:length] + [0] * (length - len(s[:length])) for s in sequences])


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, (pad_to_length([[3, 7, 9], [4, 2]]), tf.constant([1, 0]))


def ALT_ARGS():
    return [(pad_to_length([[5, 6, 1, 8, 2], [9]]), tf.constant([0, 1])),
            (pad_to_length([[1, 2, 3, 4, 5, 6, 7], [8, 8]]), tf.constant([1, 1]))]
