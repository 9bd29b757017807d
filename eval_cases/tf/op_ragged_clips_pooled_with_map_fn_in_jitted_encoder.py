"""Source: https://github.com/tensorflow/tensorflow/issues/86043 (a pipeline that resizes a RaggedTensor batch of images inside a compiled Keras step fails under XLA with "No registered 'RaggedTensorToVariant' OpKernel for XLA_GPU_JIT": mapping a function over the ragged rows encodes them as variants, which XLA has no kernel for). Here a video encoder that pools each clip's variable number of frame embeddings by mapping over a RaggedTensor."""
import tensorflow as tf


class ClipEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.frame_proj = tf.keras.layers.Dense(8, activation="relu")
        self.clip_head = tf.keras.layers.Dense(4)

    def call(self, frames, clip_lengths):
        emb = self.frame_proj(frames)
        clips = tf.RaggedTensor.from_row_lengths(emb, clip_lengths)
        pooled = tf.map_fn(lambda clip: tf.reduce_max(clip, axis=0), clips,  # XLA: op
                           fn_output_signature=tf.TensorSpec([8], tf.float32))
        return self.clip_head(pooled)


# --- oracle ---
def ENTRY():
    model = ClipEncoder()
    frames = tf.reshape(tf.range(30, dtype=tf.float32), [10, 3]) / 30.0
    return model, (frames, tf.constant([4, 6], tf.int64))
