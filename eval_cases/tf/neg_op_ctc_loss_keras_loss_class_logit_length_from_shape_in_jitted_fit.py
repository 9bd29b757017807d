"""Source: https://github.com/tensorflow/tensorflow/issues/38234 ("ctc_loss compilation failure on TPU": a custom `tf.keras.losses.Loss` that fills the logit and label lengths from `tf.shape` and calls `tf.nn.ctc_loss` fails TPU compilation with "Dynamic input dimension to reshape that is both splitted and combined is not supported"). Here the same loss class is used in a jit-compiled train step on fixed-size batches; on TF 2.21 XLA:CPU the dense-label `tf.nn.ctc_loss` compiles and matches eager (the TPU failure does not reproduce)."""
import tensorflow as tf

NUM_CLASSES = 7


class CTCLoss(tf.keras.losses.Loss):
    def __init__(self, name="ctc"):
        super().__init__(reduction=tf.keras.losses.Reduction.SUM, name=name)

    def call(self, y_true, y_pred):
        y_true = tf.cast(y_true, tf.int32)
        logit_length = tf.fill([tf.shape(y_pred)[0]], tf.shape(y_pred)[1])
        label_length = tf.fill([tf.shape(y_true)[0]], tf.shape(y_true)[1])
        return tf.nn.ctc_loss(y_true, y_pred, label_length, logit_length,
                              logits_time_major=False, blank_index=-1)


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.GRU(12, return_sequences=True),
            tf.keras.layers.Dense(NUM_CLASSES),
        ])
        self.model.build((None, 9, 5))
        self.loss_fn = CTCLoss()
        self.opt = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    x = tf.reshape(tf.range(2 * 9 * 5, dtype=tf.float32) / 90.0, [2, 9, 5])
    y = tf.constant([[1, 2, 3], [4, 4, 5]], tf.int32)
    return trainer.train_step, (x, y)


WRAP = False
