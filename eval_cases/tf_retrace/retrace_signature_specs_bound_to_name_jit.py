"""A jit-compiled tagger whose input_signature is a module-level list of specs with a None time
dimension, fed sentences of their own length in a loop: it traces once and compiles once per
length.

Rebuilt from tensorflow/tensorflow#29075 (https://github.com/tensorflow/tensorflow/issues/29075):
"tf.function with input_signature slower on unseen sequence length"; here the signature is spelled
through a name, as projects that share specs between functions do.
"""
import tensorflow as tf

TOKEN_SPEC = tf.TensorSpec(shape=[1, None], dtype=tf.int32)
SIGNATURE = [TOKEN_SPEC]
table = tf.random.stateless_normal([20, 4], seed=[1, 2])


@tf.function(input_signature=SIGNATURE, jit_compile=True)
def tag(ids):
    return tf.argmax(tf.gather(table, ids), axis=-1)


def tag_all(sentences):
    return [tag(s) for s in sentences]  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return tag_all, ([tf.constant([[1, 2, 3]]), tf.constant([[4, 5, 6, 7, 8]])],)


def ALT_ARGS():
    return [([tf.constant([[1, 2]]), tf.constant([[3, 4, 5, 6]])],)]
