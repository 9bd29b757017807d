"""Source: https://github.com/tensorflow/tensorflow/issues/124963 ("UnsortedSegmentSum rejects a bounded-dynamic dimension resolved to its upper bound in tf.gather gradients under jit_compile=True": `tf.gather` followed by `tf.boolean_mask`, differentiated under XLA). Near miss: the rating model's jit-compiled train step gathers item embeddings from the table variable but weights the squared errors by the observed mask instead of dropping rows, so every shape stays static."""
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
            weights = tf.cast(observed, tf.float32)
            predictions = tf.reduce_sum(users * items, axis=-1)
            loss = tf.reduce_sum(weights * tf.square(predictions - ratings)) / tf.maximum(tf.reduce_sum(weights), 1.0)
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

