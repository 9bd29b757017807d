"""Greedy decoding that passes the growing Python list of generated tokens to the compiled step.

Rebuilt from jax-ml/jax#837 (https://github.com/jax-ml/jax/issues/837) in its TF form: "when
sampling from a transformer sequence model, the context size initially grows", so every step
has a new input structure (here: a list one tensor longer) and compiles again.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def next_token(embeddings, tokens):
    context = tf.reduce_mean(tf.gather(embeddings, tf.stack(tokens)), axis=0)
    return tf.argmax(tf.linalg.matvec(embeddings, context), output_type=tf.int32)


def decode(embeddings, start, steps):
    tokens = [start]
    for _ in range(steps):
        tokens.append(next_token(embeddings, tokens))  # XLA: retrace
    return tf.stack(tokens)


# --- oracle ---
WRAP = False
_EMB = tf.reshape(tf.range(12, dtype=tf.float32) / 10.0, [4, 3])


def ENTRY():
    return decode, (_EMB, tf.constant(1), 1)


def ALT_ARGS():
    return [(_EMB, tf.constant(2), 3)]
