"""Driver: transformers' TFGPT2LMHeadModel from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote. Built eagerly first,
so only the forward pass runs inside the trace."""
import tensorflow as tf
from transformers import GPT2Config, TFGPT2LMHeadModel
from transformers.models.gpt2 import modeling_tf_gpt2

TRACE_FILE = modeling_tf_gpt2.__file__


def ENTRY():
    model = TFGPT2LMHeadModel(GPT2Config(vocab_size=64, n_embd=16, n_layer=2, n_head=2, n_positions=32))
    ids = tf.constant([[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]])
    model(ids, training=False)

    def forward(x):
        return model(x, training=False)

    return forward, (ids,)
