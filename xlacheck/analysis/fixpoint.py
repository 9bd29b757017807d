"""Fixed points: the one home of the "repeat until nothing changes" loops of the analysis.

- :func:`grow`: a set closed under a test that reads the set (the functions that reach a driver
  through calls, the classes of a file derived from a model class through bases defined there);
- :func:`settle`: a pass over a graph repeated until it changes nothing (levels that rise along
  calls, flags that fall when one caller lacks them).

Both end because what they change only moves one way (a set grows, a level rises, a flag falls).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

K = TypeVar("K")
T = TypeVar("T")


def grow(found: set[K], items: Iterable[T], key: Callable[[T], K], reaches: Callable[[T], bool]) -> set[K]:
    """Add to ``found`` the key of every item that ``reaches`` (which may read ``found``), until
    nothing more is added; returns ``found``. Bind ``found`` to a name before the call when
    ``reaches`` reads it. ``items`` is walked once a round, so it must be a
    collection, not an iterator."""
    changed = True
    while changed:
        changed = False
        for item in items:
            k = key(item)
            if k not in found and reaches(item):
                found.add(k)
                changed = True
    return found


def settle(one_pass: Callable[[], bool]) -> None:
    """Run ``one_pass`` (which says whether it changed anything) until a pass changes nothing."""
    while one_pass():
        pass
