"""leafexplain.named.NamedTuple behaves as typing.NamedTuple does for the value types (and costs less to build)."""

from __future__ import annotations

import typing

import pytest

from leafexplain.named import NamedTuple


def value_type(base: type) -> type:
    """The same class body on either base: ours, and typing's."""

    class Value(base):  # type: ignore[misc,valid-type]
        """A value."""

        name: str
        size: int | None = None
        tags: tuple[str, ...] = ()

        @property
        def big(self) -> bool:
            return (self.size or 0) > 10

        def __str__(self) -> str:
            return f"{self.name}:{self.size}"

    return Value


Ours, Theirs = value_type(NamedTuple), value_type(typing.NamedTuple)


def test_a_value_type_is_what_typing_namedtuple_makes() -> None:
    ours, theirs = Ours("a", 12), Theirs("a", 12)
    assert tuple(ours) == tuple(theirs) == ("a", 12, ())
    assert ours._fields == theirs._fields and ours._field_defaults == theirs._field_defaults
    assert repr(ours) == repr(theirs) == "Value(name='a', size=12, tags=())"
    assert str(ours) == str(theirs) == "a:12" and ours.big and theirs.big
    assert ours._replace(size=1) == Ours("a", 1) and not ours._replace(size=1).big
    assert ours._asdict() == theirs._asdict() and hash(ours) == hash(Ours("a", 12))
    assert Ours.__doc__ == "A value." and Ours.__qualname__ == Theirs.__qualname__ and Ours.__module__ == __name__
    assert Ours.__annotations__ == {"name": "str", "size": "int | None", "tags": "tuple[str, ...]"}  # as written


def test_a_field_without_a_default_after_one_with_a_default_is_refused() -> None:
    with pytest.raises(TypeError):

        class Wrong(NamedTuple):
            first: int = 0
            second: int

    with pytest.raises(AttributeError):

        class Clash(NamedTuple):
            value: int

            def _replace(self) -> None: ...


def test_calls_and_copies_behave_as_typing_namedtuple_does() -> None:
    import copy
    import pickle

    for make in (Ours, Theirs):
        assert make("a") == make(name="a") == make("a", None, ()) == make("a", tags=())
        assert make._make(["b", 2, ("t",)]).tags == ("t",)
        assert make.__match_args__ == ("name", "size", "tags")
        value = make("a", 3)
        assert copy.copy(value) == value and copy.deepcopy(value) == value
        match value:
            case (name, size, tags):
                assert (name, size, tags) == ("a", 3, ())
        for wrong in ((), ("a", 1, (), 4)):
            with pytest.raises(TypeError):
                make(*wrong)
        for keywords in ({"name": "a", "colour": 1}, {"size": 1}):
            with pytest.raises(TypeError):
                make(**keywords)
        with pytest.raises(TypeError):
            make("a", name="b")
        with pytest.raises(ValueError):
            value._replace(colour=1)
        with pytest.raises(TypeError):
            make._make(["too", "few"])
    assert pickle.loads(pickle.dumps(ValueForPickle("p", 1))) == ValueForPickle("p", 1)


class ValueForPickle(NamedTuple):
    name: str
    size: int = 0
