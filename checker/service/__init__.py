"""The checking service: ``python -m checker serve``, a web page and an HTTP API over the
article scanner (:mod:`checker.scan`) and the translation gate (:mod:`checker.i18n`).

- :mod:`.config`: settings (``CHECKER_SERVICE_*`` environment variables, shared by the web
  process and the workers);
- :mod:`.store`: submissions, results, tokens and workers in SQLite;
- :mod:`.auth`: tokens (``serve --create-token NAME``), stored as hashes;
- :mod:`.limits`: size, length, snippet, concurrency and rate limits, each a clear 4xx;
- :mod:`.submissions`: decoding and validating what was submitted (never a path, never a shell);
- :mod:`.checks`: the work itself, calling the scanner's and the gate's functions;
- :mod:`.queue`: the huey queue (SQLite by default, Redis for workers on several machines);
- :mod:`.api`, :mod:`.pages`: the HTTP routes (JSON and HTML); :mod:`.app` wires them;
- :mod:`.csrf`, :mod:`.ui`: form protection and the pages' own language (gettext domain
  ``service``);
- :mod:`.command`: the ``serve`` command.
"""
