"""builder/service_worker.py: the manifest sw.js carries (every file with its SHA-256, pages under
their folder URL, the runtime apart) and the build id that names the offline cache."""

import hashlib
import json

from builder.service_worker import MANIFEST_PLACEHOLDER, SERVICE_WORKER_SOURCE, site_manifest, write_service_worker


def make_site(root):
    files = {
        "index.html": "<p>index</p>",
        "rag-01/index.html": "<p>les</p>",
        "assets/lesson.js": "console.log(1)",
        "checkpoints/rag-01/meta.json": "{}",
        "pyodide/pyodide.asm.wasm": "wasm",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return files


def manifest_in(script: str) -> dict:
    start = script.index('{"build"')
    return json.JSONDecoder().raw_decode(script, start)[0]


def test_every_file_is_listed_with_its_hash_pages_under_their_folder(tmp_path):
    files = make_site(tmp_path)
    manifest = site_manifest(tmp_path)
    assert manifest.files == {
        "./": hashlib.sha256(files["index.html"].encode()).hexdigest(),
        "assets/lesson.js": hashlib.sha256(files["assets/lesson.js"].encode()).hexdigest(),
        "checkpoints/rag-01/meta.json": hashlib.sha256(b"{}").hexdigest(),
        "pyodide/pyodide.asm.wasm": hashlib.sha256(b"wasm").hexdigest(),
        "rag-01/": hashlib.sha256(files["rag-01/index.html"].encode()).hexdigest(),
    }
    assert manifest.runtime == ["pyodide/pyodide.asm.wasm"]


def test_the_build_id_changes_with_any_file_and_only_then(tmp_path):
    make_site(tmp_path)
    first = write_service_worker(tmp_path).build
    assert write_service_worker(tmp_path).build == first  # sw.js itself is not part of the build
    (tmp_path / "checkpoints" / "rag-01" / "meta.json").write_text('{"x": 1}', encoding="utf-8")
    assert write_service_worker(tmp_path).build != first


def test_sw_js_is_the_source_with_the_manifest_in_place_of_the_placeholder(tmp_path):
    make_site(tmp_path)
    manifest = write_service_worker(tmp_path)
    script = (tmp_path / "sw.js").read_text(encoding="utf-8")
    assert MANIFEST_PLACEHOLDER in SERVICE_WORKER_SOURCE.read_text(encoding="utf-8")
    assert MANIFEST_PLACEHOLDER not in script
    assert f"const MANIFEST = {manifest.as_json()};" in script
    assert manifest_in(script) == {"build": manifest.build, "files": manifest.files, "runtime": manifest.runtime}
