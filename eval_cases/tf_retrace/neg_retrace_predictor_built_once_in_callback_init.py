"""Source: https://github.com/tensorflow/tensorflow/issues/33649 (the fix for a callback that retraced its predictor every epoch: build the predictor once in the callback's `__init__` and reuse it in `on_epoch_end`, so the compiled predict function traces once)."""
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
        self.dev_x, self.dev_y = dev_x, dev_y
        self.predictor = Predictor(classifier)
        self.scores = []

    def on_epoch_end(self, epoch, logs=None):
        preds = self.predictor.predict(self.dev_x)
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
