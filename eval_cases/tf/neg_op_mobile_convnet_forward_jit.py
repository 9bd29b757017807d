"""Source: https://github.com/keras-team/tf-keras/issues/212 (near miss: wrapping a MobileNet-style Keras model's forward pass in tf.function(jit_compile=True) gives the same outputs as predict and compiles; depthwise/pointwise convolutions, batch norm and hard-swish all have XLA kernels)."""
import tensorflow as tf


def build_mobile_block():
    inputs = tf.keras.Input((8, 8, 3))
    x = tf.keras.layers.Conv2D(8, 3, strides=2, padding="same", use_bias=False)(inputs)
    x = tf.keras.layers.BatchNormalization()(x)
    x = tf.keras.layers.Activation(lambda t: t * tf.nn.relu6(t + 3.0) / 6.0)(x)
    x = tf.keras.layers.DepthwiseConv2D(3, padding="same", use_bias=False)(x)
    x = tf.keras.layers.BatchNormalization()(x)
    x = tf.keras.layers.Conv2D(8, 1)(x)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(3)(x))


mobilenet = build_mobile_block()
model_call_fn = tf.function(mobilenet, jit_compile=True)


def infer(images):
    return model_call_fn(images, training=False)


# --- oracle ---
def ENTRY():
    return infer, (tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3]) / 384.0,)
