"""Source: https://github.com/tensorflow/tensorflow/issues/29825 ("Shape change during TPU training": a stacked-LSTM classifier over sliding windows of a time series, trained on a TPU through Keras, logged a recompilation at the end of the first epoch; the answer explains that when the number of examples is not divisible by the batch size the last batch of every epoch has a different size, so the compiled program is built again for it, and that the cache keeps both shapes afterwards). Here an LSTM classifier over sensor windows is trained with a jit-compiled step over `dataset.batch(6)` of 16 windows, so the third batch holds 4 windows. (Activity classifier over accelerometer windows.)"""
import numpy as np
import tensorflow as tf

WINDOW = 8
CHANNELS = 3
CLASSES = 4


def make_windows(series, labels, window=WINDOW):
    xs = np.stack([series[i:i + window] for i in range(len(series) - window)])
    ys = labels[window:]
    return xs.astype("float32"), ys.astype("int32")


class ActivityClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.lstm = tf.keras.layers.LSTM(16)
        self.head = tf.keras.layers.Dense(CLASSES)

    def call(self, x):
        return self.head(self.lstm(x))


class Trainer:
    def __init__(self):
        self.model = ActivityClassifier()
        self.model(tf.zeros([1, WINDOW, CHANNELS]))
        self.optimizer = tf.keras.optimizers.RMSprop(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            logits = self.model(x)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def make_dataset(batch_size=6):
    rng = np.random.default_rng(0)
    series = rng.normal(size=(24, CHANNELS))
    labels = rng.integers(0, CLASSES, size=(24,))
    xs, ys = make_windows(series, labels)
    return tf.data.Dataset.from_tensor_slices((xs, ys)).batch(batch_size)  # XLA: retrace


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, tuple(next(iter(make_dataset())))


def ALT_ARGS():
    return [tuple(b) for b in list(make_dataset())[1:]]
