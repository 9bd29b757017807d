"""Source: https://github.com/tensorflow/addons/issues/2057 ("tfa.image.rotate does not work on TPU": rotating training images by a random angle inside the TPU step needs the projective-transform op, which is registered only on the host and has no XLA kernel). Here the same augmentation written with `tf.raw_ops.ImageProjectiveTransformV3` (what `tfa.image.rotate` and Keras' `RandomRotation` lower to) inside a jit-compiled training step, as a TPU step is compiled."""
import math

import tensorflow as tf


def rotation_transform(angles, height, width):
    cos, sin = tf.cos(angles), tf.sin(angles)
    x_off = ((width - 1) - (cos * (width - 1) - sin * (height - 1))) / 2.0
    y_off = ((height - 1) - (sin * (width - 1) + cos * (height - 1))) / 2.0
    zeros = tf.zeros_like(angles)
    return tf.stack([cos, -sin, x_off, sin, cos, y_off, zeros, zeros], axis=1)


def random_rotate(images, max_angle=0.3):
    n, h, w = images.shape[0], images.shape[1], images.shape[2]
    angles = tf.random.uniform([n], -max_angle, max_angle)
    return tf.raw_ops.ImageProjectiveTransformV3(  # XLA: op
        images=images, transforms=rotation_transform(angles, float(h), float(w)),
        output_shape=[h, w], fill_value=0.0, interpolation="BILINEAR", fill_mode="CONSTANT")


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(3),
        ])
        self.model.build([None, 8, 8, 1])
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, images, labels):
        images = random_rotate(images, max_angle=math.pi / 10)
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False
COMPARE = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 64, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    return t.train_step, (images, tf.constant([0, 2]))
