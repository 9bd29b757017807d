"""Source: https://github.com/tensorflow/tensorflow/issues/61297 ("CTC Loss errors": a CRNN text recognizer trained with a CTC loss under `jit_compile=True` on TPU fails, and without it gives NaN losses). Here the OCR model's jit-compiled train step calls `tf.nn.ctc_loss` with dense labels and explicit label/logit lengths; that form is built from ordinary ops (no `CTCLoss` kernel) and compiles."""
import tensorflow as tf

NUM_CLASSES = 6
FRAMES = 10


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv1D(16, 3, padding="same", activation="relu"),
            tf.keras.layers.Dense(NUM_CLASSES),
        ])
        self.model.build((None, FRAMES, 8))
        self.opt = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def train_step(self, features, labels, label_length):
        batch = tf.shape(features)[0]
        logit_length = tf.fill([batch], FRAMES)
        with tf.GradientTape() as tape:
            logits = self.model(features, training=True)
            loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, label_length, logit_length,
                                                 logits_time_major=False, blank_index=0))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    features = tf.reshape(tf.range(2 * FRAMES * 8, dtype=tf.float32) / 160.0, [2, FRAMES, 8])
    labels = tf.constant([[1, 2, 3, 0], [2, 4, 0, 0]], tf.int32)
    label_length = tf.constant([3, 2], tf.int32)
    return trainer.train_step, (features, labels, label_length)


WRAP = False
