"""Source: https://github.com/tensorflow/tensorflow/issues/29825 ("Shape change during TPU training": the compiled program is built again for the smaller last batch of each epoch when the number of examples is not divisible by the batch size). This was written as the fix twin of `retrace_lstm_window_classifier_last_partial_batch_of_epoch`: the windows are batched with `drop_remainder=True`, so every batch holds 6 windows. The oracle (TF 2.21 CPU, tf-keras) labelled it `recompile`: the step was not traced again on the second batch (alt_retraces 0) but XLA compiled it again (alt_compiles 1). Probes run while labelling, outside the corpus: replaying the first batch itself compiled again on every call (three more calls, three more compilations, no retrace); the same step with RMSprop replaced by SGD also compiled again; with the `LSTM` layer replaced by `Flatten` the step compiled once. So the recompilation comes from the Keras `LSTM` layer inside the jit-compiled step (the `# XLA:` line), not from the batches; the file was renamed from its `neg_` name after labelling (the rename moved its split), its code unchanged. (Activity classifier over accelerometer windows.)"""
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
        self.lstm = tf.keras.layers.LSTM(16)  # XLA: retrace
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
    return tf.data.Dataset.from_tensor_slices((xs, ys)).batch(batch_size, drop_remainder=True)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, tuple(next(iter(make_dataset())))


def ALT_ARGS():
    return [tuple(b) for b in list(make_dataset())[1:]]
