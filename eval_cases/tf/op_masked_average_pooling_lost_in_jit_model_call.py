"""Source: https://github.com/keras-team/keras/issues/17655 (the implicit Keras mask does not cross a tf.function-decorated call) and xlacheck/data/keras_masking.json (GlobalAveragePooling1D reads the mask; Masking attaches one). A frame-level audio model pads clips with zero frames, masks them with Masking, and averages the frames inside a model call compiled with tf.function(jit_compile=True): the padding frames are averaged in."""
import tensorflow as tf


masking = tf.keras.layers.Masking(mask_value=0.0)


class ClipPooler(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.pool = tf.keras.layers.GlobalAveragePooling1D()
        self.head = tf.keras.layers.Dense(2, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=5))

    @tf.function(jit_compile=True)
    def call(self, frames):
        return self.head(self.pool(frames))  # XLA: op


pooler = ClipPooler()


def clip_logits(frames):
    return pooler(masking(frames))


# --- oracle ---
def ENTRY():
    frames = tf.constant([[[1.0, 2.0], [3.0, 1.0], [0.0, 0.0], [0.0, 0.0]],
                          [[0.5, 0.5], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]])
    return clip_logits, (frames,)
