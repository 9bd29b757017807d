"""Source: https://github.com/pltrdy/rouge/issues/52 (OperatorNotAllowedInGraphError from model.fit with a ROUGE metric: a pure-Python scorer is applied to the token tensors inside the traced step; here the overlap is computed on Python lists taken from .numpy())."""
import tensorflow as tf


def rouge1_recall(reference_ids, candidate_ids):
    scores = []
    for ref, cand in zip(reference_ids.numpy().tolist(), candidate_ids.numpy().tolist()):  # XLA: host
        ref_set = set(t for t in ref if t != 0)
        scores.append(len(ref_set & set(cand)) / max(len(ref_set), 1))
    return tf.constant(sum(scores) / len(scores))


def eval_step(reference_ids, logits):
    predicted = tf.argmax(logits, axis=-1, output_type=tf.int32)
    return rouge1_recall(reference_ids, predicted)


# --- oracle ---
def ENTRY():
    refs = tf.constant([[3, 5, 7, 0], [2, 2, 9, 4]])
    logits = tf.one_hot(tf.constant([[3, 1, 7, 0], [2, 8, 9, 9]]), 10)
    return eval_step, (refs, logits)
