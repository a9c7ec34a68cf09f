"""The text layer: reading .po catalogs, MyST/Markdown pages and articles, and the languages;
it imports only the core."""
