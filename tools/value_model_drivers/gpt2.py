"""Driver: transformers' TFGPT2LMHeadModel from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote."""
from _tiny import entry_for
from transformers import GPT2Config, TFGPT2LMHeadModel
from transformers.models.gpt2 import modeling_tf_gpt2

TRACE_FILE = modeling_tf_gpt2.__file__


def ENTRY():
    return entry_for(TFGPT2LMHeadModel(GPT2Config(vocab_size=64, n_embd=16, n_layer=2, n_head=2, n_positions=32)))
