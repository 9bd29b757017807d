"""Source: https://github.com/tensorflow/tensorflow/issues/33649 (a Keras callback builds a new `Predictor` around the model in every `on_epoch_end` to score the dev set; each new object brings a new compiled predict function, so every epoch traces and compiles it again)."""
import tensorflow as tf


class Predictor:
    def __init__(self, model):
        self.model = model

    @tf.function(jit_compile=True)
    def predict(self, x):
        return tf.argmax(self.model(x), axis=-1)


class DevF1Callback(tf.keras.callbacks.Callback):
    def __init__(self, dev_x, dev_y, classifier):
        super().__init__()
        self.dev_x, self.dev_y, self.classifier = dev_x, dev_y, classifier
        self.scores = []

    def on_epoch_end(self, epoch, logs=None):
        predictor = Predictor(self.classifier)  # XLA: retrace
        preds = predictor.predict(self.dev_x)
        self.scores.append(tf.reduce_mean(tf.cast(tf.equal(preds, self.dev_y), tf.float32)))


def run_epochs(callback, epochs):
    for epoch in epochs:
        callback.on_epoch_end(epoch)
    return tf.stack(callback.scores[-len(epochs):])


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    cb = DevF1Callback(x, tf.constant([0, 1, 2, 0], tf.int64), model)
    _KEEP.append(cb)
    return lambda epochs: run_epochs(cb, epochs), (range(0, 1),)


def ALT_ARGS():
    return [(range(1, 3),)]
