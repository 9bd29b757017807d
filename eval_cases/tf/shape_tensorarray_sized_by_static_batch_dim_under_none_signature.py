"""Source: https://github.com/tensorflow/tensorflow/issues/35798 ("[TF2] tf.TensorArray Error with Keras": a layer's `@tf.function` `call` builds `tf.TensorArray(tf.int32, size=x.shape[0])` and loops `for i in tf.range(x.shape[0])`; calling it directly works, `model.predict` fails because the batch dimension is then unknown). Here the same signed-square feature layer is exported as a jit-compiled serving function with a `None` batch dimension in its input signature."""
import tensorflow as tf


class SignedSquare(tf.keras.layers.Layer):
    def call(self, x):
        result = tf.TensorArray(tf.float32, size=x.shape[0])  # XLA: shape
        for i in tf.range(x.shape[0]):
            if x[i] > 0:
                result = result.write(i, x[i] ** 2)
            else:
                result = result.write(i, x[i])
        return result.stack()


layer = SignedSquare()


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)], jit_compile=True)
def serve(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    return serve, (tf.constant([-2.0, -1.0, 0.0, 1.5, 3.0]),)
