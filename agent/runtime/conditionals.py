"""The conditional latch: a change said under a condition is not a change to make now.

"要是周日下大雨，网球课就取消吧" and "If the client can't make it, move Friday's review to
Monday" name a change *and* a condition nobody has seen come true. A model that calls the
write at once would delete or move the event now (issue 30, item 1). This module reads the
message's own grammatical markers of a condition or a hypothesis (如果/要是/假如/万一/…的话,
if/in case/should …/unless/what if) and reports them as a reason; it decides nothing else:

- on an update or a delete the reason is an *answer* kind (``ANSWER_KINDS`` of
  ``agent/services/chat_edits.py``): code lists what it found, says nothing changed, and
  leaves nothing pending, so no later "yes" can apply a change the user never saw asked;
- on a create it is a question (the ``unconfirmed`` receipt names what would be written).

An "if" of politeness or a just-in-case that is itself the request (如果可以的话, 方便的话,
以防万一, if possible, if you can, just in case) is not a condition. The markers are a
bounded list of grammar words, not an intent classifier: a condition phrased without any of
them passes, and the rules are in ``docs/chat-editing.md``.
"""

from __future__ import annotations

import re

from agent.services.wording import fold

#: Words that open a condition or a hypothesis. 的话 closes one ("人不够的话").
CONDITION_ZH = ("如果", "如若", "要是", "假如", "假设", "假使", "倘若", "若是", "万一", "一旦", "除非", "的话")
#: Words that contain a condition word but are not one (主要是 …, 以防万一 is a politeness,
#: 说的话 "what was said", 产品的话题 "the topic").
NOT_CONDITION_ZH = ("主要是", "重要是", "需要是", "只要是", "就要是", "以防万一", "说的话", "讲的话", "的话题", "的话剧")
#: A condition of politeness: the request itself, not a condition on it.
POLITE_ZH = (
    "如果可以的话",
    "如果方便的话",
    "如果能的话",
    "要是可以的话",
    "要是方便的话",
    "如果可以",
    "如果方便",
    "如果能",
    "如果不麻烦",
    "要是可以",
    "要是方便",
    "要是能",
    "可以的话",
    "方便的话",
    "能的话",
    "行的话",
    "可能的话",
    "有可能的话",
)
CONDITION_EN = ("if", "unless", "in case", "in the event", "assuming", "supposing", "provided that", "what if")
POLITE_EN = (
    "if possible",
    "if you can",
    "if you could",
    "if you would",
    "if you don't mind",
    "if you do not mind",
    "if that's ok",
    "if that's okay",
    "if that is ok",
    "if that's alright",
    "if that's fine",
    "if that works",
    "if it's not too much trouble",
    "if convenient",
    "if you're able",
    "just in case",
    "in case i forget",
    "in case i don't remember",
)
#: A condition about a *later* change ("如果有变化再说", "I'll let you know if anything
#: changes") governs no change asked for now: its clause is dropped before the words are read.
LATER_ZH = ("再说", "再通知", "再告诉", "再联系", "再调整", "再看")
LATER_EN = ("let you know", "if anything changes", "if that changes", "if plans change", "if it changes")
_CLAUSE = re.compile(r"[，,。;；!！?？\n]+")
#: A clause that opens with "should" and a subject is a condition ("Should the dentist call …,
#: move it"); "… should be at 3pm" is not.
_SHOULD_EN = re.compile(r"(?:^|[,.;:!?]\s*)should\s+(?:the|a|an|my|our|your|his|her|their|it|he|she|they|we|there)\b")


def _word_en(text: str, phrase: str) -> bool:
    return re.search(rf"(?<![a-z']){re.escape(phrase)}(?![a-z])", text) is not None


def conditional_reasons(text: str) -> list[str]:
    """``["conditional:<word>"]`` when a condition or hypothesis governs the message, else []."""
    if not text or not CONDITIONAL_RULE:
        return []
    folded = fold(text).replace("’", "'")
    clauses = _CLAUSE.split(folded)
    folded = "，".join(c for c in clauses if not any(w in c for w in LATER_ZH) and not any(_word_en(c, w) for w in LATER_EN))
    zh = folded
    for phrase in sorted(POLITE_ZH + NOT_CONDITION_ZH, key=len, reverse=True):
        zh = zh.replace(phrase, " ")
    for word in CONDITION_ZH:
        if word in zh:
            return ["conditional:" + word]
    en = folded
    for phrase in POLITE_EN:
        en = re.sub(rf"(?<![a-z']){re.escape(phrase)}(?![a-z])", " ", en)
    for word in CONDITION_EN:
        if _word_en(en, word):
            return ["conditional:" + word]
    if _SHOULD_EN.search(en):
        return ["conditional:should"]
    return []


#: The switch the mutation test turns off (``tests/agent/runtime/test_conditionals.py``).
CONDITIONAL_RULE = True
