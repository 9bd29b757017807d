"""Source: https://github.com/tensorflow/tensorflow/issues/119375 (TensorArray(size=0, dynamic_size=True) inside while_loop silently discards writes under jit_compile): a greedy decode loop collecting tokens."""
import tensorflow as tf


def greedy_decode(logits_table, start):
    tokens = tf.TensorArray(tf.int32, size=0, dynamic_size=True)  # XLA: shape

    def body(i, tok, ta):
        nxt = tf.argmax(logits_table[tok], output_type=tf.int32)
        return i + 1, nxt, ta.write(i, nxt)

    _, _, tokens = tf.while_loop(lambda i, tok, ta: i < 4, body, (tf.constant(0), start, tokens))
    return tokens.stack()


# --- oracle ---
def ENTRY():
    table = tf.constant([[0.1, 0.9, 0.0], [0.2, 0.1, 0.7], [0.8, 0.1, 0.1]])
    return greedy_decode, (table, tf.constant(0))
