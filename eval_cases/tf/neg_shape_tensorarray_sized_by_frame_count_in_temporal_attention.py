"""Source: https://github.com/tensorflow/tensorflow/issues/44073 (`size` of a `tf.TensorArray` works as a Python int but the reporter's model broke when it came from `tf.shape(...)`; the failure was only seen on several GPUs. Here a temporal-attention block sizes its per-frame TensorArray with the frame count from `tf.shape` of a statically shaped input under XLA on one CPU: the report does not reproduce there)."""
import tensorflow as tf


class TemporalAttention(tf.keras.Model):
    def __init__(self, num_frames):
        super().__init__()
        self.t_att_1 = tf.keras.layers.Conv2D(4, 3, padding="same")
        self.t_att_2 = tf.keras.layers.Conv2D(4, 3, padding="same")
        self.center = num_frames // 2

    def call(self, aligned):
        shape = tf.shape(aligned)
        b, n, h, w, c = shape[0], shape[1], shape[2], shape[3], shape[4]
        emb_ref = self.t_att_1(aligned[:, self.center])
        emb = self.t_att_2(tf.reshape(aligned, [-1, h, w, c]))
        emb = tf.reshape(emb, [b, n, h, w, -1])
        correlations = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            correlations = correlations.write(i, tf.reduce_sum(emb[:, i] * emb_ref, axis=-1))
        prob = tf.sigmoid(tf.transpose(correlations.stack(), [1, 0, 2, 3]))
        return aligned * prob[..., None]


# --- oracle ---
_KEEP = []


def ENTRY():
    m = TemporalAttention(3)
    m(tf.zeros([1, 3, 4, 4, 2]))
    _KEEP.append(m)
    x = tf.reshape(tf.range(96, dtype=tf.float32), [1, 3, 4, 4, 2]) / 96.0
    return m, (x,)
