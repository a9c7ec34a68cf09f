"""``python -m checker``: a thin command line over :mod:`checker.report.verify` (and, for ``i18n``,
:mod:`checker.i18n.command`; for ``scan``, :mod:`checker.scan.command`; for ``serve``,
:mod:`checker.service.command`).

Exit codes: 0 success, 1 a claim is contradicted (or a probe broke) or a translation has an
error, 2 usage errors.
Options shared by commands fall back to ``CHECKER_*`` environment variables.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from checker import registry as registry_mod
from checker.i18n import command as i18n_command
from checker.record import RecordError
from checker.registry import RegistryError
from checker.report import Report, renderers
from checker.report.verify import DeviceAbsent, NothingSelected, VerifyOptions, record, verify
from checker.runner import ProbeLimits
from checker.scan import command as scan_command
from checker.service import command as serve_command
from checker.typing import DEVICES, Device
from checker.versions import VersionsError

USAGE_ERROR = 2


def _env(name: str, default: str | None = None) -> str | None:
    return os.environ.get(f"CHECKER_{name}", default)


def _shared_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--claim",
        metavar="PATTERN",
        default=_env("CLAIM"),
        help="only claims whose id matches this shell pattern (e.g. 'amp/*'); env CHECKER_CLAIM",
    )
    parser.add_argument(
        "--claims-module",
        metavar="MODULE",
        action="append",
        default=[m for m in (_env("CLAIMS_MODULES") or "").split(",") if m],
        help="load claims from this module too (repeatable); "
        "env CHECKER_CLAIMS_MODULES, comma-separated",
    )
    parser.add_argument(
        "--only-modules",
        action="store_true",
        help="load only --claims-module modules, not the project's claims",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=int(_env("JOBS", "1") or 1),
        help="probes run at once (default 1; keep 1 for memory/timing claims)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds a probe may run on an idle reference machine (default: each claim's own); "
        "stretched by this machine's measured slowdown (env CHECKER_SLOWDOWN fixes it)",
    )
    parser.add_argument(
        "--memory-limit",
        type=float,
        default=6.0,
        metavar="GIB",
        help="extra address space (CPU) or GPU memory per probe, in GiB",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m checker",
        description="Prove or refute the docs' claims about PyTorch by running their probes.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    v = commands.add_parser("verify", help="run every claim's probe and compare with the docs")
    v.add_argument(
        "--device",
        choices=("cpu", "cuda", "all"),
        default=_env("DEVICE", "all"),
        help="devices to run on; 'all' (default) reports absent ones as not run",
    )
    v.add_argument("--format", choices=sorted(renderers()), default="text")
    v.add_argument(
        "--strict",
        action="store_true",
        help="also fail when recorded evidence is stale (its probe changed)",
    )
    v.add_argument("--no-cache", action="store_true", help="ignore cached results")
    _shared_options(v)

    r = commands.add_parser(
        "record", help="run the claims on a device and commit the evidence under docs/_evidence/"
    )
    r.add_argument("--device", choices=DEVICES, default="cuda")
    r.add_argument(
        "--output",
        type=Path,
        default=None,
        help="evidence file (default docs/_evidence/DEVICE.json)",
    )
    _shared_options(r)
    i18n_command.add_parser(commands)
    scan_command.add_parser(commands)
    serve_command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "i18n":
        from checker.project import generated_catalogs  # the extension's and the service's

        return i18n_command.run(args, generated_catalogs)
    elsewhere = {"scan": scan_command.run, "serve": serve_command.run}
    if args.command in elsewhere:
        return elsewhere[args.command](args)
    try:
        registry = registry_mod.load(
            args.claims_module, package=None if args.only_modules else registry_mod.DEFAULT_PACKAGE
        )
    except RegistryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    limits = ProbeLimits(timeout_s=args.timeout, memory_bytes=int(args.memory_limit * 1024**3))
    devices: tuple[Device, ...] = (
        DEVICES if getattr(args, "device", "all") == "all" else (args.device,)
    )
    options = VerifyOptions(
        devices=devices,
        pattern=args.claim,
        jobs=args.jobs,
        limits=limits,
        strict=getattr(args, "strict", False),
        use_cache=not getattr(args, "no_cache", False),
    )
    try:
        if args.command == "record":
            return _record(registry, args.device, options, args.output)
        result = verify(registry, options)
    except (NothingSelected, DeviceAbsent, RecordError, VersionsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    sys.stdout.write(renderers()[args.format](result.report))
    return result.exit_code


def _record(
    registry: registry_mod.Registry, device: Device, options: VerifyOptions, output: Path | None
) -> int:
    result = record(registry, device, options, output)
    report = Report(
        result.verdicts,
        result.verdicts[0].evidence.torch_version
        if result.verdicts and result.verdicts[0].evidence
        else "?",
    )
    sys.stdout.write(renderers()["text"](report))
    print(f"recorded {result.recorded} claims in {result.path}")
    return result.exit_code
