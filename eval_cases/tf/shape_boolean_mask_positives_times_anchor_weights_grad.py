"""Source: https://github.com/tensorflow/tensorflow/issues/119382 (gathering candidates, selecting them with `tf.boolean_mask` and multiplying by a weight vector sized for the selected entries works eagerly, but under `jit_compile=True` the masked tensor has a padded, bounded-dynamic size and the gradient fails: "Incompatible shapes: [3] vs. [2]"). Here an anchor-matching regression loss that weights the positive anchors' errors by per-positive weights."""
import tensorflow as tf


def positive_anchor_loss(pred_offsets, anchor_index, is_positive, positive_weights):
    picked = tf.gather(pred_offsets, anchor_index)
    positives = tf.boolean_mask(picked, is_positive)
    return tf.reduce_sum(tf.square(positives) * positive_weights)  # XLA: shape


class Trainer:
    def __init__(self):
        self.head = tf.keras.layers.Dense(1)
        self.head.build([None, 3])

    @tf.function(jit_compile=True)
    def loss_and_grads(self, features, anchor_index, is_positive, positive_weights):
        with tf.GradientTape() as tape:
            pred = tf.squeeze(self.head(features), -1)
            loss = positive_anchor_loss(pred, anchor_index, is_positive, positive_weights)
        return loss, tape.gradient(loss, self.head.trainable_variables)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    features = tf.reshape(tf.linspace(-2.0, 2.0, 15), [5, 3])
    return t.loss_and_grads, (features, tf.constant([4, 1, 3]), tf.constant([True, False, True]), tf.constant([1.0, -2.0]))
