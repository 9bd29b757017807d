"""Source: https://github.com/matterport/Mask_RCNN/issues/1845 (OperatorNotAllowedInGraphError from `if layer.output in self.keras_model.losses`: `in` compares a tensor with each list element and needs a Python bool; here inside a compiled training loss)."""
import tensorflow as tf


class MultiLossModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)

    def call(self, x):
        return self.dense(x)


model = MultiLossModel()


def total_loss(x, y):
    logits = model(x)
    rpn_loss = tf.reduce_mean(tf.square(logits - y))
    mask_loss = tf.reduce_mean(tf.abs(logits - y))
    collected = [rpn_loss]
    if mask_loss in collected:  # XLA: cond
        return tf.add_n(collected)
    collected.append(mask_loss)
    return tf.add_n(collected)


# --- oracle ---
def ENTRY():
    return total_loss, (tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]) / 6.0, tf.ones([3, 2]))
