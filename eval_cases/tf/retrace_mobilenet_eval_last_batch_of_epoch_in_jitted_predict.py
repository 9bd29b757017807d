"""Source: https://github.com/tensorflow/tensorflow/issues/31867 ("Bug on last batch of first epoch using TPU with pretrained-model": a MobileNetV2 trained on TPU stops at the last, smaller batch of the epoch; XLA is "asked to propagate a dynamic dimension" through BatchNorm and ReLU6). On CPU the smaller last batch is a new input shape for the compiled function. Here a MobileNet-style classifier evaluated with a jit-compiled predict function over an epoch of images split into batches of 8 with a remainder."""
import numpy as np
import tensorflow as tf


def build_classifier():
    inputs = tf.keras.Input([16, 16, 3])
    x = tf.keras.layers.Conv2D(8, 3, strides=2, padding="same", use_bias=False)(inputs)
    x = tf.keras.layers.BatchNormalization()(x)
    x = tf.keras.layers.ReLU(6.0)(x)
    x = tf.keras.layers.DepthwiseConv2D(3, padding="same", use_bias=False)(x)
    x = tf.keras.layers.BatchNormalization()(x)
    x = tf.keras.layers.ReLU(6.0)(x)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(4)(x))


model = build_classifier()
predict = tf.function(lambda images: model(images, training=False), jit_compile=True)


def epoch_batches(num_images=20, batch_size=8):
    images = np.random.default_rng(0).uniform(size=(num_images, 16, 16, 3)).astype("float32")
    return [images[i:i + batch_size] for i in range(0, num_images, batch_size)]  # XLA: retrace


def evaluate():
    return np.concatenate([predict(tf.constant(b)).numpy() for b in epoch_batches()])


# --- oracle ---
WRAP = False


def ENTRY():
    return predict, (tf.constant(epoch_batches()[0]),)


def ALT_ARGS():
    return [(tf.constant(b),) for b in epoch_batches()[1:]]
