"""Messages of agent/evals (codes ``evals.*``); see catalogue.py.

``where`` is a place in a case file (``offline/x.jsonl:3 (case-id) turn 2``), shown as it is."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # cases.py: one code per kind of object, so each language names it
    "evals.unknown_case_keys": Message(
        "{where}：未知的用例键 {unknown}；允许的键：{allowed}",
        "{where}: unknown case key(s) {unknown}; allowed: {allowed}",
    ),
    "evals.unknown_fixture_keys": Message(
        "{where}：未知的 fixture 键 {unknown}；允许的键：{allowed}",
        "{where}: unknown fixture key(s) {unknown}; allowed: {allowed}",
    ),
    "evals.unknown_case_expect_keys": Message(
        "{where}：未知的用例期望键 {unknown}；允许的键：{allowed}",
        "{where}: unknown case expectation key(s) {unknown}; allowed: {allowed}",
    ),
    "evals.unknown_turn_keys": Message(
        "{where}：未知的轮次键 {unknown}；允许的键：{allowed}",
        "{where}: unknown turn key(s) {unknown}; allowed: {allowed}",
    ),
    "evals.unknown_turn_expect_keys": Message(
        "{where}：未知的轮次期望键 {unknown}；允许的键：{allowed}",
        "{where}: unknown turn expectation key(s) {unknown}; allowed: {allowed}",
    ),
    "evals.case_not_object": Message("{where}：用例应是一个 JSON 对象", "{where}: a case is a JSON object"),
    "evals.missing_key": Message("{where}：缺少 '{key}'", "{where}: missing '{key}'"),
    "evals.bad_id": Message(
        "{where}：id '{id}' 只能由小写字母、数字、'.'、'_' 或 '-' 组成",
        "{where}: id '{id}' must be lowercase letters, digits, '.', '_' or '-'",
    ),
    "evals.unknown_zone": Message("{where}：未知时区 '{tz}'", "{where}: unknown time zone '{tz}'"),
    "evals.bad_now": Message("{where}：'now' 须为带时差的 ISO 8601", "{where}: 'now' must be ISO 8601 with an offset"),
    "evals.now_needs_offset": Message(
        "{where}：'now' 需要时差（如 2026-11-30T10:00:00+08:00）",
        "{where}: 'now' needs an offset (e.g. 2026-11-30T10:00:00+08:00)",
    ),
    "evals.fixtures_not_object": Message("{where}：'fixtures' 应是一个对象", "{where}: 'fixtures' must be an object"),
    "evals.turns_not_list": Message("{where}：'turns' 应是非空列表", "{where}: 'turns' must be a non-empty list"),
    "evals.turn_not_object": Message("{where}：轮次应是一个对象", "{where}: a turn is an object"),
    "evals.user_or_action": Message(
        "{where}：'user' 和 'action' 须且只能给一个", "{where}: give exactly one of 'user' or 'action'"
    ),
    "evals.bad_action": Message(
        "{where}：'action' 应是含 'kind'（及可选 'date'）的对象",
        "{where}: 'action' is an object with 'kind' (and optional 'date')",
    ),
    "evals.live_script": Message(
        "{where}：实时用例没有脚本；由真实模型作答", "{where}: live cases have no script; the real model answers"
    ),
    "evals.offline_needs_script": Message(
        "{where}：离线的用户轮次需要 'script'（不应调用模型时用 []）",
        "{where}: offline user turns need a 'script' (use [] when no model call is expected)",
    ),
    "evals.bad_script": Message("{where}：{text}", "{where}: {text}"),
    "evals.bad_at": Message("{where}：'at' 须为 +Nm/+Nh/+Nd 或 ISO 8601", "{where}: 'at' must be +Nm/+Nh/+Nd or ISO 8601"),
    "evals.cannot_read": Message("无法读取 {path}：{text}", "cannot read {path}: {text}"),
    "evals.bad_json": Message(
        "{where}：不是有效的 JSON（第 {column} 列：{text}）", "{where}: not valid JSON ({text} at column {column})"
    ),
    "evals.bad_layer": Message("layer 必须是以下之一：{layers}", "layer must be one of {layers}"),
    "evals.no_folder": Message(
        "没有用例文件夹 {folder}（请把 RICHENG_EVALS_DIR 设为仓库的 evals/ 文件夹）",
        "no case folder {folder} (set RICHENG_EVALS_DIR to the repository's evals/ folder)",
    ),
    "evals.duplicate_id": Message(
        "用例 id '{id}' 重复（{first} 和 {second}）", "duplicate case id '{id}' ({first} and {second})"
    ),
    "evals.empty_group": Message("分组 '{group}' 中没有 {layer} 用例", "no {layer} case in group '{group}'"),
    "evals.marker_needs_reason": Message(
        "{where}：'{id}' 的用例 id 后面需要写明原因", "{where}: '{id}' needs a reason after the case id"
    ),
    "evals.marker_unknown_case": Message(
        "{where}：没有 id 为 {ids} 的用例；请删除该标记", "{where}: no case with id {ids}; remove the marker"
    ),
    # usage.py
    "evals.no_observation": Message(
        "没有 id 为 {id} 的观察记录（见 richeng report --candidates）",
        "no observation with id {id} (see richeng report --candidates)",
    ),
    "evals.case_exists": Message("用例 {id} 已在 {file} 中", "case {id} is already in {file}"),
    # fixtures.py
    "evals.archive_fixture": Message(
        "{where}：存档消息需要 role、content 和 at", "{where}: archive messages need role, content and at"
    ),
    "evals.event_fixture": Message("{where}：fixture 事件需要 title 和 start", "{where}: fixture events need title and start"),
    "evals.stub_not_pending": Message(
        "{where}：stub fixture 的结果是 '{status}'，而不是待定", "{where}: the stub fixture ended as '{status}', not pending"
    ),
}
