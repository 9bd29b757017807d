"""Source: https://github.com/tensorflow/tensorflow/issues/47306 (the form that compiles: `k` fixed when the evaluation is built, a Python int closed over by the compiled function, so `top_k` has a static output shape). Recall@k evaluation with k fixed at construction."""
import tensorflow as tf

NUM_ITEMS = 30


class Scorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.user = tf.keras.layers.Dense(8)
        self.items = tf.keras.layers.Embedding(NUM_ITEMS, 8)

    def call(self, user_features):
        return tf.matmul(self.user(user_features), self.items(tf.range(NUM_ITEMS)), transpose_b=True)


model = Scorer()
model(tf.zeros([1, 4]))


def make_recall_at_k(k):
    @tf.function(jit_compile=True)
    def recall_at_k(user_features, held_out_item):
        scores = model(user_features)
        _, top_items = tf.math.top_k(scores, k=k)
        hits = tf.reduce_any(tf.equal(top_items, held_out_item[:, None]), axis=1)
        return tf.reduce_mean(tf.cast(hits, tf.float32))
    return recall_at_k


recall_at_5 = make_recall_at_k(5)


# --- oracle ---
WRAP = False


def ENTRY():
    users = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0
    return recall_at_5, (users, tf.constant([4, 17, 29]))
