"""The service's settings: one frozen dataclass, read from ``CHECKER_SERVICE_*`` variables so
the web process and every worker (started by ``serve`` or by hand) agree."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

_PREFIX = "CHECKER_SERVICE_"


@dataclass(frozen=True)
class ServiceLimits:
    #: Bytes of one upload or pasted text.
    upload_bytes: int = 1024 * 1024
    #: Characters of one article (after decoding).
    article_chars: int = 200_000
    #: Code snippets in one article when its code is run.
    snippets: int = 40
    #: Unfinished jobs one token may have at once.
    jobs_per_token: int = 2
    #: Anonymous jobs with the workers at once, service-wide (0: one fewer than the cpu
    #: workers there, at least one); the others wait their turn, token holders' go first.
    anonymous_jobs: int = 0
    #: Submissions one client (token, else address) may make per window.
    rate: int = 60
    rate_window_s: float = 60.0


@dataclass(frozen=True)
class ServiceConfig:
    #: Folder of ``service.sqlite3`` (submissions, results, tokens) and ``queue.sqlite3``.
    data_dir: Path
    #: The project: ``docs/``, ``docs/_evidence/``, ``_build/html/`` (the built site).
    root: Path
    #: ``redis://host:port/db``: the queue on Redis, for workers on several machines.
    redis_url: str | None = None
    #: Seconds a result is kept after it was submitted.
    result_ttl_s: float = 7 * 24 * 3600.0
    #: Worker processes ``serve`` starts (0: start none, run ``serve --worker`` elsewhere).
    workers: int = 2
    #: Seconds per snippet, and extra address space per snippet, in the sandbox.
    snippet_timeout_s: float = 20.0
    snippet_memory_gib: float = 4.0
    #: Build a preview of a translated page whose catalog the gate accepts (a Sphinx build
    #: of its language, seconds per check: checker.service.preview).
    preview: bool = True
    #: Seconds between a worker's signs of life; one silent for four of them (it crashed, or
    #: its machine went away) is no longer listed, and no check is routed to it.
    worker_heartbeat_s: float = 5.0
    #: Addresses of reverse proxies whose ``X-Forwarded-For``/``-Proto`` are believed
    #: (comma-separated; empty: none, the connection's address is the client's, whatever a
    #: request says, loopback included).
    trusted_proxies: str = ""
    limits: ServiceLimits = dataclasses.field(default_factory=ServiceLimits)

    @property
    def database(self) -> Path:
        return self.data_dir / "service.sqlite3"

    @property
    def queue_file(self) -> Path:
        return self.data_dir / "queue.sqlite3"

    @property
    def site(self) -> Path:
        """The built site, one folder per language."""
        return self.root / "_build" / "html"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> ServiceConfig:
        values = os.environ if env is None else env

        def get(name: str) -> str | None:
            return values.get(_PREFIX + name) or None

        root = Path(get("ROOT") or Path.cwd()).resolve()
        data = Path(get("DATA") or root / "_build" / "service").resolve()
        limits = ServiceLimits()
        limit_changes = {
            f.name: type(getattr(limits, f.name))(raw)
            for f in dataclasses.fields(ServiceLimits)
            if (raw := get(f"LIMIT_{f.name.upper()}")) is not None
        }
        changes: dict[str, object] = {}
        for name, kind in (
            ("result_ttl_s", float),
            ("workers", int),
            ("snippet_timeout_s", float),
            ("snippet_memory_gib", float),
            ("worker_heartbeat_s", float),
            ("trusted_proxies", str),
        ):
            raw = get(name.upper())
            if raw is not None:
                changes[name] = kind(raw)
        preview = get("PREVIEW")
        if preview is not None:
            changes["preview"] = preview.strip().lower() not in ("0", "false", "no", "off")
        return cls(
            data_dir=data,
            root=root,
            redis_url=get("REDIS_URL"),
            limits=dataclasses.replace(limits, **limit_changes),
            **changes,  # type: ignore[arg-type]
        )

    def to_env(self) -> dict[str, str]:
        """The variables that make :meth:`from_env` return this configuration."""
        env = {
            _PREFIX + "ROOT": str(self.root),
            _PREFIX + "DATA": str(self.data_dir),
            _PREFIX + "RESULT_TTL_S": repr(self.result_ttl_s),
            _PREFIX + "WORKERS": str(self.workers),
            _PREFIX + "SNIPPET_TIMEOUT_S": repr(self.snippet_timeout_s),
            _PREFIX + "SNIPPET_MEMORY_GIB": repr(self.snippet_memory_gib),
            _PREFIX + "PREVIEW": "1" if self.preview else "0",
            _PREFIX + "WORKER_HEARTBEAT_S": repr(self.worker_heartbeat_s),
        }
        if self.redis_url:
            env[_PREFIX + "REDIS_URL"] = self.redis_url
        if self.trusted_proxies:
            env[_PREFIX + "TRUSTED_PROXIES"] = self.trusted_proxies
        for f in dataclasses.fields(ServiceLimits):
            env[f"{_PREFIX}LIMIT_{f.name.upper()}"] = str(getattr(self.limits, f.name))
        return env
