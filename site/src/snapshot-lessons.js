// The tests of the build's other lessons in the Python memory snapshot: the start that makes the
// snapshot (worker-client.js addSnapshotSetup) loads every lesson's shipped tests, not only its
// page's, so a later page of any lesson of the build finds them loaded.
import { PYTHON_ROOT } from "./lesson-archive.js";
import { LOAD_TESTS_SNIPPET } from "./runner-client.js";

// The build's lessons (builder/checkpoint_bundle.py LessonIndex), beside the lessons' folders.
const LESSON_INDEX = "../lessons.json";

// A snapshot setup (worker-client.js addSnapshotSetup): the shipped tests of the build's other
// lessons unpacked and loaded as well, so that a later page of any lesson finds its tests in the
// memory snapshot instead of compiling them after the restore (about 0.2 s for a large lesson).
// A lesson with browser_packages is left out (a package would stop the snapshot), and so is one
// whose files cannot be read or loaded: that page loads its tests itself, as before.
export async function loadOtherLessonsTests({ call, evaluate }, metaUrl) {
  const ownMeta = new URL(metaUrl, globalThis.location?.href).href;
  const indexUrl = new URL(LESSON_INDEX, ownMeta);
  const response = await fetch(indexUrl);
  if (!response.ok) throw new Error(`${indexUrl.pathname}: HTTP ${response.status}`);
  const { metas } = await response.json();
  const others = metas.map((path) => new URL(path, indexUrl)).filter((url) => url.href !== ownMeta);
  // Every meta.json at once (settled, so none is a rejection left waiting); the worker then
  // unpacks and loads one lesson after another.
  const fetched = others.map(async (url) => {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    return answer.json();
  }).map((meta) => meta.then((value) => ({ value }), (error) => ({ error })));
  for (const [index, url] of others.entries()) {
    try {
      const { value: meta, error } = await fetched[index];
      if (error) throw error;
      if ((meta.settings?.browser_packages ?? []).length > 0) continue;
      await call("unpack", { url: new URL(meta.archive, url).href, format: "zip", extractDir: PYTHON_ROOT });
      await evaluate(LOAD_TESTS_SNIPPET, { args: { root: PYTHON_ROOT, lesson_dir: `${PYTHON_ROOT}/${meta.lesson_dir}` } });
    } catch (error) {
      console.info(`left out of the Python snapshot: ${url.pathname} (${error?.message ?? error})`);
    }
  }
}
