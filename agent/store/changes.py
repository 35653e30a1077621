"""What a write changed: before-images of the rows it touched, for undo and view refreshes.

Every event write (``EventRepo.save``/``delete``, an import, a sync pull) returns a
``ChangeSet``; undo replays its before-images, the journal records it, and views refresh on
it. A composite edit (an override with new fields, a split then an edit) is several writes
in one transaction: ``ChangeSet.merge`` makes them one change set, so they are one undo step.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)  # an import of 100k events holds 100k of them
class Change:
    """One row's before and after; ``before_ics`` None means it was created."""

    uid: str
    recurrence_id: str
    event_id: int | None
    before_ics: str | None
    before_calendar_id: int | None
    before_origin: str | None
    before_source: str | None = None  # an imported row's original text, put back by undo


@dataclass
class ChangeSet:
    created: list[Change] = field(default_factory=list)
    updated: list[Change] = field(default_factory=list)
    deleted: list[Change] = field(default_factory=list)

    def extend(self, other: ChangeSet) -> None:
        """Append ``other``'s lists as they are (writes to different rows)."""
        self.created += other.created
        self.updated += other.updated
        self.deleted += other.deleted

    def merge(self, later: ChangeSet) -> ChangeSet:
        """One change set equal to this one then ``later``, for a single undo step.

        Unlike ``extend``, rows both touched appear once: a row keeps its earliest
        before-image; a row created here stays "created" (undo deletes it) unless ``later``
        deleted it again, in which case it vanishes. Neither set is changed."""

        def key(change: Change) -> tuple[str, str]:
            return (change.uid, change.recurrence_id)

        merged = ChangeSet(list(self.created), list(self.updated), list(self.deleted))
        created = {key(change) for change in self.created}
        seen = created | {key(change) for change in self.updated + self.deleted}
        for change in later.deleted:
            if key(change) in created:
                merged.created = [c for c in merged.created if key(c) != key(change)]
                created.discard(key(change))
            elif key(change) not in seen:
                merged.deleted.append(change)
                seen.add(key(change))
        for change in later.created:
            if key(change) not in seen:
                merged.created.append(change)
                seen.add(key(change))
        for change in later.updated:
            if key(change) not in seen:
                merged.updated.append(change)
                seen.add(key(change))
        return merged

    def __bool__(self) -> bool:
        return bool(self.created or self.updated or self.deleted)
