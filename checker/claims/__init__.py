"""The project's claims, one module per topic. Each module defines ``CLAIMS``.

Claim modules must not import torch at module level: the parent process of a ``verify`` run
or a docs build hashes probe sources without paying for torch. Probes import it themselves.
"""
