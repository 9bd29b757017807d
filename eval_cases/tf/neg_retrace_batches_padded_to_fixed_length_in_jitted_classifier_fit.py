"""Source: https://github.com/googlecolab/colabtools/issues/1491 ("Compilation failure: Dynamic shape is not supported for non trivial window": the reporter's TPU run breaks when the padded sequence length changes between epochs and works when it stays fixed). Here the text classifier pads every batch to one fixed `MAX_LEN` with `pad_sequences(..., maxlen=MAX_LEN)`, so its jit-compiled train step always sees the same shape."""
import tensorflow as tf

VOCAB, MAX_LEN = 20, 8


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Embedding(VOCAB, 8),
            tf.keras.layers.Conv1D(8, 3, padding="same", activation="relu"),
            tf.keras.layers.GlobalMaxPooling1D(),
            tf.keras.layers.Dense(2),
        ])
        self.model.build((None, MAX_LEN))
        self.opt = tf.keras.optimizers.SGD(0.1)
        self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function(jit_compile=True)
    def train_step(self, ids, labels):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(labels, self.model(ids, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def fit_epoch(trainer, batches):
    for token_lists, labels in batches:
        ids = tf.keras.preprocessing.sequence.pad_sequences(token_lists, maxlen=MAX_LEN, padding="post")
        trainer.train_step(tf.constant(ids), tf.constant(labels))


# --- oracle ---
_KEEP = []


def _batch(offset):
    ids = tf.reshape((tf.range(2 * MAX_LEN) + offset) % VOCAB, [2, MAX_LEN])
    return ids, tf.constant([0, 1])


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    return trainer.train_step, _batch(0)


def ALT_ARGS():
    return [_batch(3), _batch(5)]


WRAP = False
