"""Source: https://github.com/keras-team/keras-hub/issues/662 ("Allow dynamic padding in preprocessor": padding each batch only to its longest sequence saves compute, but with XLA every new batch length is a new input shape, so the jit-compiled step is traced and compiled again; the maintainers' answer is to pad to a few fixed bucket lengths). Here a text classifier's jit-compiled training step fed batches padded to their own longest example."""
import tensorflow as tf


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


def pad_to_longest(sequences):
    longest = max(len(s) for s in sequences)
    return tf.constant([s + [0] * (longest - len(s)) for s in sequences])  # XLA: retrace


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, (pad_to_longest([[3, 7, 9], [4, 2]]), tf.constant([1, 0]))


def ALT_ARGS():
    return [(pad_to_longest([[5, 6, 1, 8, 2], [9]]), tf.constant([0, 1])),
            (pad_to_longest([[1, 2, 3, 4, 5, 6, 7], [8, 8]]), tf.constant([1, 1]))]
