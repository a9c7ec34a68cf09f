"""Submissions, results and tokens, in one SQLite file of the web process (WAL: its threads
read and write it at once; workers never open it, see :mod:`checker.service.queue`). A job is
written here before it is queued, so a restart loses nothing: the queue sends again what is
unfinished when the service starts.

``attempt`` counts the times a job was sent to the workers (0: held back, not sent yet); a
job whose worker died is sent once more with the next attempt, and a worker's result counts
only for the attempt the store holds (:mod:`checker.service.queue`). A token's limit of
unfinished jobs is checked and the job written in one ``BEGIN IMMEDIATE`` transaction, so
concurrent submissions (threads or web processes sharing the file) cannot pass it together."""

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
    error TEXT,
    attempt INTEGER NOT NULL DEFAULT 0
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


class ActiveLimit(Exception):
    """A token already has its limit of unfinished jobs; ``active`` of them."""

    def __init__(self, active: int) -> None:
        super().__init__(f"{active} unfinished jobs")
        self.active = active


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
    #: Times sent to the workers (0: not yet).
    attempt: int = 0

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
            "attempt": self.attempt,
            "error": self.error,
        }


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            columns = {row["name"] for row in db.execute("PRAGMA table_info(jobs)")}
            if "attempt" not in columns:  # a store written before attempts were counted
                db.execute("ALTER TABLE jobs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0")

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
        max_active: int | None = None,
    ) -> ServiceJob:
        """Write a new queued job; with ``owner`` and ``max_active``, only while the owner has
        fewer unfinished jobs (else :class:`ActiveLimit`), counted and written in one
        transaction that holds the database's write lock."""
        now = time.time()
        job_id = secrets.token_urlsafe(12)
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            if owner is not None and max_active is not None:
                active = int(
                    db.execute(
                        "SELECT COUNT(*) FROM jobs WHERE owner = ? AND status IN (?, ?) "
                        "AND expires > ?",
                        (owner, *UNFINISHED, now),
                    ).fetchone()[0]
                )
                if active >= max_active:
                    db.execute("ROLLBACK")
                    raise ActiveLimit(active)
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
            db.execute("COMMIT")
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

    def send(self, job_id: str, attempt: int) -> bool:
        """Record that attempt ``attempt`` of an unfinished job is sent to the workers (queued
        again: a retry starts over); False when the job has finished or moved on."""
        with self._connect() as db:
            changed = db.execute(
                "UPDATE jobs SET attempt = ?, status = ?, stage = 'queued', updated = ? "
                "WHERE id = ? AND attempt = ? AND status IN (?, ?)",
                (attempt, QUEUED, time.time(), job_id, attempt - 1, *UNFINISHED),
            ).rowcount
        return bool(changed)

    def progress(self, job_id: str, stage: str, done: int, total: int) -> None:
        """A worker's progress on an unfinished job (which is running from then on)."""
        with self._connect() as db:
            db.execute(
                "UPDATE jobs SET status = ?, stage = ?, done = ?, total = ?, updated = ? "
                "WHERE id = ? AND status IN (?, ?)",
                (RUNNING, stage, done, total, time.time(), job_id, *UNFINISHED),
            )

    def finish(self, job_id: str, result: dict[str, Any]) -> bool:
        """Record an unfinished job's result; False when it had finished already."""
        with self._connect() as db:
            return bool(
                db.execute(
                    "UPDATE jobs SET status = ?, stage = 'done', done = MAX(done, total), "
                    "result = ?, updated = ? WHERE id = ? AND status IN (?, ?)",
                    (
                        DONE,
                        json.dumps(result, ensure_ascii=False),
                        time.time(),
                        job_id,
                        *UNFINISHED,
                    ),
                ).rowcount
            )

    def fail(self, job_id: str, error: str) -> bool:
        """Record why an unfinished job failed; False when it had finished already."""
        with self._connect() as db:
            return bool(
                db.execute(
                    "UPDATE jobs SET status = ?, stage = 'failed', error = ?, updated = ? "
                    "WHERE id = ? AND status IN (?, ?)",
                    (FAILED, error, time.time(), job_id, *UNFINISHED),
                ).rowcount
            )

    def unfinished_ids(self) -> list[str]:
        """Jobs queued or running (and not expired), oldest first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT id FROM jobs WHERE status IN (?, ?) AND expires > ? ORDER BY created",
                (*UNFINISHED, time.time()),
            ).fetchall()
        return [row["id"] for row in rows]

    def unfinished(self) -> list[ServiceJob]:
        """Jobs queued or running (and not expired), oldest first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT * FROM jobs WHERE status IN (?, ?) AND expires > ? ORDER BY created",
                (*UNFINISHED, time.time()),
            ).fetchall()
        return [_job(row) for row in rows]

    def held(self) -> list[str]:
        """Anonymous jobs not sent to the workers yet, oldest first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT id FROM jobs WHERE attempt = 0 AND owner IS NULL AND status = ? "
                "AND expires > ? ORDER BY created",
                (QUEUED, time.time()),
            ).fetchall()
        return [row["id"] for row in rows]

    def sent_anonymous(self) -> int:
        """Anonymous jobs sent to the workers and not finished."""
        with self._connect() as db:
            row = db.execute(
                "SELECT COUNT(*) FROM jobs WHERE attempt > 0 AND owner IS NULL "
                "AND status IN (?, ?) AND expires > ?",
                (*UNFINISHED, time.time()),
            ).fetchone()
        return int(row[0])

    def position(self, job: ServiceJob) -> int:
        """A queued job's place in the line (1: next): the queued jobs before it that a worker
        takes first (a token holder's job goes before every anonymous one)."""
        owner_clause = "owner IS NOT NULL AND " if job.owner is not None else ""
        with self._connect() as db:
            row = db.execute(
                f"SELECT COUNT(*) FROM jobs WHERE {owner_clause}status = ? AND created < ? "
                "AND expires > ?",
                (QUEUED, job.created, time.time()),
            ).fetchone()
            before = int(row[0])
            if job.owner is None:  # token holders' queued jobs go first, whenever sent
                row = db.execute(
                    "SELECT COUNT(*) FROM jobs WHERE owner IS NOT NULL AND status = ? "
                    "AND created >= ? AND expires > ?",
                    (QUEUED, job.created, time.time()),
                ).fetchone()
                before += int(row[0])
        return before + 1

    def jobs_of(self, owner: str, limit: int = 100) -> list[ServiceJob]:
        """A token's jobs kept now, newest first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT * FROM jobs WHERE owner = ? AND expires > ? ORDER BY created DESC LIMIT ?",
                (owner, time.time(), limit),
            ).fetchall()
        return [_job(row) for row in rows]

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

    def tokens(self) -> list[tuple[str, float]]:
        """Every token's name and when it was created, oldest first (never the secret)."""
        with self._connect() as db:
            rows = db.execute("SELECT name, created FROM tokens ORDER BY created").fetchall()
        return [(str(row["name"]), float(row["created"])) for row in rows]

    def revoke_token(self, name: str) -> bool:
        """Forget a token (requests with it are refused from now on); False when unknown."""
        with self._connect() as db:
            return bool(db.execute("DELETE FROM tokens WHERE name = ?", (name,)).rowcount)

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
        attempt=row["attempt"],
    )
