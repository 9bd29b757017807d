"""Source: https://github.com/tensorflow/tensorflow/issues/42401 ("Compilation failure: XLA has not implemented dynamic sized slice with non-trival stride yet": a strided slice whose end is a run-time value cannot be compiled). Here the speech encoder keeps every second frame of the whole padded input, `frames[:, ::2]`, and masks the frames past each utterance's length, so every shape in the jit-compiled call is static."""
import tensorflow as tf

FRAMES, FEATS = 10, 4


class SubsamplingEncoder(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(6, activation="tanh")

    def call(self, frames, lengths):
        kept = frames[:, ::2, :]
        kept_len = (lengths + 1) // 2
        mask = tf.sequence_mask(kept_len, maxlen=(FRAMES + 1) // 2, dtype=tf.float32)[..., None]
        pooled = tf.reduce_sum(self.proj(kept) * mask, axis=1)
        return pooled / tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)


encoder = SubsamplingEncoder()
encoder(tf.zeros([2, FRAMES, FEATS]), tf.constant([FRAMES, FRAMES]))


@tf.function(jit_compile=True)
def encode(frames, lengths):
    return encoder(frames, lengths)


# --- oracle ---
def ENTRY():
    frames = tf.reshape(tf.range(2 * FRAMES * FEATS, dtype=tf.float32), [2, FRAMES, FEATS]) / 80.0
    return encode, (frames, tf.constant([7, 5]))
