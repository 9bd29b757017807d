"""Masked losses and sizes computed inside compiled code."""
import tensorflow as tf

NUM_LABELS = 7


@tf.function(jit_compile=True)
def token_classification_loss(labels, logits):
    keep = labels != -100
    active_logits = tf.boolean_mask(logits, keep)
    active_labels = labels[keep]
    per_token = tf.nn.sparse_softmax_cross_entropy_with_logits(active_labels, active_logits)
    return tf.reduce_mean(per_token)


@tf.function(jit_compile=True)
def last_real_token(hidden, attention_mask):
    real = hidden[attention_mask > 0]
    first = real[0]
    return first, real[-1]  # error: XLA201


@tf.function(jit_compile=True)
def discounted_valid_rewards(rewards, done):
    kept = tf.boolean_mask(rewards, done < 1)
    return tf.math.cumsum(kept, reverse=True)  # error: XLA202


@tf.function(jit_compile=True)
def label_histogram(labels):
    by_one_hot = tf.reduce_sum(tf.one_hot(labels, NUM_LABELS), axis=0)
    by_count = tf.math.bincount(labels, minlength=NUM_LABELS, maxlength=NUM_LABELS)  # error: XLA204
    return by_one_hot, by_count


@tf.function(jit_compile=True)
def adaptive_targets(labels, probs):
    n_classes = tf.reduce_max(labels) + 1
    targets = tf.one_hot(labels, n_classes)  # error: XLA205
    return targets * probs[:, :n_classes]  # error: XLA205


@tf.function(jit_compile=True)
def trim_to_longest(token_ids, lengths):
    longest = tf.reduce_max(lengths)
    batch = tf.shape(token_ids)[0]
    flat = tf.reshape(token_ids, [batch * tf.shape(token_ids)[1]])
    del flat
    collected = tf.TensorArray(tf.int32, size=0, dynamic_size=True)  # error: XLA203
    return token_ids[:, :longest], collected  # error: XLA205


class SegmentPool(tf.keras.layers.Layer):
    def call(self, node_states, graph_ids, num_graphs=4):
        dense = tf.math.unsorted_segment_mean(node_states, graph_ids, num_segments=num_graphs)
        sparse = tf.math.segment_mean(node_states, graph_ids)  # error: XLA204
        return dense, sparse


@tf.function(jit_compile=True)
def grow(seq, w):
    for _ in tf.range(3):
        nxt = tf.reduce_sum(seq[:, -1:] * w, axis=1, keepdims=True)
        seq = tf.concat([seq, nxt], axis=1)  # error: XLA206
    return seq
