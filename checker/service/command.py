"""``python -m checker serve``: the web service and its workers, with embedded defaults (SQLite
for the store and the queue under ``_build/service/``: no other server to install).

- ``serve [--host 127.0.0.1] [--port 8000]``: queues again what a stop left unfinished,
  starts ``--workers`` worker processes (a huey consumer, ``serve --worker``) and the web
  application (uvicorn); stopping it stops them.
- ``serve --worker [--queue cpu|cuda]``: only a worker (for more machines: with
  ``--redis-url``); on a GPU machine, ``--queue cuda`` takes the checks whose code asks for
  CUDA (see :mod:`checker.service.queue`). ``serve`` starts one such worker itself where this
  machine has CUDA.
- ``serve --create-token NAME``: prints a new token once (only its hash is stored);
  ``serve --list-tokens`` names every token and when it was created; ``serve --revoke-token
  NAME`` forgets one (its requests are refused from then on: "unknown or revoked token").
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import subprocess
import sys
from pathlib import Path

USAGE_ERROR = 2


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "serve",
        help="run the checking service (web pages and HTTP API)",
        description="Serve the article scanner and the translation gate over HTTP. Settings "
        "also come from CHECKER_SERVICE_* variables (see checker/service/config.py).",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--data",
        type=Path,
        default=None,
        help="folder of the SQLite files (default _build/service)",
    )
    p.add_argument(
        "--workers", type=int, default=None, help="worker processes to start (default 2; 0: none)"
    )
    p.add_argument("--redis-url", default=None, help="queue on Redis (redis://host:port/db)")
    p.add_argument(
        "--queue",
        choices=("cpu", "cuda"),
        default="cpu",
        help="with --worker: the queue to take checks from (cuda: those whose code asks for "
        "CUDA; run it on a GPU machine)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=None,
        metavar="ADDRESS",
        help="a reverse proxy whose X-Forwarded-For is believed (repeat for more; default: "
        "none, not even loopback)",
    )
    p.add_argument("--root", type=Path, default=None, help="the project (default: here)")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--worker", action="store_true", help="run only a worker")
    action.add_argument("--create-token", metavar="NAME", help="create a token and print it")
    action.add_argument("--list-tokens", action="store_true", help="name every token")
    action.add_argument("--revoke-token", metavar="NAME", help="revoke a token")


def _config(args: argparse.Namespace) -> object:
    from checker.service.config import ServiceConfig

    config = ServiceConfig.from_env()
    changes: dict[str, object] = {}
    if args.root is not None:
        changes["root"] = args.root.resolve()
    if args.data is not None:
        changes["data_dir"] = args.data.resolve()
    if args.workers is not None:
        changes["workers"] = args.workers
    if args.redis_url:
        changes["redis_url"] = args.redis_url
    if args.trusted_proxy:
        changes["trusted_proxies"] = ",".join(args.trusted_proxy)
    return dataclasses.replace(config, **changes)  # type: ignore[arg-type]


def run(args: argparse.Namespace) -> int:
    from checker.service.config import ServiceConfig

    config = _config(args)
    assert isinstance(config, ServiceConfig)
    if args.workers is not None and args.workers < 0:
        print("error: --workers must be 0 or more", file=sys.stderr)
        return USAGE_ERROR
    if args.create_token:
        return _create_token(config, args.create_token)
    if args.list_tokens or args.revoke_token:
        return _tokens(config, args.revoke_token)
    if args.worker:
        return _worker(config, args.queue)
    return _serve(config, args.host, args.port)


def _create_token(config: object, name: str) -> int:
    from checker.service.auth import TokenError, create_token
    from checker.service.config import ServiceConfig
    from checker.service.store import Store

    assert isinstance(config, ServiceConfig)
    try:
        token = create_token(Store(config.database), name)
    except TokenError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    print(token)
    print(f"token {name!r} created; it is shown only now", file=sys.stderr)
    return 0


def _tokens(config: object, revoke: str | None) -> int:
    import time

    from checker.service.config import ServiceConfig
    from checker.service.store import Store

    assert isinstance(config, ServiceConfig)
    store = Store(config.database)
    if revoke is not None:
        if not store.revoke_token(revoke):
            print(f"error: no token named {revoke!r}", file=sys.stderr)
            return USAGE_ERROR
        print(f"token {revoke!r} revoked", file=sys.stderr)
        return 0
    for name, created in store.tokens():
        print(f"{name}\tcreated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(created))}")
    return 0


def _worker(config: object, queue: str = "cpu") -> int:
    from checker.service.config import ServiceConfig
    from checker.service.queue import Queue
    from checker.service.worker import watch_supervisor

    assert isinstance(config, ServiceConfig)
    watch_supervisor()  # started by serve: ends with it
    Queue(config).consumer(max(config.workers, 1), queue).run()
    return 0


def _serve(config: object, host: str, port: int) -> int:
    import uvicorn

    from checker.service.app import create_app
    from checker.service.config import ServiceConfig
    from checker.service.queue import Queue
    from checker.service.worker import SUPERVISOR

    assert isinstance(config, ServiceConfig)
    queue = Queue(config)
    unfinished = queue.recover()
    if unfinished:
        print(f"serve: {unfinished} unfinished check(s) taken up again", file=sys.stderr)
    workers = []
    queues = ["cpu"] if config.workers > 0 else []
    if queues and _has_cuda():
        queues.append("cuda")
    for queue_name in queues:
        workers.append(
            subprocess.Popen(
                [sys.executable, "-m", "checker", "serve", "--worker", "--queue", queue_name],
                env={**os.environ, **config.to_env(), SUPERVISOR: str(os.getpid())},
                start_new_session=True,
            )
        )
    # uvicorn re-raises the signal that stopped it once it has shut down; as an exception
    # here, so the workers are stopped below.
    signal.signal(signal.SIGTERM, _stop)
    try:
        shown = f"[{host}]" if ":" in host else host
        print(f"serve: listening on http://{shown}:{port}", file=sys.stderr, flush=True)
        uvicorn.run(
            create_app(config, queue),
            host=host,
            port=port,
            log_level="warning",
            # X-Forwarded-For only from the proxies named (uvicorn believes loopback's by
            # default, which let any local client pick its address for the rate limit)
            proxy_headers=bool(config.trusted_proxies),
            forwarded_allow_ips=config.trusted_proxies or None,
        )
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGINT)  # huey's graceful stop: running jobs finish
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
    return 0


def _has_cuda() -> bool:
    from checker import devices

    return devices.presence("cuda").present


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)
