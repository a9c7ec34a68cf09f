"""Validate a JSON value against a schema of an OpenAPI 3.1 document: the subset of JSON
Schema that FastAPI and pydantic publish (``$ref``, ``type``, ``properties``, ``required``,
``additionalProperties``, ``items``, ``anyOf``, ``enum``, ``const``), enough to tell whether
an answer is what the document promises. Returns the problems, each with its JSON path."""

from __future__ import annotations

from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def problems(value: Any, schema: dict[str, Any], spec: dict[str, Any], at: str = "$") -> list[str]:
    if "$ref" in schema:
        name = schema["$ref"].rpartition("/")[2]
        return problems(value, spec["components"]["schemas"][name], spec, at)
    if "anyOf" in schema:
        options = [problems(value, option, spec, at) for option in schema["anyOf"]]
        if any(not found for found in options):
            return []
        return [f"{at}: matches none of {len(options)} options ({options[0][0]})"]
    found: list[str] = []
    kind = schema.get("type")
    if kind is not None:
        allowed = _TYPES[kind]
        is_bool = isinstance(value, bool)
        if not isinstance(value, allowed) or (is_bool and kind in ("integer", "number")):
            return [f"{at}: {type(value).__name__}, not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{at}: {value!r} not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        found.append(f"{at}: {value!r} is not {schema['const']!r}")
    if isinstance(value, dict):
        found += _object_problems(value, schema, spec, at)
    if isinstance(value, list) and "items" in schema:
        for n, item in enumerate(value):
            found += problems(item, schema["items"], spec, f"{at}[{n}]")
    return found


def _object_problems(
    value: dict[str, Any], schema: dict[str, Any], spec: dict[str, Any], at: str
) -> list[str]:
    found = [f"{at}: {name!r} missing" for name in schema.get("required", ()) if name not in value]
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            found += problems(item, properties[name], spec, f"{at}.{name}")
        elif extra is False:
            found.append(f"{at}: {name!r} not in the schema")
        elif isinstance(extra, dict):
            found += problems(item, extra, spec, f"{at}.{name}")
    return found


def answer_problems(
    spec: dict[str, Any], path: str, method: str, status: int, body: Any
) -> list[str]:
    """What is wrong with an answer of ``method path`` with ``status`` under ``spec``."""
    operation = spec["paths"][path][method.lower()]
    answer = operation["responses"].get(str(status))
    if answer is None:
        return [f"{method} {path}: status {status} not documented"]
    content = answer.get("content", {})
    schema = next(iter(content.values()), {}).get("schema")
    if schema is None:
        return [f"{method} {path}: status {status} has no schema"]
    return problems(body, schema, spec)
