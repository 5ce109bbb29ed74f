"""`typing.NamedTuple`'s class syntax for the value types of every stage, without compiling their annotations.

With `from __future__ import annotations` every field's annotation is a string, and typing.NamedTuple
compiles each one (a ForwardRef) as the class is built: about 0.1 ms a field, over 250 fields on the
everyday path, paid by every run of the command. This builds the same class (collections.namedtuple,
the fields' defaults, the body's methods and properties, the annotations kept as written) without
looking at the annotations. Type checkers see typing.NamedTuple itself.
"""

from __future__ import annotations

import collections

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    # What the class body may not set: the tuple's own machinery.
    _OWN = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make"})
    _OWN |= {"_replace", "_asdict"}
    _LEFT_OUT = frozenset({"__module__", "__qualname__", "__annotations__", "__dict__", "__weakref__"})

    class _NamedTupleMeta(type):
        def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, object]) -> type:
            if not bases:  # NamedTuple itself
                return super().__new__(mcs, name, bases, namespace)
            annotations = dict(namespace.get("__annotations__", {}))
            fields = list(annotations)
            defaults = [namespace[field] for field in fields if field in namespace]
            if any(field in namespace for field in fields[: len(fields) - len(defaults)]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            made = collections.namedtuple(name, fields, defaults=defaults, module=namespace.get("__module__"))
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
