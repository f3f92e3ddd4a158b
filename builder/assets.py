"""Write stage: the front end of a built site.

Bundles `site/src/` with esbuild into `assets/`, and vendors the pinned Pyodide core plus the
micropip and packaging wheels into `pyodide/`, with a lock file whose hashes match what we ship.
Packages we do not vendor (numpy, ...) point at the public Pyodide CDN of the exact same version.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder.errors import BuildError
from builder.paths import CODE_ROOT
from builder.widgets import SCRIPT_NAME, STYLE_NAME, Widget

SITE_SRC = CODE_ROOT / "site" / "src"
WHEELS_DIR = CODE_ROOT / "site" / "wheels"
NODE_MODULES = CODE_ROOT / "node_modules"

# The bundles the pages need; the worker is its own entry so it loads only when Python starts, and the
# index page has its own (index-page.js) so it loads neither the editor nor Python.
BUNDLE_ENTRIES = ("lesson.js", "index-page.js", "pyodide-worker.js", "lesson.css")

# What Pyodide fetches at runtime in a module worker; source maps, consoles and typings stay out.
PYODIDE_RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")

# Python packages served from our own site, so `import micropip` works offline.
VENDORED_PACKAGES = ("micropip", "packaging")


@dataclass(frozen=True)
class VendoredWheel:
    package: str
    path: Path
    sha256: str


def build_assets(out_dir: Path) -> None:
    """Write `out_dir/assets/` and `out_dir/pyodide/`."""
    pyodide_dir = NODE_MODULES / "pyodide"
    esbuild = NODE_MODULES / ".bin" / "esbuild"
    if not pyodide_dir.is_dir() or not esbuild.exists():
        raise BuildError(None, None, "front-end dependencies are missing in node_modules/: run npm ci")
    bundle_front_end(esbuild, out_dir / "assets")
    vendor_pyodide(pyodide_dir, out_dir / "pyodide")


def build_widget_assets(widgets: list[Widget], out_dir: Path) -> None:
    """`assets/widgets/<name>/widget.js` (and widget.css) for each widget a lesson uses: one
    bundle per widget, so a page loads only its own widgets' code."""
    if not widgets:
        return
    esbuild = NODE_MODULES / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BuildError(None, None, "front-end dependencies are missing in node_modules/: run npm ci")
    entries = []
    for widget in widgets:
        entries.append(widget.directory / SCRIPT_NAME)
        if widget.has_style:
            entries.append(widget.directory / STYLE_NAME)
    # Every widget folder sits in one widgets/ directory: the output keeps <name>/ under it.
    outbase = widgets[0].directory.parent
    run_esbuild(esbuild, entries, out_dir / "assets" / "widgets", [f"--outbase={outbase}"],
                what="the widgets")


def bundle_front_end(esbuild: Path, assets_dir: Path) -> None:
    run_esbuild(esbuild, [SITE_SRC / entry for entry in BUNDLE_ENTRIES], assets_dir, [], what="site/src")


def run_esbuild(esbuild: Path, entries: list[Path], assets_dir: Path, extra: list[str], what: str) -> None:
    assets_dir.mkdir(parents=True, exist_ok=True)
    command = [
        str(esbuild),
        *(str(entry) for entry in entries),
        *extra,
        "--bundle",
        "--format=esm",
        "--minify",
        "--target=es2020",
        "--loader:.py=text",
        "--log-level=error",
        f"--outdir={assets_dir}",
    ]
    completed = subprocess.run(command, cwd=CODE_ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        raise BuildError(None, None, f"bundling {what} with esbuild failed: {first_error_line(completed.stderr)}")


def first_error_line(esbuild_stderr: str) -> str:
    for line in esbuild_stderr.splitlines():
        line = line.strip()
        if line.startswith("✘") or "ERROR" in line:
            return line.lstrip("✘ ").strip()
    stripped = esbuild_stderr.strip()
    return stripped.splitlines()[0] if stripped else "no output from esbuild"


def vendor_pyodide(pyodide_dir: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_RUNTIME_FILES:
        source = pyodide_dir / name
        if not source.is_file():
            raise BuildError(None, None, f"node_modules/pyodide/{name} is missing: run npm ci")
        shutil.copyfile(source, target / name)
    wheels = find_vendored_wheels(WHEELS_DIR)
    for wheel in wheels:
        shutil.copyfile(wheel.path, target / wheel.path.name)
    npm_lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    cdn_base = pyodide_cdn_base(pyodide_dir)
    lock = derive_lock(npm_lock, wheels, cdn_base)
    (target / "pyodide-lock.json").write_text(json.dumps(lock, separators=(",", ":")), encoding="utf-8")


def find_vendored_wheels(wheels_dir: Path) -> list[VendoredWheel]:
    wheels = []
    for package in VENDORED_PACKAGES:
        matches = sorted(wheels_dir.glob(f"{package}-*.whl"))
        if len(matches) != 1:
            raise BuildError(None, None, f"expected exactly one {package} wheel in site/wheels/, found {len(matches)}")
        path = matches[0]
        wheels.append(VendoredWheel(package, path, hashlib.sha256(path.read_bytes()).hexdigest()))
    return wheels


def pyodide_cdn_base(pyodide_dir: Path) -> str:
    """The CDN folder this Pyodide release itself falls back to, for its exact version."""
    version = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))["version"]
    loader = (pyodide_dir / "pyodide.mjs").read_text(encoding="utf-8")
    # pyodide.mjs holds its default CDN as a template literal: `https://<host>/pyodide/v${X}/full/`.
    match = re.search(r"`(https://[^`$]+/v)\$\{\w+\}(/full/)`", loader)
    if match is None:
        raise BuildError(None, None, "cannot find the Pyodide CDN address in node_modules/pyodide/pyodide.mjs")
    return f"{match.group(1)}{version}{match.group(2)}"


def derive_lock(npm_lock: dict[str, Any], wheels: list[VendoredWheel], cdn_base: str) -> dict[str, Any]:
    """The npm lock file, with vendored wheels local (real hashes) and everything else on the CDN."""
    lock = json.loads(json.dumps(npm_lock))
    vendored = {wheel.package: wheel for wheel in wheels}
    for name, entry in lock["packages"].items():
        wheel = vendored.get(name)
        if wheel is not None:
            entry["file_name"] = wheel.path.name
            entry["sha256"] = wheel.sha256
        else:
            entry["file_name"] = cdn_base + entry["file_name"]
    missing = set(vendored) - set(lock["packages"])
    if missing:
        raise BuildError(None, None, f"the Pyodide lock file has no entry for {', '.join(sorted(missing))}")
    derived: dict[str, Any] = lock
    return derived
