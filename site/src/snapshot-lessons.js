// The tests of the build's other lessons in the Python memory snapshot: the start that makes the
// snapshot (worker-client.js addSnapshotSetup) loads every lesson's shipped tests, not only its
// page's, so a later page of any lesson of the build finds them loaded.
import { PYTHON_ROOT } from "./lesson-archive.js";
import { LOAD_TESTS_SNIPPET } from "./runner-client.js";

// The build's lessons (builder/checkpoint_bundle.py LessonIndex), beside the lessons' folders.
const LESSON_INDEX = "../lessons.json";

// The snapshot setups hold up the first visit's first verdict, so on a slow network the other
// lessons' files must not: whatever has not arrived within this much time is left out.
const FETCH_BUDGET_MS = 2000;

// A snapshot setup (worker-client.js addSnapshotSetup): the shipped tests of the build's other
// lessons unpacked and loaded as well, so that a later page of any lesson finds its tests in the
// memory snapshot instead of compiling them after the restore (about 0.2 s for a large lesson).
// The page fetches their files (all at once, within `budgetMs`) and hands the worker the bytes,
// so Python never waits for the network here. A lesson with browser_packages is left out (a
// package would stop the snapshot), and so is one whose files do not arrive in time or cannot be
// loaded: that page loads its tests itself, as before.
export async function loadOtherLessonsTests({ call, evaluate }, metaUrl, budgetMs = FETCH_BUDGET_MS) {
  const signal = AbortSignal.timeout(budgetMs);
  const fetched = async (url, read) => {
    const response = await fetch(url, { signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return read(response);
  };
  const ownMeta = new URL(metaUrl, globalThis.location?.href).href;
  const indexUrl = new URL(LESSON_INDEX, ownMeta);
  const { metas } = await fetched(indexUrl, (response) => response.json()).catch((error) => {
    throw new Error(`${indexUrl.pathname}: ${error?.message ?? error}`);
  });
  const others = metas.map((path) => new URL(path, indexUrl)).filter((url) => url.href !== ownMeta);
  // Settled, so that none is a rejection left waiting while an earlier lesson loads.
  const lessons = others.map(async (url) => {
    const meta = await fetched(url, (response) => response.json());
    if ((meta.settings?.browser_packages ?? []).length > 0) return null;
    return { meta, bytes: await fetched(new URL(meta.archive, url), (response) => response.arrayBuffer()) };
  }).map((lesson) => lesson.then((value) => ({ value }), (error) => ({ error })));
  for (const [index, url] of others.entries()) {
    try {
      const { value, error } = await lessons[index];
      if (error) throw error;
      if (value === null) continue;
      await call("unpack", { bytes: value.bytes, format: "zip", extractDir: PYTHON_ROOT });
      const lessonDir = `${PYTHON_ROOT}/${value.meta.lesson_dir}`;
      await evaluate(LOAD_TESTS_SNIPPET, { args: { root: PYTHON_ROOT, lesson_dir: lessonDir } });
    } catch (error) {
      console.info(`left out of the Python snapshot: ${url.pathname} (${error?.message ?? error})`);
    }
  }
}
