"""Source: https://github.com/tensorflow/agents/issues/760 ("Does TF-Agents not support XLA?": a dynamic step driver wrapped with `common.function(driver.run, jit_compile=True)` fails while writing its `TFUniformReplayBuffer`; the report blames int32 resources placed on the CPU while the step runs on the GPU). Here an RL driver's jit-compiled `run` steps a linear policy and a toy environment in a `tf.range` loop and writes each batch into a uniform replay buffer held in variables (`scatter_nd_update`, an int64 write counter); on XLA:CPU it compiles and matches eager."""
import tensorflow as tf

CAPACITY = 8
OBS_DIM = 3
NUM_STEPS = 3


class UniformReplayBuffer:
    def __init__(self):
        self.observations = tf.Variable(tf.zeros([CAPACITY, OBS_DIM]))
        self.rewards = tf.Variable(tf.zeros([CAPACITY]))
        self.last_id = tf.Variable(tf.constant(-1, tf.int64))

    def add_batch(self, observations, rewards):
        count = tf.shape(observations, out_type=tf.int64)[0]
        ids = (self.last_id + 1 + tf.range(count)) % CAPACITY
        self.observations.scatter_nd_update(ids[:, None], observations)
        self.rewards.scatter_nd_update(ids[:, None], rewards)
        self.last_id.assign_add(count)


class Driver:
    def __init__(self):
        self.policy = tf.keras.layers.Dense(1, kernel_initializer="ones")
        self.policy.build((None, OBS_DIM))
        self.buffer = UniformReplayBuffer()

    @tf.function(jit_compile=True)
    def run(self, observations):
        for _ in tf.range(NUM_STEPS):
            actions = tf.tanh(self.policy(observations))
            observations = 0.9 * observations + 0.1 * actions
            rewards = -tf.reduce_sum(tf.square(observations), axis=-1)
            self.buffer.add_batch(observations, rewards)
        return observations, self.buffer.rewards.read_value()


# --- oracle ---
_KEEP = []


def ENTRY():
    driver = Driver()
    _KEEP.append(driver)
    return driver.run, (tf.reshape(tf.range(2 * OBS_DIM, dtype=tf.float32) / 6.0, [2, OBS_DIM]),)

