"""``/api/docs``: the OpenAPI description as one plain HTML page, rendered here, with no
script (FastAPI's page loads Swagger UI from a CDN; the CSP allows no third-party code)."""

from __future__ import annotations

from html import escape
from typing import Any

#: the order methods are listed in
METHODS = ("get", "post", "put", "patch", "delete")


def _schema_name(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return f"[{_schema_name(schema['items'])}]"
    options = schema.get("anyOf")
    if isinstance(options, list):
        return " | ".join(_schema_name(o) for o in options if isinstance(o, dict))
    return str(schema.get("type", "any"))


def _body(operation: dict[str, Any]) -> str:
    content = operation.get("requestBody", {}).get("content", {})
    for media, spec in content.items():
        return f"{media}: {_schema_name(spec.get('schema', {}))}"
    return ""


def _reply(response: dict[str, Any]) -> str:
    content = response.get("content", {})
    if "application/json" in content:
        return _schema_name(content["application/json"].get("schema", {}))
    return str(response.get("description", ""))


def _operation(path: str, method: str, operation: dict[str, Any]) -> str:
    params = [f"{p.get('name')} ({p.get('in')}{', required' if p.get('required') else ''})"
              for p in operation.get("parameters", [])]
    replies = [f"{status}: {_reply(r)}" for status, r in operation.get("responses", {}).items()]
    lines = [f"<h3><code>{escape(method.upper())} {escape(path)}</code></h3>"]
    description = operation.get("description") or operation.get("summary") or ""
    if description:
        lines.append(f"<p>{escape(description)}</p>")
    facts = [("Parameters", ", ".join(params)), ("Body", _body(operation)),
             ("Replies", "; ".join(replies))]
    lines.append("<dl>" + "".join(f"<dt>{k}</dt><dd>{escape(v)}</dd>" for k, v in facts if v)
                 + "</dl>")
    return "\n".join(lines)


def _model(name: str, schema: dict[str, Any]) -> str:
    rows = []
    required = set(schema.get("required", []))
    for field, spec in schema.get("properties", {}).items():
        kind = _schema_name(spec) if isinstance(spec, dict) else "any"
        rows.append(f"<tr><td><code>{escape(field)}</code></td><td>{escape(kind)}</td>"
                    f"<td>{'yes' if field in required else ''}</td></tr>")
    doc = schema.get("description", "")
    return (f"<h3 id=\"{escape(name)}\">{escape(name)}</h3>"
            + (f"<p>{escape(doc)}</p>" if doc else "")
            + "<table><tr><th>Field</th><th>Type</th><th>Required</th></tr>"
            + "".join(rows) + "</table>")


def render(openapi: dict[str, Any]) -> str:
    """The page for an OpenAPI document."""
    info = openapi.get("info", {})
    title = escape(str(info.get("title", "API")))
    operations = [_operation(path, method, ops[method])
                  for path, ops in openapi.get("paths", {}).items()
                  for method in METHODS if method in ops]
    models = [_model(name, schema) for name, schema in
              sorted(openapi.get("components", {}).get("schemas", {}).items())]
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{title}</title></head><body><h1>{title}</h1>"
            "<p>The machine-readable description: <a href=\"/api/openapi.json\">"
            "/api/openapi.json</a>. The protocol: docs/protocol.md.</p>"
            "<h2>Endpoints</h2>\n" + "\n".join(operations)
            + "<h2>Models</h2>\n" + "\n".join(models) + "</body></html>\n")
