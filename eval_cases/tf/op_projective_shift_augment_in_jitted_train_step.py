"""Source: https://github.com/tensorflow/tensorflow/issues/55194 (request for an XLA kernel of `ImageProjectiveTransformV3`: a translation written with the raw op inside `tf.function(jit_compile=True)` fails with "No registered 'ImageProjectiveTransformV3' OpKernel for XLA_CPU_JIT"). Here a classifier's training step shifts each image by per-example offsets from the input pipeline with the projective-transform op."""
import tensorflow as tf


class ShiftAugment(tf.keras.layers.Layer):
    def call(self, images, shifts):
        n = tf.shape(images)[0]
        ones = tf.ones([n, 1])
        zeros = tf.zeros([n, 1])
        transforms = tf.concat([ones, zeros, -shifts[:, :1], zeros, ones, -shifts[:, 1:], zeros, zeros], axis=1)
        return tf.raw_ops.ImageProjectiveTransformV3(  # XLA: op
            images=images, transforms=transforms, output_shape=tf.shape(images)[1:3],
            fill_value=0.0, interpolation="BILINEAR", fill_mode="CONSTANT")


class Trainer:
    def __init__(self):
        self.augment = ShiftAugment()
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(3),
        ])
        self.model.build([None, 8, 8, 1])
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, images, shifts, labels):
        images = self.augment(images, shifts)
        with tf.GradientTape() as tape:
            logits = self.model(images)
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
    images = tf.reshape(tf.range(128, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    shifts = tf.constant([[1.0, 0.0], [-1.0, 2.0]])
    return t.train_step, (images, shifts, tf.constant([0, 2]))
