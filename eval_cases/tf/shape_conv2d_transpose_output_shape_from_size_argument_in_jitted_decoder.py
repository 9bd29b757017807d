"""Source: https://github.com/tensorflow/tensorflow/issues/19849 ("XLA Compile error: Operation has no attr named '_XlaCompile'": a decoder's `tf.nn.conv2d_transpose` whose `output_shape` is computed at run time fails once XLA compiles the graph). Here a segmentation decoder's jit-compiled upsampling step takes the skip connection's spatial size as an int32 tensor argument and passes it as `output_shape`: the size is an input value, and XLA needs it as a compile-time constant."""
import tensorflow as tf


class UpsampleDecoder:
    def __init__(self):
        self.kernel = tf.Variable(tf.reshape(tf.range(2 * 2 * 3 * 4, dtype=tf.float32) / 48.0, [2, 2, 3, 4]))
        self.fuse = tf.keras.layers.Conv2D(3, 1)
        self.fuse.build((None, None, None, 6))

    @tf.function(jit_compile=True)
    def upsample(self, features, skip, skip_size):
        output_shape = tf.concat([tf.shape(features)[:1], skip_size, [3]], axis=0)
        up = tf.nn.conv2d_transpose(features, self.kernel, output_shape, strides=2)  # XLA: shape
        return self.fuse(tf.concat([up, skip], axis=-1))


# --- oracle ---
_KEEP = []


def ENTRY():
    decoder = UpsampleDecoder()
    _KEEP.append(decoder)
    features = tf.reshape(tf.range(2 * 4 * 4 * 4, dtype=tf.float32) / 128.0, [2, 4, 4, 4])
    skip = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32) / 384.0, [2, 8, 8, 3])
    return decoder.upsample, (features, skip, tf.constant([8, 8], tf.int32))

