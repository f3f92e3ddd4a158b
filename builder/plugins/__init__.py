"""One markdown-it plugin function per lesson extension; see docs/authoring.md for the syntax."""
