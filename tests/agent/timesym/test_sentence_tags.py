"""Quick add's ``#tags`` (issue 28: quick add says what the editor can): they set the
event's categories, leave the title, and every other word is read as without them."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.timesym.sentence import parse_quick
from agent.timesym.sentence_tags import hashtags
from tests.support.clock import SHANGHAI, ctx_at

CTX = ctx_at(datetime(2026, 12, 3, 10, 0, tzinfo=SHANGHAI))  # Thursday
AT_3PM = datetime(2026, 12, 4, 15, 0, tzinfo=SHANGHAI)


@pytest.mark.parametrize(
    ("text", "title", "tags"),
    [
        ("Dentist tomorrow 3pm #health", "Dentist", ("health",)),
        ("明天下午三点 看牙 #健康", "看牙", ("健康",)),
        ("看牙#健康 明天下午三点", "看牙", ("健康",)),
        ("#work Review tomorrow 3pm", "Review", ("work",)),
        ("Review #work tomorrow 3pm #Q4-plan #work", "Review", ("work", "Q4-plan")),
        ("明天下午三点 和张三开会 #工作，#项目A。", "和张三开会", ("工作", "项目A")),
        ("Sync tomorrow 3pm #team.", "Sync", ("team",)),
    ],
)
def test_tags_set_categories_and_leave_the_title(text: str, title: str, tags: tuple[str, ...]) -> None:
    event = parse_quick(text, CTX)
    assert event.problem is None
    assert (event.title, event.start, event.categories) == (title, AT_3PM, tags)
    assert event.text == text
    tag_spans = [span for span in event.spans if span.role == "tags"]
    assert [text[span.start : span.end] for span in tag_spans] == [span.text for span in tag_spans]
    assert all(span.text.startswith("#") for span in tag_spans)
    assert [span.start for span in event.spans] == sorted(span.start for span in event.spans)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Room #3 review tomorrow 3pm", "Room #3 review"),  # a number is no tag
        ("C# study group tomorrow 3pm", "C# study group"),  # after a letter: part of the word
        ("Issue a#b tomorrow 3pm", "Issue a#b"),
    ],
)
def test_a_hash_that_is_no_tag_stays_in_the_title(text: str, title: str) -> None:
    event = parse_quick(text, CTX)
    assert (event.title, event.start, event.categories) == (title, AT_3PM, ())
    assert not [span for span in event.spans if span.role == "tags"]


def test_a_sentence_of_only_a_time_and_tags_has_no_title() -> None:
    event = parse_quick("明天下午三点 #健康", CTX)
    assert event.problem == "no_title" and event.title == ""


def test_the_day_and_time_read_as_without_the_tags() -> None:
    for text in ("每周一三五早上七点健身 #运动", "Gym every Mon Wed Fri at 7am #fitness"):
        tagged, plain = parse_quick(text, CTX), parse_quick(text.rsplit(" #", 1)[0], CTX)
        assert (tagged.title, tagged.start, tagged.end, tagged.rule) == (plain.title, plain.start, plain.end, plain.rule)
        assert tagged.categories and tagged.rule is not None


@given(st.text(alphabet=st.sampled_from("ab 3#明天,.-"), max_size=40))
def test_blanking_keeps_every_other_character_in_place(text: str) -> None:
    blanked, tags, places = hashtags(text)
    assert len(blanked) == len(text)
    kept = [i for i in range(len(text)) if not any(a <= i < b for a, b in places)]
    assert all(blanked[i] == text[i] for i in kept)
    assert all(text[a] == "#" and blanked[a:b].strip() == "" for a, b in places)
    assert all("#" + tag in text for tag in tags)
