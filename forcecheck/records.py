"""Plain record classes for the types a check creates: what ``@dataclass`` gives, without its
cost at import.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ... as source text and
compiles it when the module is imported: about half a millisecond a class, and a one-deck check
imports some thirty of them (a fifth of a cold start). A record writes its ``__init__`` by hand
(also faster to call than a frozen dataclass's) and takes the rest from ``Record``, which reads
the fields from the class's annotations, in order, as dataclasses do:

    class Finding(Record, frozen=True):
        __slots__ = ("message", "line")
        message: str
        line: int | None

        def __init__(self, message, line=None):
            _set = object.__setattr__  # frozen: assignment raises, as on a frozen dataclass
            _set(self, "message", message)
            _set(self, "line", line)

Class keywords: ``frozen`` (assignment raises; hashed by the compared fields, as a frozen
dataclass), ``eq=False`` (compares and hashes by identity), ``hidden`` (fields left out of the
repr), ``uncompared`` (fields left out of ``==`` and the hash). A record without ``frozen``
is unhashable, like a dataclass with ``eq=True``. ``__init__`` must take every field in order
(as a positional argument or keyword): ``replace`` and pickling call it so.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, TypeVar

__all__ = ["Record", "replace"]

R = TypeVar("R", bound="Record")


class Record:
    """Base of a record class: ``repr``, ``==``, hashing, pickling and ``replace`` from its fields."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _shown: tuple[str, ...] = ()
    _compared = staticmethod(lambda record: ())
    _state = staticmethod(lambda record: ())

    def __init_subclass__(cls, frozen: bool = False, eq: bool = True, hidden: tuple[str, ...] = (),
                          uncompared: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if isinstance(hidden, str) or isinstance(uncompared, str):  # ("memo") is a string: every field named in it would pass
            raise TypeError(f"{cls.__name__}: hidden= and uncompared= take tuples of field names, such as ('memo',)")
        fields: list[str] = []
        for klass in reversed(cls.__mro__):
            if klass is Record or not issubclass(klass, Record):
                continue
            for name in klass.__dict__.get("__annotations__", {}):
                if name not in fields:
                    fields.append(name)
        cls._fields = tuple(fields)
        cls._shown = tuple(name for name in fields if name not in hidden)
        cls._state = staticmethod(_tuple_getter(fields))
        cls._compared = staticmethod(_tuple_getter([name for name in fields if name not in uncompared]))
        if not eq:
            cls.__eq__ = object.__eq__  # type: ignore[method-assign]
            cls.__hash__ = object.__hash__  # type: ignore[method-assign]
        elif frozen:
            cls.__hash__ = Record._hash_fields  # type: ignore[method-assign]
        else:
            cls.__hash__ = None  # type: ignore[assignment]
        if frozen:
            cls.__setattr__ = Record._refuse  # type: ignore[method-assign, assignment]
            cls.__delattr__ = Record._refuse  # type: ignore[method-assign, assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._compared(self) == self._compared(other)  # type: ignore[attr-defined]
        return NotImplemented

    def _hash_fields(self) -> int:
        return hash(self._compared(self))

    def _refuse(self, name: str, *value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__qualname__}")

    def __reduce__(self):
        """Pickle as the constructor and the fields in order (a worker sends thousands of
        reports: far quicker to read back than state set attribute by attribute); attributes
        a record without slots was given besides its fields go along."""
        extra = getattr(self, "__dict__", None)
        if extra:
            extra = {name: value for name, value in extra.items() if name not in self._fields}
            if extra:
                return type(self), self._state(self), extra
        return type(self), self._state(self)


def _tuple_getter(names: list[str]):
    """A function returning the named attributes of a record as a tuple (always a tuple, one
    name or none included: a frozen record hashes as a dataclass does, by the tuple)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()


def replace(record: R, **changes: Any) -> R:
    """A copy of ``record`` with some fields changed (``dataclasses.replace`` for records)."""
    unknown = set(changes).difference(record._fields)
    if unknown:
        raise TypeError(f"{type(record).__qualname__} has no field {sorted(unknown)[0]!r}")
    values = dict(zip(record._fields, record._state(record)))
    values.update(changes)
    return type(record)(**values)
