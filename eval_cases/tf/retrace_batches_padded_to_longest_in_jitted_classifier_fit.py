"""Source: https://github.com/googlecolab/colabtools/issues/1491 ("Compilation failure: Dynamic shape is not supported for non trivial window": a transformer trained on TPU pads its sequences to a length chosen from the data at the start of every epoch; each new length is a new input shape for the compiled step). Here a text classifier pads each batch to its longest sequence with `pad_sequences` (no `maxlen`) before calling its jit-compiled train step, so every new length compiles again."""
import tensorflow as tf

VOCAB = 20


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Embedding(VOCAB, 8),
            tf.keras.layers.Conv1D(8, 3, padding="same", activation="relu"),
            tf.keras.layers.GlobalMaxPooling1D(),
            tf.keras.layers.Dense(2),
        ])
        self.model.build((None, None))
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
        ids = tf.keras.preprocessing.sequence.pad_sequences(token_lists, padding="post")
        trainer.train_step(tf.constant(ids), tf.constant(labels))  # XLA: retrace


# --- oracle ---
_KEEP = []


def _batch(length):
    ids = tf.reshape(tf.range(2 * length) % VOCAB, [2, length])
    return ids, tf.constant([0, 1])


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    return trainer.train_step, _batch(5)


def ALT_ARGS():
    return [_batch(7), _batch(4)]


WRAP = False
