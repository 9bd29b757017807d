"""Source: https://github.com/keras-team/keras-cv/issues/402 ("[AutoAugment] Add Rotate operation": the existing Rotate implementations, tensorflow-addons' and tensorflow/tpu's autoaugment, go through `ImageProjectiveTransformV3`, which "will fail with XLA", so a Rotate inside a compiled augmentation step cannot be used). Here an AutoAugment-style Rotate builds the rotation matrix per image and calls `ImageProjectiveTransformV3` inside the jit-compiled training step. (Image classifier trained with an AutoAugment rotation inside the compiled step.)"""
import math

import tensorflow as tf


def rotation_transforms(angles, height, width):
    cos, sin = tf.cos(angles), tf.sin(angles)
    x_off = ((width - 1) - (cos * (width - 1) - sin * (height - 1))) / 2.0
    y_off = ((height - 1) - (sin * (width - 1) + cos * (height - 1))) / 2.0
    zeros = tf.zeros_like(angles)
    return tf.stack([cos, -sin, x_off, sin, cos, y_off, zeros, zeros], axis=1)


def rotate(images, angles):
    height, width = images.shape[1], images.shape[2]
    transforms = rotation_transforms(angles, float(height), float(width))
    return tf.raw_ops.ImageProjectiveTransformV3(  # XLA: op
        images=images, transforms=transforms, output_shape=tf.constant([height, width]),
        fill_value=0.0, interpolation="BILINEAR", fill_mode="CONSTANT")


class Trainer:
    def __init__(self, magnitude=0.3):
        self.model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, activation="relu"),
                                          tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(4)])
        self.optimizer = tf.keras.optimizers.SGD(0.05)
        self.max_angle = magnitude * math.pi / 6.0

    @tf.function(jit_compile=True)
    def train_step(self, images, labels, strength):
        angles = self.max_angle * strength
        augmented = rotate(images, angles)
        with tf.GradientTape() as tape:
            logits = self.model(augmented, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(4 * 12 * 12 * 3, dtype=tf.float32), [4, 12, 12, 3]) / 1728.0
    return t.train_step, (images, tf.constant([0, 1, 2, 3]), tf.constant([1.0, -0.5, 0.25, -1.0]))
