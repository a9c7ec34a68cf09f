"""The text layer: reading .po catalogs, MyST/Markdown pages and articles, and where the pages
show claims; it imports only the core."""
