"""Source: https://github.com/tensorflow/tensorflow/issues/24296 (K.ctc_batch_cost in a Keras loss fails to compile for XLA devices); near miss: Keras 3's keras.ops.ctc_loss computes the CTC recursion with ordinary ops, so the same OCR train step compiles with jit_compile=True."""
import keras
import tensorflow as tf


class OcrTrainer:
    def __init__(self, classes=5):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(classes)])
        self.opt = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def step(self, frames, labels, frame_lengths, label_lengths):
        with tf.GradientTape() as tape:
            logits = self.model(frames)
            loss = tf.reduce_mean(keras.ops.ctc_loss(labels, logits, label_lengths, frame_lengths, mask_index=0))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = OcrTrainer()
    _KEEP.append(t)
    frames = tf.math.sin(tf.reshape(tf.range(2 * 6 * 3, dtype=tf.float32), [2, 6, 3]))
    labels = tf.constant([[1, 2], [3, 1]])
    return t.step, (frames, labels, tf.constant([6, 6]), tf.constant([2, 2]))
