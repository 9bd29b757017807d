"""Batches padded to their longest sequence with pad_sequences (no maxlen) feed a jit step.

Rebuilt from facebookresearch/fairseq#4198 (https://github.com/facebookresearch/fairseq/issues/4198):
"the continuous recompilation was happening because FairSeq was feeding the XLA model dynamic
inputs ... fixed by padding the inputs to a max sequence length", in its Keras form.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def embed_mean(ids, table):
    mask = tf.cast(ids > 0, tf.float32)[..., None]
    return tf.reduce_sum(tf.gather(table, ids) * mask, axis=1) / tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)


def encode_batches(batches, table):
    out = []
    for seqs in batches:
        ids = tf.keras.preprocessing.sequence.pad_sequences(seqs, padding="post")  # XLA: retrace
        out.append(embed_mean(tf.constant(ids), table))
    return out


# --- oracle ---
WRAP = False
_TABLE = tf.reshape(tf.range(20, dtype=tf.float32), [10, 2])


def ENTRY():
    return encode_batches, ([[[1, 2, 3], [4, 5]]], _TABLE)


def ALT_ARGS():
    return [([[[1, 2], [4]], [[1, 2, 3, 4, 5], [6]]], _TABLE)]
