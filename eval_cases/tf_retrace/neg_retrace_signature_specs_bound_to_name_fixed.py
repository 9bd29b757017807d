"""The same tagger with the sentences padded to one length before the loop, and the signature
declaring it: one shape, one compilation.

Near miss for tensorflow/tensorflow#29075 (https://github.com/tensorflow/tensorflow/issues/29075).
"""
import tensorflow as tf

MAX_LEN = 8
TOKEN_SPEC = tf.TensorSpec(shape=[1, MAX_LEN], dtype=tf.int32)
SIGNATURE = [TOKEN_SPEC]
table = tf.random.stateless_normal([20, 4], seed=[1, 2])


@tf.function(input_signature=SIGNATURE, jit_compile=True)
def tag(ids):
    return tf.argmax(tf.gather(table, ids), axis=-1)


def tag_all(sentences):
    padded = [tf.pad(s, [[0, 0], [0, MAX_LEN - s.shape[1]]]) for s in sentences]
    return [tag(p) for p in padded]


# --- oracle ---
WRAP = False


def ENTRY():
    return tag_all, ([tf.constant([[1, 2, 3]]), tf.constant([[4, 5, 6, 7, 8]])],)


def ALT_ARGS():
    return [([tf.constant([[1, 2]]), tf.constant([[3, 4, 5, 6]])],)]
