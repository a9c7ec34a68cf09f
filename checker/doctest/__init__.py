"""Executing the docs: pages are split into snippets, snippets run per device under pytest."""
