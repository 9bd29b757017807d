"""Source: https://github.com/tensorflow/tensorflow/issues/88038 ("[XLA] crashes when compiling tf.raw_ops.AssignVariableOp": a model whose `call` returns the result of `tf.raw_ops.AssignVariableOp` runs eagerly, where the op returns None, but the decorated `jit_compile` call fails, since the traced op is an Operation, not a Tensor). Here a running-statistics normalizer layer whose `call` returns its raw state update, in a jit-compiled model."""
import tensorflow as tf


class RunningMean(tf.keras.layers.Layer):
    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, input_shape):
        self.mean = self.add_weight(name="mean", shape=input_shape[-1:], initializer="zeros", trainable=False)

    def call(self, x):
        new_mean = self.momentum * self.mean + (1.0 - self.momentum) * tf.reduce_mean(x, axis=0)
        return tf.raw_ops.AssignVariableOp(resource=self.mean.handle, value=new_mean)  # XLA: host


class Tracker(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.stats = RunningMean()

    @tf.function(jit_compile=True)
    def call(self, x):
        return self.stats(x)


# --- oracle ---
def ENTRY():
    return Tracker(), (tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]),)
