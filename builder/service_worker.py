"""Write stage, last step: the service worker that keeps the built site for offline use.

`sw.js` at the site's root is site/src/service-worker.js with the build's manifest put in: every
file the site holds with its SHA-256, and the build id, a digest of them all. The service worker
names its cache after the build id, so a new build is a new cache that replaces the old one as a
whole (docs/architecture.md, "Offline").

Two groups: the shell (pages, bundles, checkpoint archives, small) is cached when the service
worker installs; the runtime (the vendored Pyodide and its wheels under pyodide/, ~14 MB) only once
a page starts Python, so a page that is only read never downloads Pyodide.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from builder.paths import CODE_ROOT

SERVICE_WORKER_NAME = "sw.js"
SERVICE_WORKER_SOURCE = CODE_ROOT / "site" / "src" / "service-worker.js"
MANIFEST_PLACEHOLDER = "self.WERKPLAATS_MANIFEST"
RUNTIME_PREFIX = "pyodide/"


@dataclass(frozen=True)
class SiteManifest:
    build: str
    files: dict[str, str]  # URL relative to the site root -> SHA-256 of its bytes
    runtime: list[str]  # the URLs cached only once a page starts Python

    def as_json(self) -> str:
        return json.dumps({"build": self.build, "files": self.files, "runtime": self.runtime},
                          separators=(",", ":"), sort_keys=True)


def site_url(relative_path: str) -> str:
    """The URL a page asks for: a folder's index.html is asked for as the folder."""
    if relative_path == "index.html":
        return "./"
    if relative_path.endswith("/index.html"):
        return relative_path[: -len("index.html")]
    return relative_path


def site_manifest(out_dir: Path) -> SiteManifest:
    files: dict[str, str] = {}
    for path in sorted(out_dir.rglob("*")):
        relative = path.relative_to(out_dir).as_posix()
        if not path.is_file() or relative == SERVICE_WORKER_NAME:
            continue
        files[site_url(relative)] = hashlib.sha256(path.read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for url, sha256 in files.items():
        digest.update(f"{url}\0{sha256}\n".encode())
    runtime = [url for url in files if url.startswith(RUNTIME_PREFIX)]
    return SiteManifest(build=digest.hexdigest()[:16], files=files, runtime=runtime)


def write_service_worker(out_dir: Path) -> SiteManifest:
    """`out_dir/sw.js` for the files `out_dir` holds now (so this runs after every other step)."""
    manifest = site_manifest(out_dir)
    source = SERVICE_WORKER_SOURCE.read_text(encoding="utf-8")
    if MANIFEST_PLACEHOLDER not in source:
        raise RuntimeError(f"{SERVICE_WORKER_SOURCE}: no {MANIFEST_PLACEHOLDER} to fill in")
    script = source.replace(MANIFEST_PLACEHOLDER, manifest.as_json(), 1)
    (out_dir / SERVICE_WORKER_NAME).write_text(script, encoding="utf-8")
    return manifest
