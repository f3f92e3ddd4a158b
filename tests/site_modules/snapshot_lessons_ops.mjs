// What test_snapshot_lessons.py asks Node (through tests/node_bridge.mjs): which lessons' tests the
// start that makes the Python snapshot loads (site/src/snapshot-lessons.js), with the build's files
// given as {url path: JSON or null (404)} and the worker's `call` and `evaluate` recorded.
import { loadOtherLessonsTests } from "../../site/src/snapshot-lessons.js";

const ORIGIN = "http://les.test";

export async function answer(request) {
  const files = request.files;
  globalThis.fetch = async (url) => {
    const body = files[new URL(url).pathname];
    return { ok: body !== undefined && body !== null, status: body ? 200 : 404, json: async () => body };
  };
  const sent = [];
  const access = {
    call: async (type, payload) => {
      sent.push(["call", type, payload.url]);
      if (request.failUnpack && payload.url.includes(request.failUnpack)) throw new Error("unpack failed");
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
    await loadOtherLessonsTests(access, `${ORIGIN}/checkpoints/${request.own}/meta.json`);
  } catch (thrown) {
    error = thrown.message;
  } finally {
    console.info = info;
  }
  return { sent, said, error };
}
