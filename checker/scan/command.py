"""``python -m checker scan PATH...``: the arguments, and the call into
:func:`checker.scan.run.scan`.

Exit codes: 0 when no finding is contradicted or broken and every file could be read, 1
otherwise, 2 for usage errors (a path that does not exist, a bad option).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from checker.text.languages import LANGS

USAGE_ERROR = 2


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scan`` command to the CLI's subcommands."""
    p = commands.add_parser(
        "scan",
        help="check an article: run its code sandboxed and judge its claims",
        description="Scan articles (.md, .rst, .txt, .po, .ipynb, .html; folders are searched) for "
        "statements that execution contradicts and code that does not run.",
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--lang", choices=("auto", *LANGS), default="auto")
    p.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default=os.environ.get("CHECKER_FORMAT", "text"),
    )
    p.add_argument(
        "--device",
        choices=("cpu", "cuda", "all"),
        default=os.environ.get("CHECKER_DEVICE", "all"),
        help="devices whose evidence judges claims; 'all' (default) uses recorded CUDA "
        "evidence where no GPU is present",
    )
    p.add_argument("--timeout", type=float, default=20.0, help="seconds per snippet (default 20)")
    p.add_argument(
        "--memory-limit",
        type=float,
        default=4.0,
        metavar="GIB",
        help="extra address space per snippet, in GiB (default 4)",
    )
    p.add_argument("--no-run", action="store_true", help="judge the prose only; run no code")
    p.add_argument("--no-cache", action="store_true", help="ignore cached probe evidence")
    p.add_argument(
        "--base-url",
        default=os.environ.get("DOCS_BASE_URL", "_build/html"),
        help="where the built docs live, for links (default $DOCS_BASE_URL or _build/html)",
    )
    p.add_argument("--root", type=Path, default=Path.cwd(), help="the project (default: here)")


def run(args: argparse.Namespace) -> int:
    from checker import registry as registry_mod
    from checker.registry import RegistryError
    from checker.scan.report import RENDERERS
    from checker.scan.run import ScanOptions, scan
    from checker.scan.sandbox import SnippetLimits
    from checker.typing import DEVICES

    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        print(f"error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return USAGE_ERROR
    if args.timeout <= 0 or args.memory_limit <= 0:
        print("error: --timeout and --memory-limit must be positive", file=sys.stderr)
        return USAGE_ERROR
    try:
        registry = registry_mod.load()
    except RegistryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    options = ScanOptions(
        lang=args.lang,
        devices=DEVICES if args.device == "all" else (args.device,),
        limits=SnippetLimits(timeout_s=args.timeout, memory_bytes=int(args.memory_limit * 1024**3)),
        run_code=not args.no_run,
        use_cache=not args.no_cache,
        project_root=args.root,
        base_url=args.base_url,
    )
    result = scan(args.paths, registry, options)
    sys.stdout.write(RENDERERS[args.format](result))
    return result.exit_code
