"""Submissions, results and tokens, in one SQLite file of the web process (WAL: its threads
read and write it at once; workers never open it, see :mod:`checker.service.queue`). A job is
written here before it is queued, so a restart loses nothing: :meth:`Store.unfinished` is
queued again when the service starts."""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    lang TEXT NOT NULL,
    name TEXT NOT NULL,
    suffix TEXT NOT NULL,
    content TEXT NOT NULL,
    run_code INTEGER NOT NULL,
    owner TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    expires REAL NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    stage TEXT NOT NULL DEFAULT 'queued',
    result TEXT,
    error TEXT
);
CREATE INDEX IF NOT EXISTS jobs_owner ON jobs (owner, status);
CREATE TABLE IF NOT EXISTS tokens (
    name TEXT PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
"""

#: Job states, in order.
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
UNFINISHED = (QUEUED, RUNNING)


@dataclass(frozen=True)
class ServiceJob:
    id: str
    kind: str  # "scan" | "translation"
    status: str
    lang: str
    #: The name the submitter gave (shown, never used as a path).
    name: str
    #: The format, chosen by the service from an allowed list (``.md``, ``.po``...).
    suffix: str
    content: str
    run_code: bool
    owner: str | None
    created: float
    updated: float
    expires: float
    done: int
    total: int
    stage: str
    result: dict[str, Any] | None
    error: str | None

    @property
    def finished(self) -> bool:
        return self.status not in UNFINISHED

    def public(self) -> dict[str, Any]:
        """What the API says about the job (never its content)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "lang": self.lang,
            "name": self.name,
            "run_code": self.run_code,
            "created": self.created,
            "expires": self.expires,
            "progress": {"done": self.done, "total": self.total, "stage": self.stage},
            "error": self.error,
        }


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        db.row_factory = sqlite3.Row
        try:
            yield db
        finally:
            db.close()

    # -- jobs ----------------------------------------------------------------------------------

    def add_job(  # noqa: PLR0917
        self,
        kind: str,
        lang: str,
        name: str,
        suffix: str,
        content: str,
        run_code: bool,
        owner: str | None,
        ttl_s: float,
    ) -> ServiceJob:
        now = time.time()
        job_id = secrets.token_urlsafe(12)
        with self._connect() as db:
            db.execute(
                "INSERT INTO jobs (id, kind, status, lang, name, suffix, content, run_code, owner,"
                " created, updated, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    job_id,
                    kind,
                    QUEUED,
                    lang,
                    name,
                    suffix,
                    content,
                    run_code,
                    owner,
                    now,
                    now,
                    now + ttl_s,
                ),
            )
        job = self.job(job_id)
        assert job is not None
        return job

    def job(self, job_id: str) -> ServiceJob | None:
        """The job, or ``None`` when unknown or expired."""
        with self._connect() as db:
            row = db.execute(
                "SELECT * FROM jobs WHERE id = ? AND expires > ?", (job_id, time.time())
            ).fetchone()
        return None if row is None else _job(row)

    def claim(self, job_id: str) -> ServiceJob | None:
        """Mark a queued job running; ``None`` when another worker has it or it is gone."""
        with self._connect() as db:
            changed = db.execute(
                "UPDATE jobs SET status = ?, stage = 'started', updated = ? "
                "WHERE id = ? AND status = ?",
                (RUNNING, time.time(), job_id, QUEUED),
            ).rowcount
        return self.job(job_id) if changed else None

    def progress(self, job_id: str, stage: str, done: int, total: int) -> None:
        """A worker's progress on an unfinished job (which is running from then on)."""
        with self._connect() as db:
            db.execute(
                "UPDATE jobs SET status = ?, stage = ?, done = ?, total = ?, updated = ? "
                "WHERE id = ? AND status IN (?, ?)",
                (RUNNING, stage, done, total, time.time(), job_id, *UNFINISHED),
            )

    def finish(self, job_id: str, result: dict[str, Any]) -> None:
        with self._connect() as db:
            db.execute(
                "UPDATE jobs SET status = ?, stage = 'done', done = MAX(done, total), "
                "result = ?, updated = ? WHERE id = ?",
                (DONE, json.dumps(result, ensure_ascii=False), time.time(), job_id),
            )

    def fail(self, job_id: str, error: str) -> None:
        with self._connect() as db:
            db.execute(
                "UPDATE jobs SET status = ?, stage = 'failed', error = ?, updated = ? WHERE id = ?",
                (FAILED, error, time.time(), job_id),
            )

    def unfinished_ids(self) -> list[str]:
        """Jobs queued or running (and not expired), oldest first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT id FROM jobs WHERE status IN (?, ?) AND expires > ? ORDER BY created",
                (*UNFINISHED, time.time()),
            ).fetchall()
        return [row["id"] for row in rows]

    def unfinished(self) -> list[str]:
        """Jobs not finished (a worker stopped while running one, or a queue was lost), made
        queued again, oldest first: the service queues them again when it starts."""
        with self._connect() as db:
            db.execute(
                "UPDATE jobs SET status = ?, stage = 'queued' WHERE status = ?", (QUEUED, RUNNING)
            )
            rows = db.execute(
                "SELECT id FROM jobs WHERE status = ? AND expires > ? ORDER BY created",
                (QUEUED, time.time()),
            ).fetchall()
        return [row["id"] for row in rows]

    def active_jobs(self, owner: str) -> int:
        with self._connect() as db:
            row = db.execute(
                "SELECT COUNT(*) FROM jobs WHERE owner = ? AND status IN (?, ?) AND expires > ?",
                (owner, *UNFINISHED, time.time()),
            ).fetchone()
        return int(row[0])

    def count(self, status: str | None = None) -> int:
        with self._connect() as db:
            if status is None:
                row = db.execute("SELECT COUNT(*) FROM jobs").fetchone()
            else:
                row = db.execute("SELECT COUNT(*) FROM jobs WHERE status = ?", (status,)).fetchone()
        return int(row[0])

    def purge(self) -> int:
        """Delete expired jobs; how many."""
        with self._connect() as db:
            return db.execute("DELETE FROM jobs WHERE expires <= ?", (time.time(),)).rowcount

    def job_ids(self) -> set[str]:
        """The ids of every job kept (expired or not: :meth:`purge` first)."""
        with self._connect() as db:
            return {str(row[0]) for row in db.execute("SELECT id FROM jobs")}

    # -- tokens --------------------------------------------------------------------------------

    def add_token(self, name: str, digest: str) -> bool:
        """False when the name is taken."""
        try:
            with self._connect() as db:
                db.execute(
                    "INSERT INTO tokens (name, digest, created) VALUES (?, ?, ?)",
                    (name, digest, time.time()),
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def token_owner(self, digest: str) -> str | None:
        with self._connect() as db:
            row = db.execute("SELECT name FROM tokens WHERE digest = ?", (digest,)).fetchone()
        return None if row is None else str(row["name"])


def _job(row: sqlite3.Row) -> ServiceJob:
    return ServiceJob(
        id=row["id"],
        kind=row["kind"],
        status=row["status"],
        lang=row["lang"],
        name=row["name"],
        suffix=row["suffix"],
        content=row["content"],
        run_code=bool(row["run_code"]),
        owner=row["owner"],
        created=row["created"],
        updated=row["updated"],
        expires=row["expires"],
        done=row["done"],
        total=row["total"],
        stage=row["stage"],
        result=None if row["result"] is None else json.loads(row["result"]),
        error=row["error"],
    )
