"""Source: https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/control_flow.md (a Python list appended to inside a loop that AutoGraph stages is not carried out of it; the documented fix is a tf.TensorArray), not rebuilt from one report: written for fixes20 (issue 11, the fixer) with the fixer, as a patch encoder projects each patch of a sequence with a Dense layer inside a `tf.range` loop and stacks the tokens, compiled with jit_compile."""
import tensorflow as tf


class PatchEncoder(tf.keras.Model):
    def __init__(self, patch=2):
        super().__init__()
        self.patch = patch
        self.proj = tf.keras.layers.Dense(3)
        self.head = tf.keras.layers.Dense(2)

    @tf.function(jit_compile=True)
    def call(self, inputs):
        num_patches = tf.shape(inputs)[1] // self.patch
        tokens = []
        for i in tf.range(num_patches):
            patch = tf.reshape(inputs[:, i * self.patch:(i + 1) * self.patch], [-1, self.patch])
            tokens.append(tf.nn.relu(self.proj(patch)))  # XLA: cond
        return self.head(tf.reduce_mean(tf.stack(tokens, axis=1), axis=1))


# --- oracle ---
WRAP = False


def ENTRY():
    model = PatchEncoder()
    x = tf.reshape(tf.range(24, dtype=tf.float32), [2, 12]) / 24.0
    return model, (x,)
