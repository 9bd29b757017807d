"""Source: https://github.com/tensorflow/tensorflow/issues/43501 ("5 out of the last 5 calls to predict_function triggered tf.function retracing": a prediction handler reloads the saved model every time new data arrives, so every call brings a new model and a new compiled predict function)."""
import tensorflow as tf


def build_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])


def save_weights():
    model = build_model()
    model.build([None, 3])
    return [w + 0.1 for w in model.get_weights()]


SAVED_WEIGHTS = None


def load_model():
    model = build_model()
    model.build([None, 3])
    model.set_weights(SAVED_WEIGHTS)
    return model


def prediction(similarities):
    model = load_model()  # XLA: retrace
    predict = tf.function(model, jit_compile=True)
    return predict(similarities)


def serve(batches):
    return [prediction(b) for b in batches]


# --- oracle ---
WRAP = False


def ENTRY():
    global SAVED_WEIGHTS
    SAVED_WEIGHTS = save_weights()
    return serve, ([tf.ones([2, 3])],)


def ALT_ARGS():
    return [([tf.ones([2, 3]) * 0.5, tf.zeros([2, 3])],)]
