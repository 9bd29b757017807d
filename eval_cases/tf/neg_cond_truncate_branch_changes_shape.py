"""Source: https://github.com/huggingface/transformers/pull/9478 (near miss: Python if/else in a TF forward pass is fine "as long as the output type and shape of each case is the same"; here one branch truncates the sequence, and it compiles because the predicate only reads the static shape, which is folded)."""
import tensorflow as tf

MAX_LEN = 3


class Truncate(tf.keras.layers.Layer):
    def call(self, input_ids):
        if tf.shape(input_ids)[1] > MAX_LEN:
            input_ids = input_ids[:, :MAX_LEN]
        return tf.reduce_sum(tf.one_hot(input_ids, 10), axis=1)


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = Truncate()
    _KEEP.append(layer)
    return layer, (tf.constant([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]),)
