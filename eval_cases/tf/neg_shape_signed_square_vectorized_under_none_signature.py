"""Source: https://github.com/tensorflow/tensorflow/issues/35798 ("[TF2] tf.TensorArray Error with Keras": a TensorArray sized by `x.shape[0]`, unknown under `model.predict`). The vectorised rewrite of the signed-square feature layer: one `tf.where` over the whole batch, which needs no static batch size, exported as a jit-compiled serving function with a `None` batch dimension."""
import tensorflow as tf


class SignedSquare(tf.keras.layers.Layer):
    def call(self, x):
        return tf.where(x > 0, tf.square(x), x)


layer = SignedSquare()


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)], jit_compile=True)
def serve(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    return serve, (tf.constant([-2.0, -1.0, 0.0, 1.5, 3.0]),)
