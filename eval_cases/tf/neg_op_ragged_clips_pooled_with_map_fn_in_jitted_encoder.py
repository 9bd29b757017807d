"""Source: https://github.com/tensorflow/tensorflow/issues/86043 (a near miss: the clips' frames are pooled with a segment reduction over segment ids computed from the clip lengths, with the number of clips known statically, instead of mapping over a RaggedTensor; XLA compiles it). Video encoder pooling variable-length clips."""
import tensorflow as tf


class ClipEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.frame_proj = tf.keras.layers.Dense(8, activation="relu")
        self.clip_head = tf.keras.layers.Dense(4)

    def call(self, frames, clip_lengths):
        emb = self.frame_proj(frames)
        ends = tf.cumsum(clip_lengths)
        segment_ids = tf.searchsorted(ends, tf.range(tf.shape(frames)[0], dtype=ends.dtype), side="right")
        pooled = tf.math.unsorted_segment_max(emb, segment_ids, num_segments=clip_lengths.shape[0])
        return self.clip_head(pooled)


# --- oracle ---
def ENTRY():
    model = ClipEncoder()
    frames = tf.reshape(tf.range(30, dtype=tf.float32), [10, 3]) / 30.0
    return model, (frames, tf.constant([4, 6], tf.int64))
