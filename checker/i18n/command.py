"""``python -m checker i18n``: the arguments, and the call into :func:`checker.i18n.run.check`.

Exit codes: 0 when no finding is an error (warnings allowed), 1 when one is, 2 for usage
errors (a folder that does not exist, an unknown language or format).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from checker.text.languages import TRANSLATED

if TYPE_CHECKING:
    from checker.i18n.generated import GeneratedCatalog
    from checker.i18n.run import I18nResult

USAGE_ERROR = 2
FORMATS = ("text", "json", "github")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``i18n`` command to the CLI's subcommands."""
    p = commands.add_parser(
        "i18n",
        help="check the translation catalogs: completeness, structure, code, claims, security",
        description="Check locales/<lang>/LC_MESSAGES/*.po against the English pages.",
    )
    p.add_argument(
        "--lang",
        action="append",
        choices=TRANSLATED,
        help="a language to check (repeatable; default: every translated language)",
    )
    p.add_argument("--format", choices=FORMATS, default=os.environ.get("CHECKER_FORMAT", "text"))
    p.add_argument(
        "--root", type=Path, default=Path.cwd(), help="the repository (default: the current folder)"
    )
    p.add_argument("--docs", type=Path, help="English pages (default ROOT/docs)")
    p.add_argument("--locales", type=Path, help="catalogs (default ROOT/locales)")
    p.add_argument("--glossary", type=Path, help="preferred terms (default LOCALES/glossary.toml)")
    p.add_argument("--no-glossary", action="store_true", help="skip the glossary check")
    p.add_argument(
        "--templates",
        type=Path,
        help="a folder of .pot templates to compare with (default: ROOT/_build/gettext when "
        "newer than the pages, else built into a temporary folder)",
    )
    p.add_argument(
        "--no-build",
        action="store_true",
        help="never build templates: skip the out-of-date check when none are fresh",
    )
    p.add_argument(
        "--claims-module",
        action="append",
        default=[],
        metavar="MODULE",
        help="load claim vocabularies from this module too (repeatable)",
    )
    p.add_argument(
        "--json-file", type=Path, help="also write the checker.i18n/1 JSON document here"
    )
    p.add_argument(
        "--approve-claims",
        action="store_true",
        help="after reviewing changed claim statement translations against the English, "
        "record every current one as reviewed in LOCALES/claim-translations.txt (refused "
        "while any other error is found)",
    )
    p.add_argument(
        "--no-approvals",
        action="store_true",
        help="skip the check of claim statement translations against the reviewed list "
        "(for catalogs that keep none)",
    )
    p.add_argument(
        "--write-template",
        type=Path,
        metavar="POT",
        help="write the template of the text the Sphinx extension generates (labels, decision "
        "rules, reasons) to POT, extracted from the claim modules, and check nothing",
    )
    p.add_argument(
        "--domain",
        metavar="DOMAIN",
        help="with --write-template: the gettext domain whose template to write (checker, "
        "sphinx for the theme's labels, service); default: the extension's",
    )


def run(
    args: argparse.Namespace,
    catalogs: Callable[[Path], Sequence[GeneratedCatalog]] = lambda root: (),
) -> int:
    """Check, print in the requested format, return the exit code. ``catalogs``: the catalogs
    of generated text of the repository at ``--root``, to check beside its pages' (the first
    is the one whose template ``--write-template`` writes), from the caller, which knows what
    generates text."""
    from checker.i18n import approvals
    from checker.i18n.report import RENDERERS, render_json
    from checker.i18n.run import I18nOptions, check

    root: Path = args.root.resolve()
    docs = args.docs or root / "docs"
    locales = args.locales or root / "locales"
    for name, folder in (("docs", docs), ("locales", locales), ("templates", args.templates)):
        if folder is not None and not folder.is_dir():
            print(f"error: --{name}: {folder} is not a folder", file=sys.stderr)
            return USAGE_ERROR
    glossary = None if args.no_glossary else (args.glossary or locales / "glossary.toml")
    reviewed = locales / approvals.FILE_NAME
    generated = tuple(catalogs(root))
    if args.write_template is not None:
        if not generated:
            print("error: --write-template: no catalog of generated text", file=sys.stderr)
            return USAGE_ERROR
        chosen = [c for c in generated if args.domain in (None, c.domain)]
        if not chosen:
            domains = ", ".join(dict.fromkeys(c.domain for c in generated))
            print(f"error: --domain: no domain {args.domain!r} (known: {domains})", file=sys.stderr)
            return USAGE_ERROR
        return _write_template(args, root, chosen[0])
    options = I18nOptions(
        docs=docs,
        locales=locales,
        conf_dir=root,
        glossary=glossary,
        langs=tuple(dict.fromkeys(args.lang or TRANSLATED)),
        templates=args.templates,
        reuse_templates=root / "_build" / "gettext",
        build_templates=not args.no_build,
        claim_modules=tuple(args.claims_module),
        root=root,
        generated=generated,
        recorded=tuple(sorted((root / "docs" / "_evidence").glob("*.json"))),
        # a deleted list approves nothing
        approvals=None if args.no_approvals else reviewed,
    )
    result = check(options)
    if args.approve_claims:
        return _approve(result, reviewed)
    if args.json_file is not None:
        args.json_file.parent.mkdir(parents=True, exist_ok=True)
        args.json_file.write_text(render_json(result), encoding="utf-8")
    sys.stdout.write(RENDERERS[args.format](result))
    return result.exit_code


def _write_template(args: argparse.Namespace, root: Path, catalog: GeneratedCatalog) -> int:
    from checker import registry
    from checker.i18n.extraction import write_template

    try:
        claims = registry.load(tuple(args.claims_module), package=registry.DEFAULT_PACKAGE)
    except (registry.RegistryError, ImportError) as exc:
        print(f"error: the claim modules did not load: {exc}", file=sys.stderr)
        return 1
    recorded = tuple(sorted((root / "docs" / "_evidence").glob("*.json")))
    extraction = catalog.extract(tuple(claims), root, recorded)
    write_template(extraction, args.write_template, catalog.domain)
    for where, line, text in extraction.problems:
        print(f"{where}:{line}: decision rule {text}", file=sys.stderr)
    print(f"{args.write_template}: {len(extraction.messages)} messages")
    return 1 if extraction.problems else 0


def _approve(result: I18nResult, path: Path) -> int:
    """Record every translated claim statement of ``result`` as reviewed, in ``path``."""
    from checker.i18n import Check, approvals

    others = [f for f in result.errors if f.check is not Check.CLAIM_APPROVAL]
    if others:
        print(
            f"error: --approve-claims: fix the {len(others)} other error(s) first "
            "(run without --approve-claims to see them)",
            file=sys.stderr,
        )
        return 1
    before = approvals.read(path).statements
    approvals.write(path, result.statements)
    new = len(set(result.statements) - before)
    gone = len(before - set(result.statements))
    print(
        f"{path}: {len(result.statements)} translations of claim statements and decision "
        f"rules approved ({new} newly, {gone} no longer in the catalogs)"
    )
    return 0
