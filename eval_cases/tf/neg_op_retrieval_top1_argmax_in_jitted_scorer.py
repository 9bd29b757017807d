"""Source: https://github.com/tensorflow/tensorflow/issues/61692 (the form the report says is consistent: `index_type=tf.int64`; here the best candidate is taken with `tf.argmax` and `tf.reduce_max`, which need no top-k at all). Retrieval scorer, jit-compiled."""
import tensorflow as tf

NUM_CANDIDATES = 1024


class DualEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.query_tower = tf.keras.layers.Dense(8)

    def call(self, queries, candidates):
        return tf.matmul(self.query_tower(queries), candidates, transpose_b=True)


model = DualEncoder()


@tf.function(jit_compile=True)
def best_candidate_gap(queries, candidates):
    scores = model(queries, candidates)
    top_score = tf.reduce_max(scores, axis=1, keepdims=True)
    top_id = tf.argmax(scores, axis=1, output_type=tf.int64)
    return top_score - tf.reduce_max(scores, axis=1, keepdims=True), top_id


# --- oracle ---
WRAP = False


def ENTRY():
    queries = tf.random.stateless_normal([3, 5], seed=[1, 2])
    candidates = tf.random.stateless_normal([NUM_CANDIDATES, 8], seed=[3, 4])
    return best_candidate_gap, (queries, candidates)
