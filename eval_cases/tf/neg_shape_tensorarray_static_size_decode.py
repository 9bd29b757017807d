"""Source: https://github.com/tensorflow/tensorflow/issues/119375 (near miss from the report: with a static size the same TensorArray decode is correct under XLA)."""
import tensorflow as tf

STEPS = 4


def greedy_decode(logits_table, start):
    tokens = tf.TensorArray(tf.int32, size=STEPS)

    def body(i, tok, ta):
        nxt = tf.argmax(logits_table[tok], output_type=tf.int32)
        return i + 1, nxt, ta.write(i, nxt)

    _, _, tokens = tf.while_loop(lambda i, tok, ta: i < STEPS, body, (tf.constant(0), start, tokens))
    return tokens.stack()


# --- oracle ---
def ENTRY():
    table = tf.constant([[0.1, 0.9, 0.0], [0.2, 0.1, 0.7], [0.8, 0.1, 0.1]])
    return greedy_decode, (table, tf.constant(0))
