"""Source: https://github.com/tensorflow/tensorflow/issues/61692 ("JIT yields inconsistent results using tf.math.top_k" with `index_type=tf.int32` and `sorted=False`: the top-1 value of a 1024-long row differs from `reduce_max` once compiled; reported on GPU). Here a retrieval scorer that takes each query's best candidate score with `top_k(..., sorted=False, index_type=tf.int32)` over 1024 candidates and subtracts the row maximum as a check, jit-compiled. Written as the failing case; does not reproduce on TF 2.21 CPU (the report is about GPU; on XLA:CPU the unsorted int32 top-1 equals the row maximum), so it is a negative."""
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
    top_score, top_id = tf.math.top_k(scores, 1, sorted=False, index_type=tf.int32)
    return top_score - tf.reduce_max(scores, axis=1, keepdims=True), top_id


# --- oracle ---
WRAP = False


def ENTRY():
    queries = tf.random.stateless_normal([3, 5], seed=[1, 2])
    candidates = tf.random.stateless_normal([NUM_CANDIDATES, 8], seed=[3, 4])
    return best_candidate_gap, (queries, candidates)
