"""Source: https://github.com/tensorflow/tpu/issues/176 (ResizeNearestNeighbor and ResizeNearestNeighborGrad unsupported on XLA_TPU_JIT; on TF 2.21 XLA:CPU the forward pass compiles but ResizeNearestNeighborGrad still has no kernel, so training an UpSampling2D decoder fails)."""
import tensorflow as tf


def build_segmenter():
    inputs = tf.keras.Input((8, 8, 1))
    x = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(inputs)
    x = tf.keras.layers.UpSampling2D(2, interpolation="nearest")(x)
    outputs = tf.keras.layers.Conv2D(1, 1)(x)
    return tf.keras.Model(inputs, outputs)


class Trainer:
    def __init__(self):
        self.model = build_segmenter()
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, images, masks):
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(masks, logits))
        grads = tape.gradient(loss, self.model.trainable_variables)  # XLA: op
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(128, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    return t.train_step, (images, tf.cast(images > 0.5, tf.float32))
