"""Source: https://github.com/keras-team/tf-keras/issues/99 ("keras.Layers.Embedding fails with XLA and tf.distribute": a model with an `Embedding` layer trained under `tf.distribute.MirroredStrategy` with `jit_compile=True` failed with "Detected unsupported operations when trying to compile graph ... CollectiveGatherV2 (No registered 'CollectiveGatherV2' OpKernel for XLA_GPU_JIT devices"; the embedding's gradient is an `IndexedSlices`, which the strategy aggregates with a gather collective). Here a two-tower recommender with embedding tables is trained with a jit-compiled step run through `strategy.run` under a `MirroredStrategy`. On TF 2.21 CPU the strategy has a single replica (one CPU device), no gather collective is emitted, and the step compiles and runs: the report does not reproduce here, and this case is a negative that says so (it was named as a failing case before labelling). (Two-tower user/item recommender.)"""
import tensorflow as tf

N_USERS = 30
N_ITEMS = 40


class TwoTower(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.users = tf.keras.layers.Embedding(N_USERS, 8)
        self.items = tf.keras.layers.Embedding(N_ITEMS, 8)

    def call(self, user_ids, item_ids):
        return tf.reduce_sum(self.users(user_ids) * self.items(item_ids), axis=-1)


class Trainer:
    def __init__(self):
        self.strategy = tf.distribute.MirroredStrategy()
        with self.strategy.scope():
            self.model = TwoTower()
            self.model(tf.zeros([1], tf.int32), tf.zeros([1], tf.int32))
            self.optimizer = tf.keras.optimizers.Adagrad(0.1)

    def replica_step(self, user_ids, item_ids, clicks):
        with tf.GradientTape() as tape:
            logits = self.model(user_ids, item_ids)
            loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(clicks, logits))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    @tf.function(jit_compile=True)
    def train_step(self, user_ids, item_ids, clicks):
        per_replica = self.strategy.run(self.replica_step, args=(user_ids, item_ids, clicks))
        return self.strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)


def make_batch(seed):
    users = (tf.range(8) * (seed + 3)) % N_USERS
    items = (tf.range(8) * (seed + 5)) % N_ITEMS
    return users, items, tf.cast((users + items) % 2, tf.float32)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, make_batch(0)


def ALT_ARGS():
    return [make_batch(1)]
