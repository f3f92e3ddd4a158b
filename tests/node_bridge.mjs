// The one Node bridge of the widget tests: `node tests/node_bridge.mjs <module.mjs>` imports the
// module (a widget's tests/<name>_ops.mjs) and answers one JSON request per line on stdin with
// what the module's `answer(request)` returns, one JSON line per request on stdout, in order:
//   {"ok": true, "value": ...} or {"ok": false, "error": "<stack>"}.
// The reply is ASCII only (\u escapes): lone surrogates and astral characters cross the pipe
// unchanged, whatever the pipe's encoding. tests/node_bridge.py is the Python end.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const modulePath = process.argv[2];
if (!modulePath) throw new Error("usage: node tests/node_bridge.mjs <module.mjs>");
const { answer } = await import(pathToFileURL(resolve(modulePath)).href);
if (typeof answer !== "function") throw new Error(`${modulePath} exports no answer(request)`);

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let reply;
  try {
    reply = { ok: true, value: await answer(JSON.parse(line)) };
  } catch (error) {
    reply = { ok: false, error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(
    JSON.stringify(reply).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n",
  );
}
