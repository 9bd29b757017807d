"""Measure XLA325's fact: a jit-compiled forward pass with a staged loop, differentiated by an eager GradientTape.

    TF_USE_LEGACY_KERAS=1 python tools/probe_compiled_loop_gradient.py  # ~1 min; TF 2.21 CPU: dense, py_range OK
"""
import os

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf  # noqa: E402

w = tf.Variable(tf.ones([3, 3]) * 0.1)

def dense(x):
    return tf.matmul(x, w)

def while_carry(x):
    i = tf.constant(0)
    def c(i, h): return i < 3
    def b(i, h): return i + 1, tf.tanh(tf.matmul(h, w))
    return tf.while_loop(c, b, (i, x))[1]

def range_ta(x):
    ta = tf.TensorArray(tf.float32, size=3)
    h = x
    for t in tf.range(3):
        h = tf.tanh(tf.matmul(h, w))
        ta = ta.write(t, h)
    return tf.reduce_sum(ta.stack(), 0)

def range_carry(x):
    h = x
    for _ in tf.range(3):
        h = tf.tanh(tf.matmul(h, w))
    return h

def scan(x):
    return tf.scan(lambda a, e: tf.tanh(tf.matmul(a, w)) + e, tf.stack([x, x, x]))[-1]

def map_fn(x):
    return tf.map_fn(lambda r: tf.tanh(tf.linalg.matvec(w, r)), x)

lstm = tf.keras.layers.LSTM(3)
def lstm_f(x):
    return lstm(tf.stack([x, x], 1))

gru = tf.keras.layers.GRU(3)
def gru_f(x):
    return gru(tf.stack([x, x], 1))

srnn = tf.keras.layers.SimpleRNN(3)
def srnn_f(x):
    return srnn(tf.stack([x, x], 1))

def py_range(x):
    h = x
    for _ in range(3):
        h = tf.tanh(tf.matmul(h, w))
    return h

x = tf.ones([2, 3])
for fn in [dense, while_carry, range_ta, range_carry, scan, map_fn, lstm_f, gru_f, srnn_f, py_range]:
    jf = tf.function(fn, jit_compile=True)
    try:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(jf(x))
        vs = tape.watched_variables()
        g = tape.gradient(y, vs)
        print(fn.__name__, "OK", len(g))
    except Exception as e:
        print(fn.__name__, "FAIL", type(e).__name__, str(e).splitlines()[0][:100])
