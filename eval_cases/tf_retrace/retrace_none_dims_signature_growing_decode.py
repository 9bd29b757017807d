"""Greedy decoding that appends each token to the ids and calls a jit-compiled next-token function
declared with `TensorSpec([None, None])`: one trace, but XLA compiles every new length.

Rebuilt from tensorflow/tensorflow#81896 (https://github.com/tensorflow/tensorflow/issues/81896,
"XLA recompilation every time when shape changed": None dims in the signature of a jit_compile
function) in the token-by-token generation loop where the length changes at every step.
"""
import tensorflow as tf

VOCAB = 11
embed = tf.keras.layers.Embedding(VOCAB, 8)
proj = tf.keras.layers.Dense(VOCAB)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)], jit_compile=True)
def next_token(ids):
    h = tf.reduce_mean(embed(ids), axis=1)
    return tf.argmax(proj(h), axis=-1, output_type=tf.int32)


def greedy_decode(prompt, steps):
    ids = prompt
    for _ in range(steps):
        ids = tf.concat([ids, next_token(ids)[:, None]], axis=1)  # XLA: retrace
    return ids


# --- oracle ---
WRAP = False


def ENTRY():
    return greedy_decode, (tf.constant([[1, 2], [3, 4]]), 2)


def ALT_ARGS():
    return [(tf.constant([[5, 6], [7, 8]]), 4)]
