"""`typing.NamedTuple`'s class syntax for the value types of every stage, without compiling their annotations.

With `from __future__ import annotations` every field's annotation is a string, and typing.NamedTuple
compiles each one (a ForwardRef) as the class is built: about 0.1 ms a field, over 250 fields on the
everyday path, paid by every run of the command. This builds the same class (a tuple subclass with
the fields, their defaults, `_make`, `_replace`, `_asdict`, the body's methods and properties, the
annotations kept as written) without looking at the annotations, and without collections.namedtuple's
`eval` of a new `__new__` for every class (55 us a class, 40 classes a run): one `__new__` serves all.
Type checkers see typing.NamedTuple itself.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    # What the class body may not set: the tuple's own machinery.
    _OWN = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make"})
    _OWN |= {"_replace", "_asdict"}
    _LEFT_OUT = frozenset({"__module__", "__qualname__", "__annotations__", "__dict__", "__weakref__"})

    from operator import itemgetter

    try:
        from _collections import _tuplegetter  # what collections.namedtuple uses: a field read in C
    except ImportError:  # another Python

        def _tuplegetter(index: int, doc: str) -> property:
            return property(itemgetter(index), doc=doc)

    def _new(cls: type, *args: object, **kwargs: object) -> tuple[object, ...]:
        if not kwargs and len(args) == len(cls._fields):  # type: ignore[attr-defined]
            return tuple.__new__(cls, args)
        return tuple.__new__(cls, _arguments(cls, args, kwargs))

    _MISSING = object()

    def _arguments(cls: type, args: tuple[object, ...], kwargs: dict[str, object]) -> list[object]:
        """The fields' values from positional and keyword arguments and the defaults, or TypeError as for any call."""
        fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
        defaults: dict[str, object] = cls._field_defaults  # type: ignore[attr-defined]
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__}() takes {len(fields)} positional arguments but {len(args)} were given")
        values = list(args)
        given, default = kwargs.pop, defaults.get
        for field in fields[len(args) :]:
            value = given(field, _MISSING)
            if value is _MISSING:
                value = default(field, _MISSING)
                if value is _MISSING:
                    raise TypeError(f"{cls.__name__}() missing required argument: '{field}'")
            values.append(value)
        for key in kwargs:
            raise TypeError(
                f"{cls.__name__}() got multiple values for argument '{key}'"
                if key in fields
                else f"{cls.__name__}() got an unexpected keyword argument '{key}'"
            )
        return values

    def _make(cls: type, iterable: object) -> tuple[object, ...]:
        made = tuple.__new__(cls, iterable)  # type: ignore[call-overload]
        if len(made) != len(cls._fields):  # type: ignore[attr-defined]
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")  # type: ignore[attr-defined]
        return made

    def _replace(self: tuple[object, ...], **changes: object) -> tuple[object, ...]:
        made = self._make(map(changes.pop, self._fields, self))  # type: ignore[attr-defined]
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return made

    def _repr(self: tuple[object, ...]) -> str:
        pairs = ", ".join(f"{field}={value!r}" for field, value in zip(self._fields, self, strict=True))  # type: ignore[attr-defined]
        return f"{type(self).__name__}({pairs})"

    def _asdict(self: tuple[object, ...]) -> dict[str, object]:
        return dict(zip(self._fields, self, strict=True))  # type: ignore[attr-defined]

    def _getnewargs(self: tuple[object, ...]) -> tuple[object, ...]:
        return tuple(self)

    _SHARED = {
        "__slots__": (),
        "__new__": _new,
        "_make": classmethod(_make),
        "_replace": _replace,
        "__repr__": _repr,
        "_asdict": _asdict,
        "__getnewargs__": _getnewargs,
    }

    def _tuple_class(name: str, fields: list[str], defaults: dict[str, object], module: object) -> type:
        namespace: dict[str, object] = {
            **_SHARED,
            "__doc__": f"{name}({', '.join(fields)})",
            "__module__": module,
            "_fields": tuple(fields),
            "_field_defaults": defaults,
            "__match_args__": tuple(fields),
        }
        for index, field in enumerate(fields):
            namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
        return type(name, (tuple,), namespace)

    class _NamedTupleMeta(type):
        def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, object]) -> type:
            if not bases:  # NamedTuple itself
                return super().__new__(mcs, name, bases, namespace)
            annotations = dict(namespace.get("__annotations__", {}))
            fields = list(annotations)
            defaults = {field: namespace[field] for field in fields if field in namespace}
            if any(field in namespace for field in fields[: len(fields) - len(defaults)]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            made = _tuple_class(name, fields, defaults, namespace.get("__module__"))
            made.__annotations__ = annotations
            made.__qualname__ = str(namespace.get("__qualname__", name))
            for key, value in namespace.items():
                if key in _OWN:
                    raise AttributeError(f"{name}: cannot set {key} in a NamedTuple's body")
                if key not in _LEFT_OUT and key not in annotations:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_NamedTupleMeta):
        """Subclass it as typing.NamedTuple; the class made is a collections.namedtuple."""


__all__ = ["NamedTuple"]
