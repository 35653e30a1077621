"""The answer to an invitation from the chat (issue 31, item 4): ``respond_to_invitation``'s
arguments and handler (the ``Tool`` itself is ``RESPOND`` in ``agent/runtime/tools.py``).

It is an edit: ``ChatEditService.request`` with op ``respond`` finds the one event by the edit
rules (several ask, none says what was searched), keeps only invitations to the user (a
non-invitation is refused in one line), and stores the user's PARTSTAT through
``services.invitations.answer_invitation`` in one journalled transaction, so undo takes it
back. The latch is the edit latch less "no change verb" (接受 is the verb), plus the answer
itself: the words must say accept, tentative or decline (``invite_grounding.answer_reasons``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent.errors import UserFacingError
from agent.runtime.grounding import edit_reasons, target_reasons
from agent.runtime.invite_grounding import PARTSTATS, respond_reasons
from agent.runtime.toolkit import ToolDeps, ToolResult
from agent.store.occurrence import Occurrence


class RespondArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    targetTitle: str | None = Field(default=None, max_length=200)
    targetDate: str | None = Field(default=None, max_length=40, description="date symbol")
    answer: Literal["accept", "tentative", "decline"]


def respond(deps: ToolDeps, args: RespondArgs) -> ToolResult:
    """An answer to one invitation (module docstring); a target the model must fix (a bad
    date symbol) goes back to it as a retry."""
    raw = args.model_dump(exclude_none=True)
    partstat = PARTSTATS[args.answer]
    grounding = deps.grounding
    reasons: list[str] = []
    if grounding is not None:
        reasons = respond_reasons(edit_reasons("update", raw, grounding, deps.ctx), partstat, grounding.user_text)

    def check(occ: Occurrence, scope: str) -> tuple[list[str], dict[str, Any]]:
        if grounding is None:
            return [], {}
        return target_reasons(occ.title, occ.start, False, "this", raw, grounding, deps.ctx), {}

    try:
        outcome = deps.edits.request("respond", raw | {"partstat": partstat}, reasons, check)
    except UserFacingError as exc:
        return ToolResult(ok=False, payload={"error": str(exc)}, retry=True)
    return ToolResult(ok=True, payload=outcome.to_json(), value=outcome)


__all__ = ["RespondArgs", "respond"]
