"""Source: https://github.com/keras-team/keras-cv/pull/2406 (the XLA-friendly alternative to turning `jit_compile` off: pad every point cloud to a fixed maximum number of points with a validity mask, so the compiled step sees one shape). Point-pillar encoder whose jit-compiled step receives point clouds padded to a fixed size."""
import numpy as np
import tensorflow as tf

GRID = 4
CHANNELS = 6
MAX_POINTS = 64


class PillarEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.point_net = tf.keras.layers.Dense(CHANNELS, activation="relu")
        self.head = tf.keras.layers.Dense(1)

    def call(self, points, valid):
        cell = tf.cast(tf.floor(points[..., 0] * GRID), tf.int32) * GRID + tf.cast(tf.floor(points[..., 1] * GRID), tf.int32)
        feats = self.point_net(points) * tf.cast(valid, tf.float32)[..., None]
        pooled = tf.math.unsorted_segment_max(tf.reshape(feats, [-1, CHANNELS]),
                                              tf.reshape(cell + GRID * GRID * tf.range(tf.shape(points)[0])[:, None], [-1]),
                                              num_segments=points.shape[0] * GRID * GRID)
        bev = tf.reshape(tf.maximum(pooled, 0.0), [points.shape[0], GRID * GRID * CHANNELS])
        return self.head(bev)


class Trainer:
    def __init__(self):
        self.model = PillarEncoder()
        self.model(tf.zeros([1, MAX_POINTS, 4]), tf.zeros([1, MAX_POINTS], tf.bool))
        self.optimizer = tf.keras.optimizers.SGD(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, points, valid, target):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(points, valid) - target))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def load_scene(num_points):
    rng = np.random.default_rng(num_points)
    points = np.zeros((1, MAX_POINTS, 4), "float32")
    points[0, :num_points] = rng.uniform(0.0, 0.999, size=(num_points, 4))
    valid = (np.arange(MAX_POINTS) < num_points)[None, :]
    return tf.constant(points), tf.constant(valid), tf.constant([[float(num_points) / 100.0]])


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, load_scene(37)


def ALT_ARGS():
    return [load_scene(52), load_scene(44)]
