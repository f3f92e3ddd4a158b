// What test_snapshot_lessons.py asks Node (through tests/node_bridge.mjs): which lessons' tests the
// start that makes the Python snapshot loads (site/src/snapshot-lessons.js). The build's files are
// given as {url path: JSON, or a string (an archive's bytes), or "SLOW" (never arrives), or null
// (404)}; the worker's `call` and `evaluate` are recorded, an archive by its text.
import { loadOtherLessonsTests } from "../../site/src/snapshot-lessons.js";

const ORIGIN = "http://les.test";

function fakeFetch(files) {
  return async (url, { signal } = {}) => {
    const body = files[new URL(url).pathname];
    if (body === "SLOW") {
      return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    }
    const found = body !== undefined && body !== null;
    return {
      ok: found,
      status: found ? 200 : 404,
      json: async () => body,
      arrayBuffer: async () => new TextEncoder().encode(body).buffer,
    };
  };
}

export async function answer(request) {
  globalThis.fetch = fakeFetch(request.files);
  const sent = [];
  const access = {
    call: async (type, payload) => {
      const archive = new TextDecoder().decode(payload.bytes);
      sent.push(["call", type, archive]);
      if (archive === request.failUnpack) throw new Error("unpack failed");
      return {};
    },
    evaluate: async (code, { args }) => {
      sent.push(["evaluate", args.lesson_dir]);
      return "hash";
    },
  };
  const said = [];
  const info = console.info;
  console.info = (...parts) => said.push(parts.join(" "));
  let error = null;
  try {
    await loadOtherLessonsTests(access, `${ORIGIN}/checkpoints/${request.own}/meta.json`, request.budgetMs);
  } catch (thrown) {
    error = thrown.message;
  } finally {
    console.info = info;
  }
  return { sent, said, error };
}
