"""Source: https://github.com/tensorflow/tensorflow/issues/118701 ("XLA FusedBatchNormV3 produces negative variance and NaN output" for inputs with a large constant offset). The near miss: the known sea-level offset is removed from the pressure readings before the `BatchNormalization` layer, so the one-pass variance does not cancel, in the same jit-compiled forward pass."""
import tensorflow as tf

SEA_LEVEL_PA = 101325.0


class PressureNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.norm = tf.keras.layers.BatchNormalization()
        self.conv = tf.keras.layers.Conv2D(2, 3, padding="same")

    def call(self, grid, training=False):
        return self.conv(self.norm(grid - SEA_LEVEL_PA, training=training))


net = PressureNet()


@tf.function(jit_compile=True)
def forward(grid):
    return net(grid, training=True)


# --- oracle ---
WRAP = False


def ENTRY():
    noise = tf.random.stateless_normal([2, 4, 4, 8], seed=[118, 701])
    return forward, (101325.0 + 5.0 * noise,)
