"""Messages of agent/files.py (codes ``files.*``); see catalogue.py.

``what`` (the file a reader names) and ``kind`` (what it turned out to be) are ``Message``
parameters, written ``{what:zh}`` / ``{what:en}``: agent/files.py turns the English noun a
caller passes into its pair with ``NOUNS``.
"""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    "files.missing": Message("{what:zh} {path} 不存在", "{what:en} {path} does not exist"),
    "files.unreadable": Message("无法读取{what:zh} {path}：{reason}", "cannot read {what:en} {path}: {reason}"),
    "files.wrong_kind": Message(
        "{what:zh} {path} 是{kind:zh}，不是 Richeng 能读取的文件", "{what:en} {path} is {kind:en}, not a file Richeng can read"
    ),
    "files.not_regular": Message("{what:zh} {path} 不是普通文件", "{what:en} {path} is not a regular file"),
    "files.too_large": Message(
        "{what:zh} {path} 大于 {size:zh}，超出 Richeng 的读取上限；未做任何操作",
        "{what:en} {path} is larger than {size:en}, more than Richeng reads; nothing was done",
    ),
    "files.size_mib": Message("{n} 兆字节", "{n} MiB"),
    "files.size_bytes": Message("{n:,} 字节", "{n:,} bytes"),
}

NOUNS: dict[str, Message] = {
    "the backup": Message("备份", "the backup"),
    "the database": Message("数据库", "the database"),
    "the calendar file": Message("日历文件", "the calendar file"),
    "calendar file": Message("日历文件", "calendar file"),
    "the model script": Message("模型脚本", "the model script"),
    "--db": Message("--db", "--db"),
}
"""The files readers name, by the English noun they pass (an unknown one is shown as it is)."""

KINDS: dict[str, Message] = {
    "folder": Message("文件夹", "a folder"),
    "fifo": Message("管道（FIFO）", "a pipe (FIFO)"),
    "device": Message("设备", "a device"),
    "socket": Message("套接字", "a socket"),
    "other": Message("非普通文件", "not a regular file"),
}
