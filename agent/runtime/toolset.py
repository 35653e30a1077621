"""One request's tools: the registry's tools bound to one profile's services.

Nothing a model sends can choose the profile: the services below were built for it before
the model was called. A handler's error that the model can fix (a bad symbol, an end before
the start) comes back as a ``retry`` result; the model sees the message and tries again.
"""

from __future__ import annotations

from agent.runtime.grounding import Grounding
from agent.runtime.toolkit import Registry, ToolDeps, Toolset
from agent.runtime.tools import TOOLS
from agent.services.archive import ArchiveService
from agent.services.chat_edits import ChatEditService
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.services.queries import QueryService
from agent.store.db import Store
from agent.timesym.context import TimeContext


def build_toolset(
    store: Store,
    profile_id: int,
    ctx: TimeContext,
    commands: CommandService,
    memory: MemoryService,
    archive: ArchiveService,
    calendar_names: list[str],
    grounding: Grounding | None = None,
    edits: ChatEditService | None = None,
    registry: Registry | None = None,
) -> Toolset:
    """``grounding`` holds the user's words this turn and the pending command; what the
    search tools return is added to it as they run, and every create is checked against it
    (``agent/runtime/grounding.py``) before anything is written. ``registry``: the tools
    offered (``agent.runtime.tools.TOOLS`` unless a caller adds its own)."""
    registry = registry or TOOLS
    deps = ToolDeps(
        store=store,
        profile_id=profile_id,
        ctx=ctx,
        commands=commands,
        memory=memory,
        archive=archive,
        queries=QueryService(store, profile_id, ctx),
        edits=edits or ChatEditService(store, profile_id, ctx, commands.facts),
        grounding=grounding,
    )
    return Toolset(registry=registry, deps=deps, schemas=registry.schemas(calendar_names))
