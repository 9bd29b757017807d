"""Source: https://github.com/tensorflow/tensorflow/issues/25548 (the split that compiles: decode the JPEG bytes on the host in a plain function, and jit-compile only the numeric part, resize and model, which receives a float image). Keras image classifier with a host-side decoder in front of a jit-compiled predict function."""
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
def predict(image):
    image = tf.image.resize(image, [16, 16])
    return tf.nn.softmax(model(image[tf.newaxis]))


def serve(jpeg_bytes):
    image = tf.cast(tf.io.decode_jpeg(jpeg_bytes, channels=3), tf.float32) / 255.0
    return predict(image)


# --- oracle ---
WRAP = False


def ENTRY():
    pixels = tf.cast(tf.reshape(tf.range(20 * 20 * 3) % 256, [20, 20, 3]), tf.uint8)
    return serve, (tf.io.encode_jpeg(pixels),)
