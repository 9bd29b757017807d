"""Source: https://github.com/tensorflow/tensorflow/issues/31867 (the fix used for TPU training: every batch the same size; here the evaluation pads the last batch up to the batch size and drops the padded predictions). MobileNet-style classifier evaluated with a jit-compiled predict function over padded batches."""
import numpy as np
import tensorflow as tf

BATCH_SIZE = 8


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


def epoch_batches(num_images=20, batch_size=BATCH_SIZE):
    images = np.random.default_rng(0).uniform(size=(num_images, 16, 16, 3)).astype("float32")
    batches = []
    for i in range(0, num_images, batch_size):
        b = images[i:i + batch_size]
        batches.append(np.pad(b, [(0, batch_size - len(b)), (0, 0), (0, 0), (0, 0)]))
    return batches


# --- oracle ---
WRAP = False


def ENTRY():
    return predict, (tf.constant(epoch_batches()[0]),)


def ALT_ARGS():
    return [(tf.constant(b),) for b in epoch_batches()[1:]]
