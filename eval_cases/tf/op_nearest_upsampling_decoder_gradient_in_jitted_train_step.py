"""Source: https://github.com/tensorflow/tensorflow/pull/62301 ("[TF2XLA] Support ResizeNearestNeighborGrad": training models that upsample with nearest-neighbour resizing cannot be XLA-compiled because the gradient op `ResizeNearestNeighborGrad` has no tf2xla kernel; the forward resize compiles). Here a small U-Net-style segmentation decoder that upsamples with `UpSampling2D` (nearest) and is trained in a jit-compiled step."""
import tensorflow as tf


def build_segmenter():
    inputs = tf.keras.Input(shape=(8, 8, 1))
    x = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(inputs)
    x = tf.keras.layers.UpSampling2D(2)(x)  # XLA: op
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
