"""Ops without XLA kernels inside the model, and the same ops where they are fine (input pipeline)."""
import numpy as np
import tensorflow as tf


def _jitter(x):
    return (x.numpy() + np.random.normal(size=x.shape)).astype(np.float32)


def make_dataset(images):
    ds = tf.data.Dataset.from_tensor_slices(images)
    ds = ds.map(lambda x: tf.py_function(_jitter, [x], tf.float32))
    return ds.map(lambda x: tf.strings.as_string(tf.reduce_sum(x))).batch(4)


class Upsampler(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(3, 3, padding="same")
        self.ids = tf.keras.layers.StringLookup(vocabulary=["a", "b"])

    def call(self, images, tags):
        h, w = images.shape[1], images.shape[2]
        smooth = tf.image.resize(images, [2 * h, 2 * w], method="bilinear")
        sharp = tf.image.resize(images, [2 * h, 2 * w], method="bicubic")  # error: XLA310
        tag_ids = self.ids(tags)  # error: XLA311
        tf.print("upsampled", tf.shape(sharp))  # error: XLA307
        return self.conv(smooth + sharp), tag_ids


def noisy_loss(y_true, y_pred):
    noise = tf.py_function(_jitter, [y_pred], tf.float32)  # error: XLA306
    return tf.reduce_mean(tf.square(y_true - y_pred - noise))


def build():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss=noisy_loss)
    return model


@tf.function(jit_compile=True)
def feature_cross(country, device):
    names = tf.strings.to_number(tf.constant(["1.0", "2.0"]), out_type=tf.float32)
    crossed = tf.strings.join([country, device], separator="x")  # error: XLA308
    order = tf.random.shuffle(tf.range(5))  # an int32 1-D shuffle compiles and runs (only float fails)
    return names, crossed, order
