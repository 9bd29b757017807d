"""What the rules need to know before they look at a node, computed once per file.

- :mod:`imports`: one alias table that turns local names into canonical ``tf.xxx`` names;
- :mod:`contexts`: which functions XLA compiles, and whether AutoGraph converts them;
- :mod:`values`: which expressions hold tensor values and which hold static facts.
"""
