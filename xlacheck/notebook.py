"""Jupyter notebooks (``.ipynb``): lint the code cells as one module, report ``cell N`` positions.

The code cells are joined into one Python text (so an import in cell 1 serves cell 5, as in the
kernel), with a boundary comment line between cells. IPython syntax is replaced line for line,
so line numbers stay those of the cell: line magics (``%pip``), shell lines (``!ls``,
``x = !ls``) and help lines (``obj?``, ``?obj``) become ``pass`` plus a marker comment (so an
indented ``!pip install`` still fills its block); the bodies of cell magics other than the
Python ones (``%%time``, ``%%timeit``, ``%%capture``, ...) and continuation lines become a
marker comment. A cell that parses as Python is left as it is, so a docstring line ending in
``?`` is never touched.

Positions: cells are numbered as ruff numbers them (1-based over *all* cells, markdown
included); lines are 1-based within the cell, columns are unchanged. Fixes are applied to the
joined text and written back into each changed cell's ``source`` only: the notebook is
re-serialized in the layout it was read in (indent, key order, ``ensure_ascii``, Colab's
``\\u003c``-style escapes, final newline). Before writing, xlacheck checks that this layout
reproduces the unchanged file byte for byte; a notebook in another layout is linted but not fixed.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from xlacheck.positions import LineTable

SUFFIX = ".ipynb"
# Not Python source, so no user cell holds them at the start of a line (checked on reading).
_BOUNDARY = "#\u241e xlacheck cell boundary"
_PLACEHOLDER = "#\u241f"
_PLACEHOLDER_LINE = re.compile(r"^[ \t]*(?:pass  )?#\u241f(\d+)$")
# Cell magics whose body is Python (IPython runs it); every other cell magic's body is not.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "snakeviz", "memit"})
_LINE_MAGIC = re.compile(r"^\s*(?:[%!?]|[\w.]+\?{1,2}\s*$|[\w.,\s\[\]()*]+=\s*[%!])")
# IPython's automagics and shell aliases written without % (`ls data/`, `pip install x`, `cd ..`):
# only in a cell that does not parse, and only when what follows cannot continue a Python expression.
_AUTOMAGIC = re.compile(
    r"^\s*(?:ls|ll|cd|pwd|cat|cp|mv|rm|mkdir|rmdir|pip|conda|load_ext|reload_ext|matplotlib|pylab|env|"
    r"who|whos|history|run|alias|pushd|popd|autoreload|aimport|tensorboard)"
    r"(?:[ \t]+(?![=(,\[:+*/%<>&|^-]|\.[A-Za-z_])\S[^\n]*)?[ \t]*\r?\n?$"
)


class NotebookError(ValueError):
    """The file is not a notebook we can read: one line, without the path (the caller adds it)."""


@dataclass(frozen=True)
class _Layout:
    indent: int | str | None
    ensure_ascii: bool
    final_newline: bool
    html_escape: bool = False  # Colab writes <, > and & as \u003c, \u003e, \u0026


@dataclass(frozen=True)
class Notebook:
    raw: str  # the file's text
    data: dict[str, Any]
    cells: tuple[int, ...]  # index in data["cells"] of each code cell, in order
    source: str  # the joined Python text that is linted
    starts: tuple[int, ...]  # first line of each code cell in ``source`` (1-based)
    magics: tuple[str, ...]  # the original lines that placeholders stand for
    # IPython strips a cell's leading indentation (its first line's) from every line that has it:
    # per cell that prefix ("" when none); columns of those lines shift back by its length
    indents: tuple[str, ...] = ()
    shifted: frozenset[int] = frozenset()  # lines of ``source`` whose indentation was stripped
    unfixable: frozenset[int] = frozenset()  # cells whose stripped indentation cannot be put back exactly

    def column_shift(self, line: int) -> int:
        """How many columns to add to a column on ``line`` of ``source`` to get the cell's column."""
        if line not in self.shifted:
            return 0
        k = max(bisect_right(self.starts, line) - 1, 0)
        return len(self.indents[k])

    def position(self, line: int) -> tuple[int, int]:
        """(cell number as ruff counts it, line within the cell) of a line of ``source``."""
        k = max(bisect_right(self.starts, line) - 1, 0)
        return self.cells[k] + 1, line - self.starts[k] + 1

    def with_source(self, fixed: str) -> str:
        """The notebook's text with ``fixed`` (``source`` after fixes) written back into its cells."""
        layout = _layout(self.raw, self.data)  # only fixing pays for finding it
        if layout is None:
            raise NotebookError("its JSON layout is not one xlacheck can reproduce byte for byte; fix it by hand")
        pieces = re.split(f"(?m)^{re.escape(_BOUNDARY)}\n", fixed)
        if len(pieces) != len(self.cells):
            raise NotebookError("the fixes moved a cell boundary; fix it by hand")
        data = json.loads(self.raw)  # a fresh copy, same key order
        for k, (index, piece) in enumerate(zip(self.cells, pieces)):
            cell = data["cells"][index]
            before = _cell_text(cell)
            text = _restore(piece, self.magics)
            if not before.endswith("\n") and text.endswith("\n"):
                text = text[:-1]
            if text == _dedent(before)[1]:
                continue  # unchanged (compared before indentation goes back, which may not be exact)
            if index in self.unfixable:
                raise NotebookError(f"cell {index + 1}'s indentation cannot be restored exactly; fix it by hand")
            text = _indent(text, self.indents[k])
            if text != before:
                cell["source"] = _split_lines(text) if isinstance(cell["source"], list) else text
        return _dump(data, layout)


def is_notebook(path: str) -> bool:
    return path.endswith(SUFFIX)


