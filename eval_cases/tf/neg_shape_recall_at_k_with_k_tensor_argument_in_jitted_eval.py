"""Source: https://github.com/tensorflow/tensorflow/issues/47306 ("TopKV2 InvalidArgumentError: k must be scalar": a ranking evaluation wants `top_k` with a `k` that is not a fixed Python number; `k` decides the output shape, so inside a compiled function it must be a compile-time constant). Here a recommender's recall@k evaluation whose jit-compiled function receives `k` as a tensor argument. Written as the failing case; does not reproduce on TF 2.21 CPU (the jit-compiled function takes the `k` argument as a compile-time constant (specialised on its value), so `top_k` compiles), so it is a negative."""
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


@tf.function(jit_compile=True)
def recall_at_k(user_features, held_out_item, k):
    scores = model(user_features)
    _, top_items = tf.math.top_k(scores, k=k)
    hits = tf.reduce_any(tf.equal(top_items, held_out_item[:, None]), axis=1)
    return tf.reduce_mean(tf.cast(hits, tf.float32))


# --- oracle ---
WRAP = False


def ENTRY():
    users = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0
    return recall_at_k, (users, tf.constant([4, 17, 29]), tf.constant(5))
