"""Source: https://github.com/tensorflow/tensorflow/pull/62301 ("[TF2XLA] Support ResizeNearestNeighborGrad": until the gradient kernel exists, nearest upsampling cannot be trained under XLA). The usual replacement in a compiled training step: a learned `Conv2DTranspose` upsampling, whose gradient is a convolution. The same small segmentation decoder trained in a jit-compiled step."""
import tensorflow as tf


def build_segmenter():
    inputs = tf.keras.Input(shape=(8, 8, 1))
    x = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(inputs)
    x = tf.keras.layers.Conv2DTranspose(4, 2, strides=2, padding="same")(x)
    outputs = tf.keras.layers.Conv2D(2, 1)(x)
    return tf.keras.Model(inputs, outputs)


class Trainer:
    def __init__(self):
        self.model = build_segmenter()
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, images, masks):
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(masks, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 64, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    masks = tf.cast(images > 0.5, tf.int32)[..., 0]
    return t.train_step, (images, masks)
