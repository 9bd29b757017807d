"""Source: https://github.com/tensorflow/tensorflow/issues/124963 ("UnsortedSegmentSum rejects a bounded-dynamic dimension resolved to its upper bound in tf.gather gradients under jit_compile=True": differentiating `tf.gather` followed by `tf.boolean_mask` densifies the gather gradient through `UnsortedSegmentSum`, whose XLA kernel meets the bounded-dynamic size of the mask). Here a rating model's jit-compiled train step gathers item embeddings from a table variable, keeps only the observed ratings with `tf.boolean_mask` and differentiates through both. On TF 2.21 XLA:CPU it compiles and matches eager (the bounded-dynamic `UnsortedSegmentSum` failure does not reproduce here)."""
import tensorflow as tf

NUM_ITEMS = 6
DIM = 4


class Trainer:
    def __init__(self):
        self.item_table = tf.Variable(tf.reshape(tf.range(NUM_ITEMS * DIM, dtype=tf.float32) / 40.0, [NUM_ITEMS, DIM]))
        self.user_tower = tf.keras.layers.Dense(DIM)
        self.user_tower.build((None, 3))
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, user_features, item_ids, observed, ratings):
        variables = [self.item_table] + self.user_tower.trainable_variables
        with tf.GradientTape() as tape:
            items = tf.gather(self.item_table, item_ids)
            users = self.user_tower(user_features)
            items = tf.boolean_mask(items, observed)
            users = tf.boolean_mask(users, observed)
            targets = tf.boolean_mask(ratings, observed)
            predictions = tf.reduce_sum(users * items, axis=-1)
            loss = tf.reduce_mean(tf.square(predictions - targets))
        grads = tape.gradient(loss, variables)
        self.opt.apply_gradients(zip(grads, variables))
        return loss


# --- oracle ---
_KEEP = []


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    users = tf.reshape(tf.range(5 * 3, dtype=tf.float32) / 15.0, [5, 3])
    item_ids = tf.constant([4, 1, 3, 1, 0], tf.int32)
    observed = tf.constant([True, False, True, True, False])
    ratings = tf.constant([1.0, 0.0, 0.5, 2.0, 0.0])
    return trainer.train_step, (users, item_ids, observed, ratings)

