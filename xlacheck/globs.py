"""Path globs for ``exclude`` and ``per-file-ignores``, matched the same way in both places.

A pattern without ``/`` matches a file or directory *name* anywhere (``build``, ``test_*.py``);
a pattern with ``/`` matches a path relative to the project root (``src/legacy/**``,
``tests/*.py``). A pattern that matches a directory also covers everything below it, so
``tests/fixtures`` in ``per-file-ignores`` applies to every file under that folder.
``**`` spans any number of directories; ``*`` and ``?`` never cross ``/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (close := pattern.find("]", i + 2)) != -1:
            body = pattern[i + 1 : close]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = close + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out) + r"\Z"


@dataclass(frozen=True)
class Glob:
    """One compiled pattern; ``matches`` takes a root-relative POSIX path (no leading ``./``)."""

    pattern: str

    @property
    def anchored(self) -> bool:
        return "/" in self.pattern.rstrip("/")

    def matches(self, rel_path: str) -> bool:
        regex = _compiled(self.pattern)
        parts = rel_path.split("/")
        if not self.anchored:
            return any(regex.match(part) for part in parts)
        # The path itself or any ancestor directory (a directory pattern covers its subtree).
        return any(regex.match("/".join(parts[:k])) for k in range(len(parts), 0, -1))

    def matches_name(self, rel_path: str, name: str) -> bool:
        """Does this pattern exclude the entry itself (used while walking, parents already checked)."""
        regex = _compiled(self.pattern)
        return bool(regex.match(rel_path if self.anchored else name))


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    cleaned = pattern.strip()
    if cleaned.startswith("./"):
        cleaned = cleaned[2:]
    cleaned = cleaned.rstrip("/") or cleaned
    return re.compile(_translate(cleaned))
