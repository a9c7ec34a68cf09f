"""The project's claims: one package per page (a topic), one module per section of the page.

A topic package declares its sections in page order, ``SECTIONS = (...)`` (a section with
subsections may be a package of them); each section module holds, for each of its claims, the
probe, the control, the helpers only that claim uses, and the ``Claim``, and ends with
``CLAIMS``. What several sections share is in a module of the topic whose name starts with
``_``. :mod:`checker.registry` loads them in that order; shared measurement is in
:mod:`checker.measure`.

Claim modules must not import torch at module level: the parent process of a ``verify`` run
or a docs build hashes probe sources without paying for torch. Probes import it themselves.
"""
