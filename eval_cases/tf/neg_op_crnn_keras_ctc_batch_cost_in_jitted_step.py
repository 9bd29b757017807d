"""Source: https://github.com/tensorflow/tpu/issues/692 (a near miss: the CRNN's CTC loss computed with `tf.nn.ctc_loss` on dense labels and logits, which TF 2.21 builds from ordinary ops on CPU and XLA compiles, instead of the Keras backend `ctc_batch_cost` and its `CTCLoss` op). Small CRNN text recogniser, jit-compiled training step."""
import tensorflow as tf


class CRNNTrainer:
    def __init__(self, num_classes=6):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv1D(8, 3, padding="same", activation="relu"),
            tf.keras.layers.Dense(num_classes),
        ])
        self.model.build([None, 10, 4])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, features, labels, input_length, label_length):
        with tf.GradientTape() as tape:
            logits = self.model(features)
            loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, label_length=label_length, logit_length=input_length,
                                                 logits_time_major=False, blank_index=-1))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = CRNNTrainer()
    _KEEP.append(t)
    features = tf.reshape(tf.range(80, dtype=tf.float32), [2, 10, 4]) / 80.0
    labels = tf.constant([[1, 2, 3], [2, 2, 1]])
    return t.train_step, (features, labels, tf.fill([2], 10), tf.fill([2], 3))
