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
    # remote.py and engine.py: one request or one item that failed (RemoteError, SyncProblem).
    # ``what`` names the request (``PUT``, ``GET key``, ``the sync REPORT``); ``text`` is the
    # server's or the library's own line.
    "sync.http_error": Message("服务器返回 HTTP {http}：{text}", "HTTP {http}: {text}"),
    "sync.error_text": Message("{text}", "{text}"),
    "sync.auth_refused_401": Message(
        "服务器拒绝了用户名或密码（HTTP 401）", "the server refused the user name or password (HTTP 401)"
    ),
    "sync.no_answer": Message("无法连接 {host}：{timeout} 秒内没有应答", "cannot reach {host}: no answer within {timeout} s"),
    "sync.refused": Message("无法连接 {host}：连接被拒绝", "cannot reach {host}: connection refused"),
    "sync.tls_failed": Message("无法连接 {host}：安全连接（TLS）失败", "cannot reach {host}: the secure connection (TLS) failed"),
    "sync.dns_failed": Message(
        "无法连接 {host}：找不到服务器的名称（DNS）", "cannot reach {host}: the server's name is not known (DNS)"
    ),
    "sync.cut_off": Message(
        "无法连接 {host}：应答还没完整，连接就断开了",
        "cannot reach {host}: the connection closed before the answer was complete",
    ),
    "sync.transport_failed": Message("无法连接 {host}：{error}: {text}", "cannot reach {host}: {error}: {text}"),
    "sync.answer_unreadable": Message(
        "无法读取服务器对 {method} 的应答（{error}）", "the server's answer to {method} could not be read ({error})"
    ),
    "sync.http_failed": Message("{what} 请求失败：HTTP {http}", "{what}: HTTP {http}"),
    "sync.http_failed_reason": Message("{what} 请求失败：HTTP {http} {reason}", "{what}: HTTP {http} {reason}"),
    "sync.answer_unusable": Message("{what}：应答无法使用（{text}）", "{what}: the answer is not usable ({text})"),
    "sync.web_page": Message(
        "{what}：HTTP {http}，返回的是网页，而不是 CalDAV 服务器的应答",
        "{what}: HTTP {http} with a web page, not the CalDAV server's answer",
    ),
    "sync.no_sync_token": Message(
        "同步 REPORT：应答中没有 sync-token（被截断了？）", "the sync REPORT: the answer has no sync-token (cut short?)"
    ),
    "sync.still_truncated": Message(
        "同步 REPORT：{pages} 页之后仍被截断", "the sync REPORT: still truncated after {pages} pages"
    ),
    "sync.get_unusable": Message("GET {key}：HTTP 200，但{text}", "GET {key}: HTTP 200 but {text}"),
    "sync.already_there": Message("HTTP {http}：服务器上已有这个事件", "HTTP {http}: the server already has this event"),
    "sync.no_etag": Message("不知道服务器上这份副本的 ETag", "no ETag known for the server's copy"),
    "sync.copy_unreadable": Message("无法读取服务器上的副本：{problem}", "the server's copy cannot be read: {problem}"),
    "sync.multiget_failed": Message(
        "calendar-multiget 失败（{text}）；已改为逐个获取",
        "calendar-multiget failed ({text}); fetched one by one instead",
    ),
    "sync.fetch_failed": Message("无法获取 {key}：{text}", "could not fetch {key}: {text}"),
    "sync.apply_failed": Message("无法应用服务器上的更改：{text}", "could not apply the server's change: {text}"),
    "sync.copy_at_unreadable": Message(
        "无法读取服务器上 {key} 处的副本：{problem}", "cannot read the server's copy at {key}: {problem}"
    ),
    "sync.already_local": Message(
        "服务器上的这个事件已在本地日历 '{other}' 中；请把它移到 '{calendar}'，或删除其中一份",
        "the server's event is already in local calendar '{other}'; move it to '{calendar}' or delete one copy",
    ),
    "sync.upload_failed": Message("无法上传：{text}", "could not upload: {text}"),
    "sync.delete_failed": Message("无法在服务器上删除：{text}", "could not delete on the server: {text}"),
    # issue 29: what a hostile or merely odd server is told apart by
    "sync.href_outside": Message(
        "服务器列出了日历之外的资源 {href}；没有向那里发送任何请求",
        "the server listed {href}, outside the calendar; nothing was sent there",
    ),
    "sync.retry_after": Message(
        "{host} 请求稍后再试（{seconds} 秒后）；这个日历本次不再同步",
        "{host} asks to retry after {seconds} s; this calendar stops for this run",
    ),
    "sync.rate_limited": Message(
        "{host} 请求稍后再试；这个日历本次不再同步", "{host} asks to retry later; this calendar stops for this run"
    ),
    "sync.deadline": Message(
        "{host} 在 {seconds} 秒内没有给出完整应答；已放弃", "{host} did not finish answering within {seconds} s; gave up"
    ),
    "sync.too_big": Message(
        "服务器对 {method} 的应答超过 {mb} MB；没有读取", "the server's answer to {method} is over {mb} MB; not read"
    ),
    "sync.failed_inside": Message(
        "{what}：服务器的 207 应答里写着 HTTP {http}", "{what}: the server's 207 answer says HTTP {http} inside"
    ),
    "sync.listing_too_long": Message(
        "服务器的列表超过 {limit} 项；这个日历没有同步", "the server's listing names over {limit} resources; not synced"
    ),
    "sync.not_utf8": Message(
        "GET {key}：内容不是 UTF-8（第 {position} 字节）", "GET {key}: the data is not UTF-8 (at byte {position})"
    ),
    "sync.write_refused": Message(
        "服务器拒绝写入（HTTP {http}），而它仍保留着这个事件：日历可能是只读的",
        "the server refused the write (HTTP {http}) and still holds the event: the calendar may be read-only",
    ),
    "sync.read_only": Message(
        "服务器上的这个日历是只读的；本地的 {count} 处更改不会上传",
        "this calendar is read-only on the server; {count} local changes are not sent",
    ),
    "sync.name_taken": Message(
        "无法上传：服务器上 {key} 处已有另一个事件（UID {other}）",
        "could not upload: the server already holds another event (UID {other}) at {key}",
    ),
    "sync.uid_elsewhere": Message(
        "这个事件的 UID 已在本地日历 '{other}' 中；那里的事件没有被改动",
        "this event's UID is already in local calendar '{other}'; the event there was not changed",
    ),
    # subscriptions.py: subscribed calendars (a published .ics URL)
    "sync.subscription_bad_url": Message(
        "无法订阅 {url}：需要 webcal://、webcals://、http:// 或 https:// 开头的地址",
        "cannot subscribe to {url}: the address must start with webcal://, webcals://, http:// or https://",
    ),
    "sync.subscription_credentials": Message(
        "订阅地址里不能带用户名或密码；未保存任何内容",
        "a subscription address cannot hold a user name or password; nothing was saved",
    ),
    "sync.subscription_exists": Message("已订阅 {url}（日历「{name}」）", "{url} is already subscribed (calendar '{name}')"),
    "sync.no_subscription": Message(
        "没有名为「{name}」的订阅（现有：{names}）", "no subscription called '{name}' (there are: {names})"
    ),
    "sync.subscription_deadline": Message(
        "订阅的日历在 {seconds} 秒内没有完整传来；未做任何更改",
        "the subscribed calendar did not arrive whole within {seconds} s; nothing was changed",
    ),
    "sync.subscription_too_large": Message(
        "订阅的日历超过 {limit} MB；未做任何更改", "the subscribed calendar is larger than {limit} MB; nothing was changed"
    ),
    "sync.subscription_unreachable": Message(
        "无法获取订阅的日历（{error}: {text}）；未做任何更改",
        "could not fetch the subscribed calendar ({error}: {text}); nothing was changed",
    ),
    "sync.subscription_http": Message(
        "服务器对订阅的日历回答了 HTTP {status}；未做任何更改",
        "the server answered HTTP {status} for the subscribed calendar; nothing was changed",
    ),
    "sync.subscription_truncated": Message(
        "订阅的日历传到一半就断了；未做任何更改", "the subscribed calendar arrived cut short; nothing was changed"
    ),
    "sync.subscription_html": Message(
        "这个地址返回的是网页（HTML），不是日历；未做任何更改",
        "the address answered with a web page (HTML), not a calendar; nothing was changed",
    ),
    "sync.subscription_not_calendar": Message(
        "这个地址返回的不是 iCalendar 日历；未做任何更改",
        "the address did not answer with an iCalendar calendar; nothing was changed",
    ),
}
