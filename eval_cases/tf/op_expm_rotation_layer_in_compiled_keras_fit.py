"""Source: https://github.com/tensorflow/tensorflow/issues/77693 ("Gradients of tf.linalg.expm not supported with JIT compilation": the reporter's existing training code broke once Keras compiled models with XLA, because the `expm` gradient needs a fixed tensor list size). Here a Keras layer that rotates 3-D points by `expm` of a learned skew-symmetric matrix, in a model compiled with `jit_compile=True` and trained with `train_on_batch`."""
import tensorflow as tf


class LearnedRotation(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.omega = self.add_weight(name="omega", shape=(3,), initializer="zeros")

    def call(self, points):
        w = self.omega
        zero = tf.zeros_like(w[0])
        k = tf.stack([tf.stack([zero, -w[2], w[1]]), tf.stack([w[2], zero, -w[0]]), tf.stack([-w[1], w[0], zero])])
        return tf.matmul(points, tf.linalg.expm(k), transpose_b=True)  # XLA: op


def build_model():
    inputs = tf.keras.Input(shape=(5, 3))
    outputs = tf.keras.layers.Flatten()(LearnedRotation()(inputs))
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="sgd", loss="mse", jit_compile=True)
    return model


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    model = build_model()
    _KEEP.append(model)

    def fit_batch(points, targets):
        return model.train_on_batch(points, targets)

    points = tf.reshape(tf.range(2 * 15, dtype=tf.float32), [2, 5, 3]) / 30.0
    return fit_batch, (points, tf.reshape(tf.reverse(points, axis=[2]), [2, 15]))
