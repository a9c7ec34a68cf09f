"""The article scanner: ``python -m checker scan`` reads an article, runs its code in a sandbox,
finds the statements it makes about known claims, and reports what execution contradicts.

Pipeline: ``readers`` (a file -> :class:`~checker.scan.document.Document` of prose and code
blocks) -> ``codelines`` (unfenced code in plain text) -> ``program`` (a snippet's statements and
the outputs the article shows) -> ``indent`` (repair lost indentation) -> ``sandbox`` (run it)
-> ``snippets`` and ``statements`` (verdicts) -> ``findings`` -> ``report`` (text, JSON,
GitHub). ``run.scan`` ties them together; ``command`` is the CLI.
"""
