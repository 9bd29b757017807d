"""Source: https://github.com/keras-team/tf-keras/issues/418 (IntegerLookup fails for XLA: the hash-table lookup has no XLA kernel)."""
import tensorflow as tf

ITEM_IDS = [1001, 1002, 1050, 2001]


class Recommender(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.lookup = tf.keras.layers.IntegerLookup(vocabulary=ITEM_IDS)
        self.embed = tf.keras.layers.Embedding(len(ITEM_IDS) + 1, 4)

    def call(self, item_ids):
        return tf.reduce_mean(self.embed(self.lookup(item_ids)), axis=1)  # XLA: op


# --- oracle ---
_KEEP = []


def ENTRY():
    m = Recommender()
    _KEEP.append(m)
    return m, (tf.constant([[1001, 2001], [1050, 7]]),)
