"""Source: https://github.com/tensorflow/tensorflow/issues/25548 ("No registered 'DecodeJpeg' OpKernel for XLA_CPU_JIT": an InceptionV4 serving graph that starts from encoded JPEG bytes cannot be compiled with XLA; the decoding is a host-side string op). Here a Keras image classifier's serving function that takes JPEG bytes, decodes and resizes them, all under `jit_compile=True`."""
import tensorflow as tf


class Classifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(4, 3, activation="relu")
        self.pool = tf.keras.layers.GlobalAveragePooling2D()
        self.head = tf.keras.layers.Dense(5)

    def call(self, images):
        return self.head(self.pool(self.conv(images)))


model = Classifier()


@tf.function(jit_compile=True)
def serve(jpeg_bytes):
    image = tf.io.decode_jpeg(jpeg_bytes, channels=3)  # XLA: op
    image = tf.image.resize(tf.cast(image, tf.float32) / 255.0, [16, 16])
    return tf.nn.softmax(model(image[tf.newaxis]))


# --- oracle ---
WRAP = False


def ENTRY():
    pixels = tf.cast(tf.reshape(tf.range(20 * 20 * 3) % 256, [20, 20, 3]), tf.uint8)
    return serve, (tf.io.encode_jpeg(pixels),)
