"""Source: https://github.com/tensorflow/tensorflow/issues/105642 ("XLA compilation fails for loops over symbolic tensor dimensions": `features = tf.shape(x)[1]; for j in range(features): expanded.append(x[:, j:j + 1] * 2.0)` then `tf.concat(expanded, axis=1)` works eagerly and fails under jit_compile). Here a tabular model rescales each feature column with its own scale, collecting the columns in a Python list over `range(tf.shape(x)[1])`, inside the jit-compiled forward pass."""
import tensorflow as tf


class PerFeatureScaler(tf.keras.Model):
    def __init__(self, num_features):
        super().__init__()
        self.scales = tf.Variable(tf.linspace(0.5, 2.0, num_features))
        self.head = tf.keras.layers.Dense(2)

    def call(self, x):
        features = tf.shape(x)[1]
        columns = []
        for j in range(features):  # XLA: shape
            columns.append(x[:, j:j + 1] * self.scales[j])
        scaled = tf.concat(columns, axis=1)
        return self.head(scaled)


model = PerFeatureScaler(5)
model(tf.zeros([1, 5]))


@tf.function(jit_compile=True)
def predict(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return predict, (tf.reshape(tf.range(3 * 5, dtype=tf.float32), [3, 5]) / 15.0,)
