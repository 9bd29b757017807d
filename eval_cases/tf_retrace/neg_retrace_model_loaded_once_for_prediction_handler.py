"""Source: https://github.com/tensorflow/tensorflow/issues/43501 (the fix for a handler that reloaded its model on every request: load the model and build its compiled predict function once, then reuse them for each new batch of the same shape)."""
import tensorflow as tf


def build_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])


def save_weights():
    model = build_model()
    model.build([None, 3])
    return [w + 0.1 for w in model.get_weights()]


class PredictionService:
    def __init__(self, weights):
        self.model = build_model()
        self.model.build([None, 3])
        self.model.set_weights(weights)
        self.predict = tf.function(self.model, jit_compile=True)

    def prediction(self, similarities):
        return self.predict(similarities)

    def serve(self, batches):
        return [self.prediction(b) for b in batches]


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    service = PredictionService(save_weights())
    _KEEP.append(service)
    return service.serve, ([tf.ones([2, 3])],)


def ALT_ARGS():
    return [([tf.ones([2, 3]) * 0.5, tf.zeros([2, 3])],)]
