"""Driver: transformers' TFRobertaForMaskedLM from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote."""
from _tiny import entry_for
from transformers import RobertaConfig, TFRobertaForMaskedLM
from transformers.models.roberta import modeling_tf_roberta

TRACE_FILE = modeling_tf_roberta.__file__


def ENTRY():
    config = RobertaConfig(
        vocab_size=64, hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
        max_position_embeddings=40
    )
    return entry_for(TFRobertaForMaskedLM(config))
