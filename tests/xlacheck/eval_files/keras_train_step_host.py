"""A custom Keras training loop: host reads inside the compiled step, and the eager loop outside it."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K


class WarmupClassifier(tf.keras.Model):
    def __init__(self, num_classes=5, warmup=100):
        super().__init__()
        self.warmup = warmup
        self.body = tf.keras.layers.Dense(32, activation="relu")
        self.head = tf.keras.layers.Dense(num_classes)
        self.seen = tf.Variable(0.0, trainable=False)
        self.history = []

    def call(self, features, training=False):
        hidden = self.body(features)
        if training:
            hidden = tf.nn.dropout(hidden, rate=0.1)
        return self.head(hidden)

    def train_step(self, data):
        features, labels = data
        with tf.GradientTape() as tape:
            logits = self(features, training=True)
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
            loss = tf.reduce_mean(per_example)
        grads = tape.gradient(loss, self.trainable_variables)
        scale = K.get_value(self.seen) / self.warmup  # error: XLA305
        lr_now = self.optimizer.learning_rate.numpy()  # error: XLA301
        spread = np.std(per_example)  # preview: XLA304
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.seen.assign_add(1.0)
        return {"loss": loss, "scale": scale, "lr": lr_now, "spread": spread}

    def test_step(self, data):
        features, labels = data
        logits = self(features, training=False)
        correct = tf.cast(tf.argmax(logits, axis=-1, output_type=labels.dtype) == labels, tf.float32)
        if tf.executing_eagerly():
            self.history.append(float(tf.reduce_mean(correct).numpy()))
        return {"accuracy": tf.reduce_mean(correct)}


def evaluate(model, batches):
    """Plain Python loop around the compiled model: host reads are fine here."""
    scores = []
    for features, labels in batches:
        logits = model(features, training=False)
        scores.append(np.mean(logits.numpy().argmax(-1) == labels.numpy()))
    return float(np.mean(scores))


class RunningMae(tf.keras.metrics.Metric):
    def __init__(self, **kwargs):
        super().__init__(name="running_mae", **kwargs)
        self.total = self.add_weight(name="total", initializer="zeros")
        self.count = self.add_weight(name="count", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        err = tf.abs(tf.cast(y_true, tf.float32) - y_pred)
        self.total.assign_add(tf.reduce_sum(err))
        self.count.assign_add(tf.cast(tf.size(err), tf.float32))
        worst = err.numpy().max()  # error: XLA301
        return worst

    def result(self):
        return self.total / self.count