def read(raw: bytes) -> Notebook | None:
    """Parse a notebook file; None when its kernel is not Python. Raises :class:`NotebookError`."""
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError as e:
        raise NotebookError(f"not UTF-8 (byte {e.start}); notebooks are UTF-8 JSON") from None
    except json.JSONDecodeError as e:
        raise NotebookError(f"invalid JSON at line {e.lineno} column {e.colno} ({e.msg}); is it a notebook?") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError('no "cells" list; is it a Jupyter notebook (nbformat 4)?')
    if not _is_python(data.get("metadata")):
        return None
    cells: list[int] = []
    parts: list[str] = []
    starts: list[int] = []
    magics: list[str] = []
    indents: list[str] = []
    shifted: set[int] = set()
    unfixable: set[int] = set()
    line = 1
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = _cell_text(cell)
        if _BOUNDARY in source or _PLACEHOLDER in source:
            raise NotebookError(f"cell {index + 1} holds xlacheck's reserved characters U+241E/U+241F")
        prefix, source, stripped = _dedent(source)
        indents.append(prefix)
        shifted.update(line + k for k in stripped)
        if prefix and _indent(source, prefix) != _cell_text(cell):
            unfixable.add(index)
        python = _python_lines(source, magics)
        if not python.endswith("\n"):
            python += "\n"
        cells.append(index)
        starts.append(line)
        parts.append(python)
        line += len(_split_lines(python)) + 1  # and the boundary line
    joined = (_BOUNDARY + "\n").join(parts)
    return Notebook(
        text, data, tuple(cells), joined, tuple(starts), tuple(magics), tuple(indents), frozenset(shifted),
        frozenset(unfixable),
    )


def _dedent(source: str) -> tuple[str, str, list[int]]:
    """IPython's ``leading_indent``: the first line's indentation, removed from every line that
    starts with it. Returns (prefix, text, 0-based numbers of the lines it was removed from)."""
    match = re.match(r"[ \t]+", source)
    if match is None:
        return "", source, []
    prefix = match.group()
    lines = _split_lines(source)
    stripped = [k for k, text in enumerate(lines) if text.startswith(prefix)]
    for k in stripped:
        lines[k] = lines[k][len(prefix) :]
    return prefix, "".join(lines), stripped


def _indent(text: str, prefix: str) -> str:
    """The inverse of :func:`_dedent` for every line but blank ones (checked when reading)."""
    if not prefix:
        return text
    return "".join(prefix + line if line.strip() else line for line in _split_lines(text))


def _is_python(metadata: Any) -> bool:
    if not isinstance(metadata, dict):
        return True
    for table, key in (("language_info", "name"), ("kernelspec", "language")):
        value = metadata.get(table, {}).get(key) if isinstance(metadata.get(table), dict) else None
        if isinstance(value, str):
            return value.lower() == "python"
    return True


def _cell_text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


def _python_lines(source: str, magics: list[str]) -> str:
    """``source`` with its IPython lines replaced by placeholders (appended to ``magics``)."""
    import ast

    try:
        ast.parse(source)
        return source
    except (SyntaxError, ValueError):
        pass
    lines = _split_lines(source)

    def placeholder(k: int, statement: bool = False) -> None:
        """A line magic becomes ``pass`` at its indentation (so ``if x:`` + ``!cmd`` stays a block);
        other lines (cell-magic bodies, continuations) become a comment, whatever their indent."""
        body = lines[k].rstrip("\r\n")
        ending = lines[k][len(body) :]
        indent = body[: len(body) - len(body.lstrip())]
        lines[k] = f"{indent}pass  {_PLACEHOLDER}{len(magics)}{ending}" if statement else f"{_PLACEHOLDER}{len(magics)}{ending}"
        magics.append(body)

    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        name = first[2:].split(None, 1)[0] if first[2:].strip() else ""
        placeholder(0)
        if name not in PYTHON_CELL_MAGICS:
            for k in range(1, len(lines)):
                placeholder(k)
            return "".join(lines)
    continued = False
    for k, text in enumerate(lines):
        if continued or _LINE_MAGIC.match(text) or _AUTOMAGIC.match(text):
            placeholder(k, statement=not continued)
            continued = text.rstrip("\r\n").endswith("\\")
    return "".join(lines)


def _restore(text: str, magics: tuple[str, ...]) -> str:
    out = []
    for line in _split_lines(text):
        body = line.rstrip("\r\n")
        match = _PLACEHOLDER_LINE.match(body)
        out.append(magics[int(match.group(1))] + line[len(body) :] if match else line)
    return "".join(out)


def _split_lines(text: str) -> list[str]:
    """Lines with their endings, split where Python's tokenizer splits (the one line table)."""
    return LineTable(text).lines()


def _dump(data: dict[str, Any], layout: _Layout) -> str:
    text = json.dumps(data, indent=layout.indent, ensure_ascii=layout.ensure_ascii)
    if layout.html_escape:  # outside strings JSON has none of these characters
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text + "\n" if layout.final_newline else text


def _layout(raw: str, data: dict[str, Any]) -> _Layout | None:
    """The json.dumps settings that reproduce ``raw`` exactly (Jupyter: indent 1, not ASCII-only;
    Colab: indent 2, ASCII-only, HTML characters escaped)."""
    escapes = (False, True) if re.search(r"\\u00(?:3[ce]|26)", raw) else (False,)
    for indent in (1, 2, 4, None, "\t", 3):
        for ensure_ascii in (False, True):
            for final_newline in (True, False):
                for html_escape in escapes:
                    layout = _Layout(indent, ensure_ascii, final_newline, html_escape)
                    if _dump(data, layout) == raw:
                        return layout
    return None
