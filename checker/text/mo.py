"""A catalog compiled for gettext, in memory: what Sphinx's own compilation of a catalog
(Babel's ``read_po`` then ``write_mo``) makes of it, from the one reader's entries.

Fuzzy and untranslated messages are left out; a plural message is kept with as many forms as
the catalog's ``nplurals``, each empty form replaced by its English (as Babel writes it); a
message written twice is kept once, with its first translation and the flags of both (as
Babel merges it). The header carries what gettext reads: the charset and the plural forms
(:func:`checker.text.po_header.compiled_header`). ``tests/test_text_mo.py`` compares what
gettext gets with Babel's compilation on every catalog of the project.
"""

from __future__ import annotations

import io
import struct
from gettext import GNUTranslations

from checker.text.po import Catalog, Entry, merged_messages
from checker.text.po_header import compiled_header, declared_plurals, language_plurals, mime_fields

#: The magic number that starts a little-endian ``.mo`` file.
_MAGIC = 0x950412DE


def gettext_messages(catalog: Catalog) -> tuple[Entry, ...]:
    """The messages gettext is given, in the order of the file: translated (a non-empty
    ``msgstr``; a plural message always) and not fuzzy (see the module's text)."""
    return tuple(
        e
        for e in merged_messages(catalog)
        if (e.msgid_plural is not None or e.msgstr) and not e.fuzzy
    )


def compile_mo(catalog: Catalog) -> bytes:
    """The catalog as a ``.mo`` file (GNU format, little-endian, no hash table)."""
    plurals = _plurals(catalog)
    pairs = [(b"", compiled_header(catalog.header_entry).encode("utf-8"))]
    for entry in gettext_messages(catalog):
        msgid = entry.msgid.encode("utf-8")
        if entry.msgid_plural is None:
            msgstr = entry.msgstr.encode("utf-8")
        else:
            english = (entry.msgid, entry.msgid_plural)
            forms = [*entry.msgstr_plural, *[""] * plurals][:plurals]  # as Babel reads them
            if not forms:
                continue  # nplurals=0: no translation
            forms = [form or english[min(index, 1)] for index, form in enumerate(forms)]
            msgid += b"\0" + entry.msgid_plural.encode("utf-8")
            msgstr = b"\0".join(form.encode("utf-8") for form in forms)
        if entry.msgctxt is not None:
            msgid = entry.msgctxt.encode("utf-8") + b"\x04" + msgid
        pairs.append((msgid, msgstr))
    pairs.sort()
    keys_at = 7 * 4 + 16 * len(pairs)
    values_at = keys_at + sum(len(k) + 1 for k, _ in pairs)
    index: list[int] = []
    values: list[int] = []
    for key, value in pairs:
        index += [len(key), keys_at]
        values += [len(value), values_at]
        keys_at += len(key) + 1
        values_at += len(value) + 1
    head = struct.pack("<7I", _MAGIC, 0, len(pairs), 7 * 4, 7 * 4 + 8 * len(pairs), 0, 0)
    body = b"".join(k + b"\0" for k, _ in pairs) + b"".join(v + b"\0" for _, v in pairs)
    return head + struct.pack(f"<{len(index) + len(values)}I", *index, *values) + body


def translations(catalog: Catalog) -> GNUTranslations | None:
    """The catalog loaded by gettext; ``None`` where gettext refuses it (a plural expression
    it cannot read)."""
    try:
        return GNUTranslations(io.BytesIO(compile_mo(catalog)))
    except (ValueError, OSError, SyntaxError):
        return None


def _plurals(catalog: Catalog) -> int:
    """The number of forms a plural message is given: the header's ``nplurals``, else its
    language's, else 2 (as Babel pads them)."""
    fields = mime_fields(catalog.header_entry) if catalog.header_entry is not None else {}
    declared = declared_plurals(fields["plural-forms"]) if "plural-forms" in fields else None
    language = fields.get("language", "").replace("-", "_") or None
    return declared if declared is not None else language_plurals(language)
