"""Driver: transformers' TFElectraForPreTraining from a tiny config, traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote."""
from _tiny import entry_for
from transformers import ElectraConfig, TFElectraForPreTraining
from transformers.models.electra import modeling_tf_electra

TRACE_FILE = modeling_tf_electra.__file__


def ENTRY():
    config = ElectraConfig(
        vocab_size=64, embedding_size=8, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=32
    )
    return entry_for(TFElectraForPreTraining(config))
