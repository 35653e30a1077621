"""Messages of agent/sync (codes ``sync.*``); see catalogue.py."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # accounts.py: reaching the server
    "sync.auth_refused": Message("服务器拒绝了用户名或密码", "the server refused the user name or password"),
    "sync.no_calendar_list": Message("服务器没有列出日历（{text}）", "the server did not list calendars ({text})"),
    "sync.unreachable": Message("无法连接 {url}：{error}: {text}", "cannot reach {url}: {error}: {text}"),
    # accounts.py: accounts and mappings
    "sync.no_account": Message(
        "还没有同步账户；用 richeng sync add-account URL --user NAME 添加一个",
        "no sync account yet; add one with: richeng sync add-account URL --user NAME",
    ),
    "sync.several_accounts": Message(
        "有多个同步账户；请用 --account 选一个（{accounts}）",
        "several sync accounts; pick one with --account ({accounts})",
    ),
    "sync.no_account_named": Message(
        "没有名为 '{name}' 的同步账户；现有账户：{accounts}",
        "no sync account named '{name}'; accounts: {accounts}",
    ),
    "sync.no_account_named_none": Message(
        "没有名为 '{name}' 的同步账户；目前没有任何账户", "no sync account named '{name}'; accounts: none"
    ),
    "sync.bad_url": Message(
        "服务器地址必须以 https:// 开头（本机可用 http://），而不是 '{url}'",
        "the server URL must start with https:// (or http:// on this machine), not '{url}'",
    ),
    "sync.account_exists": Message(
        "名为 '{name}' 的同步账户已存在；请用 --name 另取一个名字",
        "a sync account named '{name}' already exists; pick another with --name",
    ),
    "sync.no_account_id": Message("没有 id 为 {id} 的同步账户", "no sync account with id {id}"),
    "sync.no_mapping_id": Message("没有 id 为 {id} 的同步日历", "no synced calendar with id {id}"),
    "sync.local_already_mapped": Message(
        "本地日历 '{local}' 已与 '{remote}' 同步", "local calendar '{local}' already syncs with '{remote}'"
    ),
    "sync.remote_already_mapped": Message(
        "'{remote}' 已与本地日历 '{local}' 同步", "'{remote}' already syncs with local calendar '{local}'"
    ),
    "sync.negative_interval": Message("同步间隔不能为负数", "the sync interval cannot be negative"),
    "sync.server_no_calendar": Message(
        "服务器上没有日历 '{wanted}'；它有：{names}", "the server has no calendar '{wanted}'; it has: {names}"
    ),
    "sync.server_no_calendar_none": Message(
        "服务器上没有日历 '{wanted}'；它一个日历也没有", "the server has no calendar '{wanted}'; it has: none"
    ),
    # conflicts.py, engine.py
    "sync.no_conflict": Message(
        "没有 id 为 {id} 的同步冲突；查看：richeng sync conflicts",
        "no sync conflict with id {id}; see: richeng sync conflicts",
    ),
    "sync.bad_keep": Message("--keep 只能是 local 或 server，而不是 '{keep}'", "--keep must be local or server, not '{keep}'"),
    "sync.conflict_resolved": Message("冲突 {id} 已经解决（{resolution}）", "conflict {id} was already resolved ({resolution})"),
    "sync.server_version_unreadable": Message(
        "无法读取服务器上的版本：{problem}", "the server's version cannot be read: {problem}"
    ),
    "sync.server_changed_now": Message(
        "服务器上的版本刚刚又变了；请先同步，再查看一次",
        "the server's version changed again just now; sync, then look at it again",
    ),
    "sync.server_refused_ours": Message("服务器拒绝了我们的版本：{text}", "the server refused our version: {text}"),
    "sync.server_changed_since": Message(
        "发现冲突后，服务器上的版本又变了；请再查看一次",
        "the server's version changed again since the conflict was found; look at it again",
    ),
}
