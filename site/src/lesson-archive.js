// The lesson's checkpoint archive (builder/checkpoint_bundle.py: the runner core, the shipped
// tests and the reference solution), unpacked once into the page's one Pyodide worker, on every
// (re)start, for everything that runs Python from it: the checkpoint panel and the widgets.

// Where the archive is unpacked inside Pyodide's file system.
export const PYTHON_ROOT = "/werkplaats";

const archives = new Map();

/**
 * The archive described by `metaUrl` (meta.json); the same promise for every caller.
 * Resolves with {meta, lessonDir, problem}: `problem` is a Dutch phrase while the archive cannot
 * be used (meta.json missing, or unpacking failed on the last start), else null.
 * @param {import("./worker-client.js").PythonWorker} python
 * @param {string} metaUrl
 */
export function lessonArchive(python, metaUrl) {
  const url = new URL(metaUrl, window.location.href).href;
  if (!archives.has(url)) archives.set(url, openArchive(python, url));
  return archives.get(url);
}

async function openArchive(python, url) {
  const archive = { meta: null, lessonDir: null, problem: null };
  let archiveUrl;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    archive.meta = await response.json();
    archiveUrl = new URL(archive.meta.archive, url).href;
    archive.lessonDir = `${PYTHON_ROOT}/${archive.meta.lesson_dir}`;
  } catch (error) {
    archive.problem = `de checkpoint-tests van deze les zijn niet te vinden (${error.message ?? error})`;
    return archive;
  }
  python.prefetch(archiveUrl);
  python.addSetup(async ({ call }) => {
    try {
      await call("unpack", { url: archiveUrl, format: "zip", extractDir: PYTHON_ROOT });
      archive.problem = null;
    } catch (error) {
      archive.problem = `de checkpoint-tests konden niet geladen worden (${error.message ?? error})`;
    }
  });
  return archive;
}
