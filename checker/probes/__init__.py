"""Measuring helpers shared by probes. Every function here imports torch lazily, so claim
modules can be imported (and their sources hashed) without paying for torch."""
