"""Copies of immutable values: the value itself.

A frozen value with only immutable fields needs no copy: ``copy.copy`` and
``copy.deepcopy`` of it can hand back the value itself, which costs nothing (a deep copy of
a game state would otherwise rebuild every frozenset and tuple in it). Classes take these
two functions as their ``__copy__`` and ``__deepcopy__``.
"""

from typing import TypeVar

__all__ = ["copy_self", "deepcopy_self"]

_T = TypeVar("_T")


def copy_self(self: _T) -> _T:
    """``copy.copy`` of an immutable value: the value itself."""
    return self


def deepcopy_self(self: _T, memo: dict[int, object]) -> _T:
    """``copy.deepcopy`` of an immutable value: the value itself."""
    return self
