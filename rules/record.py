"""Records: the engine's dataclasses, with equality, hashing and repr written once for all.

`dataclass` writes each method of each class as source and compiles it
while the module is imported: the 51 events alone took 20-30 ms of every
start of the game. Declared as `record` (or `frozen_record`), a class gets
only its `__init__` from `dataclass`; comparing, hashing and printing it
use the methods below, which read the fields `dataclass` found. They behave
as `dataclass`'s own: fields marked `compare=False` or `repr=False` are left
out, a mutable record is unhashable, and a frozen one hashes its fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from typing import TYPE_CHECKING, TypeVar, dataclass_transform

if TYPE_CHECKING:
    from collections.abc import Callable

R = TypeVar("R", bound="Record")
F = TypeVar("F", bound="FrozenRecord")
C = TypeVar("C", bound=type)


def _compared_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.compare)


def _shown_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.repr)


# Kept per class. Typed as taking any class: a record's class is hashable (as every class is), even
# though its instances may not be, which `cache`'s own signature (any Hashable) cannot tell apart.
_compared: Callable[[type], tuple[str, ...]] = cache(_compared_names)
_shown: Callable[[type], tuple[str, ...]] = cache(_shown_names)


class Record:
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _compared(self.__class__))

    __hash__ = None  # type: ignore[assignment]  # (mutable: as dataclass leaves it)

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in _shown(self.__class__))
        return f"{self.__class__.__qualname__}({values})"


class FrozenRecord(Record):
    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # frozen: hashable again, as a frozen dataclass
        return hash(tuple(getattr(self, name) for name in _compared(self.__class__)))


@dataclass_transform(eq_default=False, field_specifiers=(field,))
def record(cls: type[R]) -> type[R]:
    """A mutable dataclass of a class that derives from Record."""
    assert issubclass(cls, Record) and not issubclass(cls, FrozenRecord), cls
    return dataclass(eq=False, repr=False)(_described(cls))


@dataclass_transform(eq_default=False, frozen_default=True, field_specifiers=(field,))
def frozen_record(cls: type[F]) -> type[F]:
    """A frozen dataclass of a class that derives from FrozenRecord."""
    assert issubclass(cls, FrozenRecord), cls
    return dataclass(frozen=True, eq=False, repr=False)(_described(cls))


def _described(cls: C) -> C:
    # a docstring of its own spares `dataclass` from making one out of the signature (slow too)
    cls.__doc__ = cls.__doc__ or f"The record {cls.__name__}."
    return cls
