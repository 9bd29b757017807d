"""Source: https://github.com/tensorflow/tensorflow/issues/119382 (a near miss: the per-anchor weights are kept aligned with the gathered anchors and the negatives are zeroed with `tf.where` instead of being dropped by `tf.boolean_mask`, so every shape is static and the jit-compiled gradient compiles). Anchor-matching regression loss weighting positive anchors."""
import tensorflow as tf


def positive_anchor_loss(pred_offsets, anchor_index, is_positive, anchor_weights):
    picked = tf.gather(pred_offsets, anchor_index)
    weighted = tf.where(is_positive, tf.square(picked) * anchor_weights, tf.zeros_like(picked))
    return tf.reduce_sum(weighted)


class Trainer:
    def __init__(self):
        self.head = tf.keras.layers.Dense(1)
        self.head.build([None, 3])

    @tf.function(jit_compile=True)
    def loss_and_grads(self, features, anchor_index, is_positive, anchor_weights):
        with tf.GradientTape() as tape:
            pred = tf.squeeze(self.head(features), -1)
            loss = positive_anchor_loss(pred, anchor_index, is_positive, anchor_weights)
        return loss, tape.gradient(loss, self.head.trainable_variables)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    features = tf.reshape(tf.linspace(-2.0, 2.0, 15), [5, 3])
    return t.loss_and_grads, (features, tf.constant([4, 1, 3]), tf.constant([True, False, True]), tf.constant([1.0, 0.0, -2.0]))
