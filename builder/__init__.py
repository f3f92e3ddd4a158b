"""The static-site builder: Dutch Markdown lessons in, an offline lesson site out."""
