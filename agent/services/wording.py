"""Reading short user text in one place: content units of a title, and a whole short yes/no.

Both the agent's grounding latch (``agent/runtime/grounding.py``) and the chat-edit services
(target matching, pending confirmations) read words the same way, so the rules live below
both: a title "from the user's words" and an answer "是 / 不用" mean one thing everywhere.
Nothing here decides to write; it only reads.
"""

from __future__ import annotations

import re
import unicodedata

STOP_UNITS_EN = frozenset({"the", "a", "an", "with", "and", "to", "at", "on", "in", "for", "of", "my", "me", "go"})
STOP_UNITS_ZH = frozenset("的和跟与去个一了在是")

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[a-z][a-z'’-]+")


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text or "").casefold()


def units(text: str) -> list[str]:
    folded = fold(text)
    found = [ch for ch in _CJK.findall(folded) if ch not in STOP_UNITS_ZH]
    found += [_stem(word) for word in _WORD.findall(folded) if word not in STOP_UNITS_EN]
    return found


def _stem(word: str) -> str:
    """Plural, possessive and -ing/-ed forms count as the same word ("meetings" and
    "meeting's" ground "meeting")."""
    for possessive in ("'s", "’s"):
        if word.endswith(possessive):
            word = word[: -len(possessive)]
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


# ---- a whole short answer to a question code asked -----------------------------------

CONFIRM_WORDS = (
    "是",
    "是的",
    "对",
    "对的",
    "嗯",
    "嗯嗯",
    "好",
    "好的",
    "好啊",
    "行",
    "可以",
    "加",
    "加吧",
    "加上",
    "添加",
    "要",
    "要的",
    "记上",
    "记下",
    "确认",
    "确定",
    "没错",
    "对，加上",
    "是的，加上",
    "yes",
    "y",
    "yep",
    "yeah",
    "sure",
    "ok",
    "okay",
    "add it",
    "yes please",
    "please do",
    "confirm",
    "do it",
)
DECLINE_WORDS = (
    "不",
    "不是",
    "不用",
    "不要",
    "别",
    "别加",
    "不用了",
    "不要了",
    "算了",
    "不加",
    "取消",
    "没有",
    "没",
    "不对",
    "no",
    "n",
    "nope",
    "no thanks",
    "don't",
    "dont",
    "cancel",
    "never mind",
    "nevermind",
)
_ANSWER_STRIP = re.compile(r"[\s。.!！~～,，]+")


def _answer_key(text: str) -> str:
    """A short answer as the word lists are compared: NFKC, casefolded, punctuation and
    spaces squeezed to one space (so the lists' own "对，加上" is found too)."""
    return _ANSWER_STRIP.sub(" ", fold(text)).strip()


# An offer's invitation ("shall I ask the council?") is also accepted by these, which would
# be odd answers to "add it to the calendar?" but are plain ways to say "go on".
ACCEPT_WORDS = ("开始", "来吧", "请", "好呀", "please", "go ahead", "go")


def accepts_offer(text: str) -> bool:
    """A short yes to an offer the assistant recorded (the council): every short yes
    ``confirmation_answer`` reads, plus the words that only make sense for an offer."""
    if confirmation_answer(text) is True:
        return True
    if not isinstance(text, str) or len(text) > 20:
        return False
    return _answer_key(text) in _ACCEPT


def confirmation_answer(text: str) -> bool | None:
    """True for a short yes, False for a short no, None for anything else (which goes to
    the model as usual). Only whole short replies count: "不用，改成明天" is not a "no"."""
    if not isinstance(text, str) or len(text) > 20:
        return None
    key = _answer_key(text)
    if key in _CONFIRM:
        return True
    if key in _DECLINE:
        return False
    return None


_CONFIRM = frozenset(_answer_key(word) for word in CONFIRM_WORDS)
_DECLINE = frozenset(_answer_key(word) for word in DECLINE_WORDS)
_ACCEPT = frozenset(_answer_key(word) for word in ACCEPT_WORDS)
