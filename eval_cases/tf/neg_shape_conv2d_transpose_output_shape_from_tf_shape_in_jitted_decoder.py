"""Source: https://github.com/tensorflow/tensorflow/issues/19849 ("XLA Compile error: Operation has no attr named '_XlaCompile'": `tf.nn.conv2d_transpose` with `output_shape=tf.shape(...)` failed once XLA compiled the TF 1.8 graph). Near miss: the segmentation decoder's jit-compiled upsampling step builds `output_shape` from `tf.shape` of its tensors, which XLA knows when it compiles, so it compiles and matches eager on TF 2.21."""
import tensorflow as tf


class UpsampleDecoder:
    def __init__(self):
        self.kernel = tf.Variable(tf.reshape(tf.range(2 * 2 * 3 * 4, dtype=tf.float32) / 48.0, [2, 2, 3, 4]))
        self.fuse = tf.keras.layers.Conv2D(3, 1)
        self.fuse.build((None, None, None, 6))

    @tf.function(jit_compile=True)
    def upsample(self, features, skip):
        output_shape = tf.concat([tf.shape(features)[:1], tf.shape(skip)[1:3], [3]], axis=0)
        up = tf.nn.conv2d_transpose(features, self.kernel, output_shape, strides=2)
        return self.fuse(tf.concat([up, skip], axis=-1))


# --- oracle ---
_KEEP = []


def ENTRY():
    decoder = UpsampleDecoder()
    _KEEP.append(decoder)
    features = tf.reshape(tf.range(2 * 4 * 4 * 4, dtype=tf.float32) / 128.0, [2, 4, 4, 4])
    skip = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32) / 384.0, [2, 8, 8, 3])
    return decoder.upsample, (features, skip)

