"""The service's pages in en, ja and ko: Jinja2 templates (autoescaped) whose strings are the
gettext domain ``service``, translated in ``checker/service/locale/<lang>/LC_MESSAGES/
service.po`` and compiled in memory (:mod:`checker.text.mo`), as the Sphinx extension
compiles its own domain (:mod:`checker.sphinx.messages`); no ``.mo`` file is ever read.

One Jinja2 environment per language, each with its translations installed, so concurrent
requests in different languages never share a ``gettext``."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from gettext import NullTranslations
from pathlib import Path

import jinja2

from checker.claim import Claim
from checker.i18n.generated import Extraction, GeneratedCatalog, GeneratedMessage
from checker.text.languages import LANGS

#: The gettext domain of the service's pages.
DOMAIN = "service"
TEMPLATES = Path(__file__).with_name("templates")
LOCALE_DIR = Path(__file__).with_name("locale")


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translations(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (English: none); a broken catalog keeps the English
    (the gate reports it)."""
    path = catalog_path(lang)
    if lang == "en" or not path.exists():
        return NullTranslations()
    from checker.text import mo
    from checker.text.po import read_catalog

    compiled = mo.translations(read_catalog(path))
    return NullTranslations() if compiled is None else compiled


@functools.cache
def environment(lang: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def choose(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The pages' language: ``?ui=``, else the cookie, else the browser's first of ours."""
    for candidate in (query, cookie):
        if candidate in LANGS:
            return candidate
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


#: How the service's catalogs are named in the translation gate's findings and coverage.
SERVICE_PAGE = "(service pages)"


def generated_catalog(locale_dir: Path = LOCALE_DIR) -> GeneratedCatalog:
    """The service's pages as a catalog of generated text, for the translation gate."""
    return GeneratedCatalog(SERVICE_PAGE, DOMAIN, locale_dir, _extraction)


def _extraction(
    claims: Sequence[Claim] = (), root: Path = Path(), recorded: tuple[Path, ...] = ()
) -> Extraction:
    """The templates' messages, each once."""
    messages_ = (
        GeneratedMessage(
            msgid,
            None,
            (f"{where}:{line}",),
            "a finding's message"
            if where.startswith(("checker/i18n/", "checker/scan/"))
            else "service page",
        )
        for where, line, msgid in _sources()
    )
    return Extraction(tuple({m.key: m for m in messages_}.values()))


def messages() -> Iterator[tuple[int, str, str | None]]:
    """Every message of the pages: ``(line, msgid, context)``, the templates' (Jinja2's own
    extractor), then the refusals' (:func:`refusals`) and the messages of the translation
    gate and the scanner (:func:`sentences`)."""
    for _where, line, msgid in _sources():
        yield line, msgid, None


def _sources() -> Iterator[tuple[str, int, str]]:
    """``(file, line, msgid)`` of every message, the file relative to the project."""
    from jinja2.ext import babel_extract

    for template in sorted(TEMPLATES.glob("*.html")):
        where = f"checker/service/templates/{template.name}"
        with template.open("rb") as handle:
            for line, _function, message, _comments in babel_extract(
                handle, ("gettext", "ngettext", "_", "pgettext"), [], {"trimmed": "true"}
            ):
                if isinstance(message, str):
                    yield where, line, message
                elif isinstance(message, tuple) and message and isinstance(message[0], str):
                    yield where, line, message[0]
    for source, at, sentence in refusals():
        yield f"checker/service/{source.name}", at, sentence
    for source, at, sentence in sentences():
        yield source.relative_to(TEMPLATES.parent.parent.parent).as_posix(), at, sentence


def refusals(folder: Path = TEMPLATES.parent) -> Iterator[tuple[Path, int, str]]:
    """``(file, line, template)`` of every ``Refused(status, template, ...)`` in the service's
    code; a template that is not a literal is a ``ValueError`` (it could not be translated)."""
    import ast

    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name != "Refused" or len(node.args) < 2:
                continue
            template = node.args[1]
            if not (isinstance(template, ast.Constant) and isinstance(template.value, str)):
                raise ValueError(f"{path}:{node.lineno}: a refusal's sentence must be a literal")
            yield path, node.lineno, template.value


#: The parts of the package whose findings a page shows: the translation gate, the scanner.
SAYING = ("i18n", "scan")


def sentences(package: Path = TEMPLATES.parent.parent) -> Iterator[tuple[Path, int, str]]:
    """``(file, line, template)`` of every :func:`~checker.text.said.said` in the code of the
    translation gate and the scanner: their messages, which a findings page shows in its
    language; a template that is not a literal is a ``ValueError``."""
    import ast

    for path in sorted(p for part in SAYING for p in (package / part).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) != "said":
                continue
            template = node.args[0] if node.args else None
            if not (isinstance(template, ast.Constant) and isinstance(template.value, str)):
                raise ValueError(f"{path}:{node.lineno}: a gate message must be a literal")
            yield path, node.lineno, template.value


def write_template(path: Path) -> int:
    """Write the domain's template (``service.pot``) to ``path``; how many messages."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="checker service", charset="utf-8")
    for where, line, msgid in _sources():
        catalog.add(msgid, locations=[(where, line)])
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=88, omit_header=False)
    return len(catalog)


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 2:
        sys.exit("usage: python -m checker.service.ui POT")
    print(f"{write_template(Path(sys.argv[1]))} messages written to {sys.argv[1]}")
