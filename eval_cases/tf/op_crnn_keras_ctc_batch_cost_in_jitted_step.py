"""Source: https://github.com/tensorflow/tpu/issues/692 ("Error in running CRNN on TPU": a Keras CRNN trained with `K.ctc_batch_cost` as its loss fails to compile for the TPU, because the `CTCLoss` op it builds has no XLA kernel). Here a small CRNN text recogniser whose jit-compiled training step uses the Keras backend CTC cost."""
import tensorflow as tf

K = tf.keras.backend


class CRNNTrainer:
    def __init__(self, num_classes=6):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv1D(8, 3, padding="same", activation="relu"),
            tf.keras.layers.Dense(num_classes, activation="softmax"),
        ])
        self.model.build([None, 10, 4])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, features, labels, input_length, label_length):
        with tf.GradientTape() as tape:
            y_pred = self.model(features)
            loss = tf.reduce_mean(K.ctc_batch_cost(labels, y_pred, input_length, label_length))  # XLA: op
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
    return t.train_step, (features, labels, tf.fill([2, 1], 10), tf.fill([2, 1], 3))
