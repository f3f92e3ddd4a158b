// Grades Python submissions with the runner core inside Pyodide (Node), for test_pyodide.py.
// Usage: node pyodide_grade.mjs REPO_ROOT LESSON_ID FILE.py... ; prints one JSON line {file: statuses}.
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";

const [root, lesson, ...files] = process.argv.slice(2);
const pyodide = await loadPyodide({ indexURL: path.join(root, "node_modules", "pyodide") + path.sep });

function copyTree(source, target) {
  pyodide.FS.mkdirTree(target);
  for (const name of fs.readdirSync(source)) {
    const from = path.join(source, name);
    if (fs.statSync(from).isDirectory()) {
      if (name !== "__pycache__") copyTree(from, `${target}/${name}`);
    } else if (name.endsWith(".py") || name.endsWith(".toml")) {
      pyodide.FS.writeFile(`${target}/${name}`, fs.readFileSync(from));
    }
  }
}

copyTree(path.join(root, "runner"), "/lab/runner");
for (const name of ["checkpoints.toml", "solution.py", "tests"]) {
  const from = path.join(root, "checkpoints", lesson, name);
  if (fs.statSync(from).isDirectory()) copyTree(from, `/lab/${lesson}/${name}`);
  else { pyodide.FS.mkdirTree(`/lab/${lesson}`); pyodide.FS.writeFile(`/lab/${lesson}/${name}`, fs.readFileSync(from)); }
}
const sources = Object.fromEntries(files.map((file) => [file, fs.readFileSync(file, "utf8")]));
pyodide.globals.set("sources_json", JSON.stringify(sources));
pyodide.globals.set("lesson_dir", `/lab/${lesson}`);
const result = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/lab")
from runner.core.bundle import load_bundle
from runner.core.grade import grade
from runner.core.host import InProcessHost

bundle = load_bundle(lesson_dir, include_offline=False)
verdicts = {name: grade(bundle, InProcessHost(), code).statuses() for name, code in json.loads(sources_json).items()}
json.dumps({"python": sys.version.split()[0], "bundle_sha256": bundle.bundle_sha256, "verdicts": verdicts})
`);
console.log(result);
