"""Source: https://github.com/tensorflow/tensorflow/issues/18103 ("Keras TimeDistributed wrapper around GlobalMaxPooling2D error with TPU": a TPU-compiled video model whose frames are pooled by `TimeDistributed(GlobalMaxPooling2D())` fails to build). Here a small video classifier pools each frame with `TimeDistributed(GlobalMaxPooling2D())` inside a jit-compiled train step; on TF 2.21 XLA:CPU it compiles and matches eager (the TF 1.x TPU failure does not reproduce)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.TimeDistributed(tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")),
            tf.keras.layers.TimeDistributed(tf.keras.layers.GlobalMaxPooling2D()),
            tf.keras.layers.GlobalAveragePooling1D(),
            tf.keras.layers.Dense(2),
        ])
        self.model.build((None, 3, 6, 6, 1))
        self.opt = tf.keras.optimizers.SGD(0.05)
        self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function(jit_compile=True)
    def train_step(self, clips, labels):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(labels, self.model(clips, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    clips = tf.reshape(tf.range(2 * 3 * 6 * 6, dtype=tf.float32) / 216.0, [2, 3, 6, 6, 1])
    return trainer.train_step, (clips, tf.constant([1, 0]))


WRAP = False
