"""Source: https://github.com/tensorflow/tensorflow/issues/42401 ("Compilation failure: XLA has not implemented dynamic sized slice with non-trival stride yet": `model.predict` on TPU fails on a strided slice whose end is only known at run time). Here a speech encoder keeps every second frame up to the longest valid utterance of the batch, `frames[:, :max_len:2]`, inside its jit-compiled call, so the strided slice's size depends on the data. Does not reproduce on TF 2.21 CPU: the strided slice with a run-time end compiles (bounded dynamic size) and matches eager, so this is a negative (TPU verdicts may differ)."""
import tensorflow as tf

FRAMES, FEATS = 10, 4


class SubsamplingEncoder(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(6, activation="tanh")

    def call(self, frames, lengths):
        max_len = tf.reduce_max(lengths)
        kept = frames[:, :max_len:2, :]
        return tf.reduce_mean(self.proj(kept), axis=1)


encoder = SubsamplingEncoder()
encoder(tf.zeros([2, FRAMES, FEATS]), tf.constant([FRAMES, FRAMES]))


@tf.function(jit_compile=True)
def encode(frames, lengths):
    return encoder(frames, lengths)


# --- oracle ---
def ENTRY():
    frames = tf.reshape(tf.range(2 * FRAMES * FEATS, dtype=tf.float32), [2, FRAMES, FEATS]) / 80.0
    return encode, (frames, tf.constant([7, 5]))
