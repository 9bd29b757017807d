"""Source: https://github.com/huggingface/transformers/pull/9478 (near miss: the branch tests the static shape from shape_list, a Python int, so only one branch is traced)."""
import tensorflow as tf

MAX_LEN = 3


def shape_list(tensor):
    static = tensor.shape.as_list()
    dynamic = tf.shape(tensor)
    return [dynamic[i] if s is None else s for i, s in enumerate(static)]


class Truncate(tf.keras.layers.Layer):
    def call(self, input_ids):
        if shape_list(input_ids)[1] > MAX_LEN:
            input_ids = input_ids[:, :MAX_LEN]
        return tf.reduce_sum(tf.one_hot(input_ids, 10), axis=1)


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = Truncate()
    _KEEP.append(layer)
    return layer, (tf.constant([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]),)
