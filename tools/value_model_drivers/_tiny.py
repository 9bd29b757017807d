"""What every driver does with its tiny transformers TF model: build it eagerly on a fixed batch of
token ids, then hand ``tools/measure_value_model.py`` the forward pass to trace (one home for it; the
drivers hold only their model class and config)."""
import tensorflow as tf

IDS = [[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]]


def entry_for(model, decoder_ids=False):
    """``ENTRY()``'s result for ``model``: ``(forward, (ids,))``, the model already built; with
    ``decoder_ids`` the ids are also the decoder's input (encoder-decoder models)."""
    ids = tf.constant(IDS)

    def forward(x):
        extra = {"decoder_input_ids": x} if decoder_ids else {}
        return model(x, training=False, **extra)

    forward(ids)  # built eagerly first, so only the forward pass runs inside the trace
    return forward, (ids,)
