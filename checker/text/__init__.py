"""The text layer: reading .po catalogs, MyST/Markdown pages and articles, the languages, and
where the pages show claims; it imports only the core."""
