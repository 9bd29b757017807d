"""Source: https://github.com/tensorflow/tensorflow/issues/41915 ("tf.math.reduce_euclidean_norm can not be in tf.function with experimental_compile=True": `EuclideanNorm` has no XLA kernel). Here a metric-learning regressor trained with `Model.compile(jit_compile=True)` whose custom cosine-distance loss normalizes with `tf.math.reduce_euclidean_norm`."""
import tensorflow as tf


def cosine_distance_loss(y_true, y_pred):
    true_norm = tf.math.reduce_euclidean_norm(y_true, axis=-1)  # XLA: op
    pred_norm = tf.math.reduce_euclidean_norm(y_pred, axis=-1)  # XLA: op
    cos = tf.reduce_sum(y_true * y_pred, axis=-1) / (true_norm * pred_norm + 1e-6)
    return 1.0 - cos


def build_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(4)])
    model.compile(optimizer="sgd", loss=cosine_distance_loss, jit_compile=True)
    return model


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    model = build_model()
    _KEEP.append(model)

    def fit_batch(x, y):
        return model.train_on_batch(x, y)

    x = tf.reshape(tf.range(6 * 5, dtype=tf.float32), [6, 5]) / 30.0
    y = tf.reshape(tf.range(6 * 4, dtype=tf.float32), [6, 4]) / 24.0 + 0.1
    return fit_batch, (x, y)
