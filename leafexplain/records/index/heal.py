"""Healing the record index: damage found while reading it is warned about once, the file removed, and the run goes
on with the index built again from the record files."""

from __future__ import annotations

from collections.abc import Callable

from leafexplain.models import Record
from leafexplain.records.catalog import Catalog
from leafexplain.records.index.format import IndexDamaged, IndexUnusable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from leafexplain.records.index.build import Built
    from leafexplain.records.index.read import Source

# Every run sets a healer up; only a damaged index needs what it heals with (the build, the cleaner): those are
# imported when damage is found, not by every run that reads a sound index.


def warn_damaged(warn: Callable[[str], None], path: str, reason: object) -> None:
    """The one warning a damaged index is worth, wherever the damage is found."""
    warn(f"the record index {path} was damaged ({reason}); rebuilding it")


def healer(path: str, build_all: Callable[[], Built], warn: Callable[[str], None]) -> Callable[[IndexDamaged], Source]:
    """What a Source read from `path` heals with: a warning, the file removed, the index built in memory."""

    def heal(exc: IndexDamaged) -> Source:
        from leafexplain.records.index.clean import remove_index
        from leafexplain.records.index.format import encode_parts
        from leafexplain.records.index.read import memory_source

        warn_damaged(warn, path, exc)
        remove_index(path)
        return memory_source(encode_parts(*build_all()))

    return heal


def fetch_or_rebuild(
    catalog: Catalog, fresh: Callable[[], Catalog], path: str, warn: Callable[[str], None]
) -> Callable[[int], Record]:
    """A record that is not what its row says: read every record afresh, once, and take it from there.

    Usually a record file changed between the index check and the read: the record is found by its id.
    When the files hold no record with the row's id, the row itself is wrong (an index that passed its
    checksum but is not ours): the records were read from the same files in the same order, so the row's
    position finds it; the index is removed, and the next run builds it again.
    """
    fetch = catalog.fetch
    rebuilt: list[Catalog] = []

    def fetch_or_rebuild(index: int) -> Record:
        try:
            return fetch(index)
        except IndexUnusable as exc:
            from leafexplain.records.index.clean import remove_index

            if not rebuilt:
                rebuilt.append(fresh())
            wanted = catalog.ids[index]
            found = [n for n, record_id in enumerate(rebuilt[0].ids) if record_id == wanted]
            if found and not isinstance(exc, IndexDamaged):
                return rebuilt[0].record(found[0])
            remove_index(path)
            reason = exc if isinstance(exc, IndexDamaged) else "a row does not match the record files"
            warn_damaged(warn, path, reason)
            if found:
                return rebuilt[0].record(found[0])
            if index >= len(rebuilt[0]):
                raise
            return rebuilt[0].record(index)

    return fetch_or_rebuild
