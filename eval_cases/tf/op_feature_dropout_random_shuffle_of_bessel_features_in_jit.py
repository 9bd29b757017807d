"""Source: https://github.com/openxla/xla/issues/44838 (XLA CPU: a graph with `RandomShuffle` over Bessel-function features fails `tf.function(jit_compile=True)` with "FailedPrecondition: Expected comparison type SIGNED", while eager succeeds). On TF 2.21 CPU the compile stops earlier, at `bessel_k0`: no XLA kernel is registered for BesselK0. Here a radial-basis feature layer shuffles its Bessel features as a permutation augmentation inside a jit-compiled forward pass."""
import tensorflow as tf


class RadialBesselFeatures(tf.keras.layers.Layer):
    def __init__(self, num_features=8):
        super().__init__()
        self.num_features = num_features
        self.head = tf.keras.layers.Dense(1)

    def call(self, distances, training=False):
        frequencies = tf.range(1, self.num_features + 1, dtype=tf.float32)
        radial = tf.math.special.bessel_k0(tf.math.real(distances[:, None] * frequencies[None, :] + 0.1))  # XLA: op
        if training:
            radial = tf.transpose(tf.random.shuffle(tf.transpose(radial), seed=3))
        return self.head(radial)


LAYER = RadialBesselFeatures()


@tf.function(jit_compile=True)
def forward(distances):
    return LAYER(distances, training=True)


# --- oracle ---
COMPARE = False


def ENTRY():
    return forward, (tf.linspace(0.5, 3.0, 15),)
