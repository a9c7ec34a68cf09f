"""What was submitted, decoded and validated before anything is stored or queued.

The submitted name is only shown: the format comes from an allowed list of suffixes, the
service writes the content under a name of its own (``article.md``), and nothing of the
submission reaches a path or a shell. Every refusal is a :class:`~.limits.Refused` (4xx)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from checker.report.plain_text import plain
from checker.service.config import ServiceLimits
from checker.service.limits import (
    BAD_REQUEST,
    UNPROCESSABLE,
    UNSUPPORTED,
    Refused,
    check_length,
    check_size,
)
from checker.text.languages import LANGS, TRANSLATED

#: Article formats the scanner reads, by suffix.
ARTICLE_SUFFIXES = (".md", ".rst", ".txt", ".ipynb", ".html")
#: Languages an article may be checked in; ``auto`` detects.
ARTICLE_LANGS = ("auto", *LANGS)
#: Languages a translation may be submitted for.
TRANSLATION_LANGS = TRANSLATED
#: How a shown name is cut down (no control characters, no folders, at most 100 characters).
_UNSHOWN = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Submission:
    name: str
    suffix: str
    text: str
    lang: str


def shown_name(name: str | None, default: str) -> str:
    """The name to show for an upload: its last part, without control characters or
    characters that hide or reorder text (``plain``: a U+202E would show ``gpj.exe`` as
    ``exe.jpg``)."""
    if not name:
        return default
    cleaned = _UNSHOWN.sub("", plain(PurePosixPath(name.replace("\\", "/")).name))[:100]
    return cleaned or default


def decode(raw: bytes, limits: ServiceLimits) -> str:
    """UTF-8 text; binary or undecodable content is refused with its line."""
    check_size(limits, len(raw))
    if b"\0" in raw:
        line = raw[: raw.index(b"\0")].count(b"\n") + 1
        raise Refused(UNSUPPORTED, "binary content (a NUL byte): submit a text file", line)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise Refused(
            BAD_REQUEST,
            "not UTF-8: byte {byte} at line {at} ({reason})",
            line,
            at=line,
            byte=f"{raw[exc.start]:#04x}",
            reason=exc.reason,
        ) from exc
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    check_length(limits, len(text))
    return text


def article(raw: bytes, filename: str | None, lang: str, limits: ServiceLimits) -> Submission:
    """An article to scan: pasted text (``filename`` None: Markdown) or an upload."""
    if lang not in ARTICLE_LANGS:
        raise Refused(
            BAD_REQUEST,
            "unknown language {lang}: use one of {langs}",
            lang=repr(lang[:20]),
            langs=", ".join(ARTICLE_LANGS),
        )
    suffix = ".md" if filename is None else PurePosixPath(filename).suffix.lower()
    if suffix not in ARTICLE_SUFFIXES:
        raise Refused(
            UNSUPPORTED,
            "unsupported file type {suffix}: upload {suffixes}",
            suffix=repr(suffix[:20] or "(none)"),
            suffixes=", ".join(ARTICLE_SUFFIXES),
        )
    text = decode(raw, limits)
    if not text.strip():
        raise Refused(UNPROCESSABLE, "the article is empty")
    if suffix == ".ipynb":
        from pathlib import Path

        from checker.scan.document import ReadError
        from checker.scan.readers.notebook import MAX_DEPTH, load

        try:
            notebook = load(Path("article.ipynb"), text)
        except ReadError as exc:
            if "nested" in exc.message:
                raise Refused(
                    UNPROCESSABLE,
                    "not a notebook: JSON nested more than {depth} levels deep at line {at}",
                    exc.line,
                    depth=MAX_DEPTH,
                    at=exc.line,
                ) from exc
            raise Refused(
                UNPROCESSABLE,
                "not a notebook: invalid JSON at line {at}",
                exc.line,
                at=exc.line,
            ) from exc
        if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
            raise Refused(UNPROCESSABLE, "not a notebook: no list of cells")
    return Submission(shown_name(filename, f"article{suffix}"), suffix, text, lang)


def translation(raw: bytes, filename: str | None, lang: str, limits: ServiceLimits) -> Submission:
    """A catalog (``.po``) for ja or ko; a catalog the gate cannot read is refused with its
    first problem."""
    from pathlib import Path

    from checker.text.po import parse_catalog

    if lang not in TRANSLATION_LANGS:
        raise Refused(
            BAD_REQUEST,
            "unknown language {lang}: translations are checked for {langs}",
            lang=repr(lang[:20]),
            langs=", ".join(TRANSLATION_LANGS),
        )
    if filename is not None and PurePosixPath(filename).suffix.lower() != ".po":
        raise Refused(UNSUPPORTED, "upload a gettext catalog (.po)")
    text = decode(raw, limits)
    catalog = parse_catalog(text.encode("utf-8"), Path("catalog.po"), lang)
    if catalog.fatal:
        first = catalog.problems[0]
        raise Refused(
            UNPROCESSABLE,
            "malformed catalog: line {at}: {problem}",
            first.line,
            at=first.line,
            problem=first.message,
        )
    if not catalog.entries:
        raise Refused(UNPROCESSABLE, "the catalog has no messages")
    return Submission(shown_name(filename, f"{lang}.po"), ".po", text, lang)


def one_message(msgid: str, msgstr: str, lang: str, limits: ServiceLimits) -> bytes:
    """A pasted message as a one-entry catalog (the gate reads catalogs)."""
    if not msgid.strip() or not msgstr.strip():
        raise Refused(UNPROCESSABLE, "give the English message and its translation")
    check_size(limits, len(msgid.encode()) + len(msgstr.encode()))
    from babel.messages.plurals import get_plural

    known = lang if lang in TRANSLATION_LANGS else TRANSLATED[0]  # an unknown one is refused after
    header = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Language: {known}\\n"\n"Plural-Forms: {get_plural(known)}\\n"\n\n'
    )
    return (header + f"msgid {_quoted(msgid)}\nmsgstr {_quoted(msgstr)}\n").encode("utf-8")


def _quoted(text: str) -> str:
    """A PO string literal (the format's own escapes)."""
    return json.dumps(text.replace("\r\n", "\n"), ensure_ascii=False)
