"""Source: https://github.com/tensorflow/tensorflow/issues/120245 (near miss: XLA accepted out-of-range segment ids that eager rejects; with valid node-to-graph ids, a GNN readout by `tf.math.unsorted_segment_mean` compiles and matches eager)."""
import tensorflow as tf


class GraphReadout(tf.keras.Model):
    def __init__(self, num_graphs=3):
        super().__init__()
        self.num_graphs = num_graphs
        self.node_mlp = tf.keras.layers.Dense(4, activation="relu")
        self.out = tf.keras.layers.Dense(1)

    def call(self, node_features, graph_ids):
        h = self.node_mlp(node_features)
        pooled = tf.math.unsorted_segment_mean(h, graph_ids, num_segments=self.num_graphs)
        return self.out(pooled)


# --- oracle ---
_KEEP = []


def ENTRY():
    model = GraphReadout()
    _KEEP.append(model)
    nodes = tf.reshape(tf.range(18, dtype=tf.float32), [6, 3]) / 18.0
    return model, (nodes, tf.constant([0, 0, 1, 1, 1, 2]))
