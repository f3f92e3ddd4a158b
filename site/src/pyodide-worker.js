// The module worker that owns Pyodide. It only ever talks to worker-client.js; the message
// protocol is documented in docs/architecture.md, section 5.
import runtimeSource from "./pyodide_runtime.py";
import { packPages, unpackPages } from "./snapshot-pages.js";

const PYODIDE_DIR = new URL("../pyodide/", import.meta.url).href;
// The runtime's functions live in a module of this name (sys.modules), so a start from a memory
// snapshot finds them again: JS handles to Python objects do not survive a snapshot.
const RUNTIME_MODULE = "_werkplaats_runtime";

// Learner code reaches this worker's global scope through Python's `js` module. The site's stored
// files (the service worker's caches) and the Python snapshot must stay out of its reach: a page
// written there would be served to the next learner on this computer. So the storage APIs go
// before anything else runs, and with them the means to start a fresh worker that would have
// them again. Nothing in this worker needs them: the page stores the snapshot (offline.js).
const REMOVED_GLOBALS = ["caches", "indexedDB", "Worker", "SharedWorker"];

function removeGlobal(name) {
  for (let holder = self; holder !== null; holder = Object.getPrototypeOf(holder)) {
    if (Object.hasOwn(holder, name)) delete holder[name];
  }
  if (name in self) {
    // Not deletable here: shadow it, for good.
    Object.defineProperty(self, name, { value: undefined, writable: false, configurable: false });
  }
}
for (const name of REMOVED_GLOBALS) removeGlobal(name);

// Python runs synchronously here, so no timer can fire mid-run: whatever is still buffered when
// the program starts a long computation stays invisible, and is lost if the page then has to
// terminate this worker (Stop without cross-origin isolation). So output trickling out goes to the
// page at once; only a flood is batched: after IMMEDIATE_POSTS messages within one FLUSH_WINDOW_MS,
// the rest of that window waits for the next write after it (or the end of the request).
const FLUSH_WINDOW_MS = 40;
const IMMEDIATE_POSTS = 32;
const FLUSH_AFTER_CHARS = 16 * 1024;
// Far above the page's own display cap, so the page always sees enough to say what it cut,
// while a flood cannot fill the page's memory with messages.
const FORWARD_LIMIT_CHARS = 1024 * 1024;

let pyodide = null;
let runtime = null;
// [name, epoch ms] of the steps of this worker's start, for `init`'s answer: the page turns them
// into Performance marks (bench/python_snapshot.py reads them to say where a start's time goes).
const startMarks = [];

function mark(name) {
  startMarks.push([name, performance.timeOrigin + performance.now()]);
}
mark("worker-module");
// Pyodide's loader is fetched while the page still looks for a snapshot and sends `init`.
const pyodideModule = import(`${PYODIDE_DIR}pyodide.mjs`);
pyodideModule.catch(() => {}); // reported by init
// The stored snapshot's bytes, which the page sends after `init` (a "snapshot-bytes" message,
// handled at once, not queued): null when it could not read them. Both go once the start is done,
// so the worker does not keep the ~30 MB alive.
let resolveSnapshotBytes;
let snapshotBytes = new Promise((resolve) => {
  resolveSnapshotBytes = resolve;
});
// Their SHA-256, computed (off this thread) as soon as they arrive.
const snapshotDigest = snapshotBytes.then((buffer) => (buffer instanceof ArrayBuffer ? sha256Hex(buffer) : null));
snapshotDigest.catch(() => {}); // the same failure comes from loadPyodide
// The wasm compiled ahead of the start ("prepare": a page with a stored snapshot, at load), or null.
let preparedWasm = null;
// The standard library's zip and the package lock, fetched by `prepare` as well: Pyodide's loader
// asks for them only once it runs, and a restore waits for both. Null without a preparation.
let preparedFiles = null;
// True from a start with `_makeSnapshot` until its one snapshot is made.
let snapshotAllowed = false;
let interruptBuffer = null;
// input() of a learner's program: {control: Int32Array [state, length], data: Uint8Array}, shared
// with the page (worker-client.js); null on a page without cross-origin isolation.
let inputChannel = null;
const INPUT_WAITING = 0;
const INPUT_ANSWERED = 1;
let queue = Promise.resolve();
// url -> Promise<ArrayBuffer> of the files the page asked for with init, fetched while Pyodide loads.
const prefetched = new Map();

const output = {
  requestId: null,
  pending: [],
  pendingChars: 0,
  forwardedChars: 0,
  windowStart: 0,
  postsInWindow: 0,
};

function post(message) {
  self.postMessage(message);
}

function flushOutput() {
  if (output.pending.length === 0) return;
  // Consecutive writes to the same stream become one message.
  let current = null;
  for (const [stream, text] of output.pending) {
    if (current && current.type === stream) {
      current.text += text;
    } else {
      if (current) post(current);
      current = { id: output.requestId, type: stream, text };
    }
  }
  post(current);
  output.pending = [];
  output.pendingChars = 0;
  output.postsInWindow += 1;
}

function flushIfAllowed() {
  const now = performance.now();
  if (now - output.windowStart >= FLUSH_WINDOW_MS) {
    output.windowStart = now;
    output.postsInWindow = 0;
  }
  if (output.postsInWindow < IMMEDIATE_POSTS || output.pendingChars >= FLUSH_AFTER_CHARS) flushOutput();
}

function writer(stream) {
  const decoder = new TextDecoder("utf-8");
  return {
    isatty: false,
    write(bytes) {
      const text = decoder.decode(bytes, { stream: true });
      if (output.requestId === null || output.forwardedChars >= FORWARD_LIMIT_CHARS) return bytes.length;
      output.forwardedChars += text.length;
      output.pending.push([stream, text]);
      output.pendingChars += text.length;
      flushIfAllowed();
      return bytes.length;
    },
  };
}

async function sha256Hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fetchBuffer(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
}

async function startPyodide(message) {
  for (const url of message.prefetch ?? []) {
    const pending = fetchBuffer(url);
    pending.catch(() => {}); // a failed prefetch is fetched again (and reported) by unpack
    prefetched.set(url, pending);
  }
  const { loadPyodide, version } = await pyodideModule;
  mark("pyodide-module");
  await usePreparedWasm();
  const fileOptions = await preparedFileOptions();
  try {
    return await startWith(message, loadPyodide, version, fileOptions);
  } finally {
    if (fileOptions.stdLibURL) URL.revokeObjectURL(fileOptions.stdLibURL);
    preparedFiles = null;
  }
}

async function startWith(message, loadPyodide, version, fileOptions) {
  let start = "cold";
  if (message.snapshot) {
    try {
      const { sha256, pyodideVersion } = message.snapshot;
      if (pyodideVersion !== version) throw new Error(`a snapshot of Pyodide ${pyodideVersion}, not ${version}`);
      const bytes = snapshotBytes.then((buffer) => {
        if (!(buffer instanceof ArrayBuffer)) throw new Error("the page could not read the snapshot");
        return buffer;
      });
      // Pyodide fetches its files and compiles the wasm while the bytes are still on their way
      // (unless the page prepared both, prepare below). The digest, computed meanwhile, is
      // checked after the restore: only then is the interpreter trusted.
      pyodide = await loadPyodide({
        ...fileOptions,
        _loadSnapshot: bytes.then(unpackPages),
      });
      mark("snapshot-restored");
      if ((await snapshotDigest) !== sha256) throw new Error("the snapshot's bytes are not the ones stored");
      mark("snapshot-checked");
      runtime = runtimeFunctions();
      start = "snapshot";
    } catch (error) {
      // Another Pyodide, damaged bytes, an API that changed: start as if there were none.
      console.warn("Python snapshot not usable, starting normally:", error);
      pyodide = null;
      runtime = null;
      start = "snapshot-failed";
    }
  }
  // Snapshots are made only from a start that was asked to allow one (makeMemorySnapshot refuses
  // otherwise) and holds nothing but what the page loaded before any learner code ran.
  snapshotBytes = null;
  resolveSnapshotBytes = () => {};
  snapshotAllowed = start !== "snapshot" && message.makeSnapshot === true;
  if (pyodide === null) {
    pyodide = await loadPyodide({ ...fileOptions, _makeSnapshot: snapshotAllowed });
    mark("cold-started");
  }
  pyodide.setStdout(writer("stdout"));
  pyodide.setStderr(writer("stderr"));
  // stdin stays closed: only a Run's input() reads, through the page (readLine below); anything
  // else that reads stdin (a checked function calling input()) fails at once instead of hanging.
  pyodide.setStdin({ error: true });
  if (message.interruptBuffer) {
    interruptBuffer = new Int32Array(message.interruptBuffer);
    pyodide.setInterruptBuffer(interruptBuffer);
  }
  if (message.inputBuffer) {
    inputChannel = {
      control: new Int32Array(message.inputBuffer, 0, 2),
      data: new Uint8Array(message.inputBuffer, 8),
    };
  }
  if (runtime === null) {
    loadRuntimeModule();
    runtime = runtimeFunctions();
  }
  mark("runtime-ready");
  // How long each file Pyodide needed took to arrive (through the service worker, when it serves).
  for (const entry of performance.getEntriesByType("resource")) {
    const name = entry.name.slice(entry.name.lastIndexOf("/") + 1);
    startMarks.push([`fetched ${name} (${Math.round(entry.duration)} ms)`, performance.timeOrigin + entry.responseEnd]);
  }
  return { version: pyodide.version, interruptible: interruptBuffer !== null, start, snapshotAllowed, marks: startMarks };
}

// A page with a stored snapshot prepares at load what needs no Python (worker-client.js
// `prepare`): Pyodide's scripts imported, the wasm compiled (from Chromium's code cache when the
// service worker serves the stored response) and the snapshot's bytes received and hashed. No
// interpreter is instantiated, no Python runs: that waits for `init`, on the learner's intent.
async function prepare() {
  mark("prepare");
  preparedWasm = WebAssembly.compileStreaming(fetch(`${PYODIDE_DIR}pyodide.asm.wasm`)).catch((error) => {
    console.warn("the wasm was not compiled ahead:", error);
    return null;
  });
  // A failed fetch here is no failure: the loader then fetches the file itself.
  preparedFiles = {
    standardLibrary: fetchBuffer(`${PYODIDE_DIR}python_stdlib.zip`).catch(() => null),
    lock: fetch(`${PYODIDE_DIR}pyodide-lock.json`).then((response) => (response.ok ? response.text() : null)).catch(() => null),
  };
  const script = import(`${PYODIDE_DIR}pyodide.asm.mjs`).catch(() => null);
  const [wasm] = await Promise.all([preparedWasm, script, pyodideModule.catch(() => null)]);
  mark(wasm ? "wasm-compiled" : "wasm-not-compiled");
  post({ type: "prepared", wasmCompiled: wasm !== null });
}

// loadPyodide's options for the files `prepare` fetched ahead: the standard library from memory (a
// blob URL) and the lock's text. Each one missing is fetched by the loader itself, as without a
// preparation.
async function preparedFileOptions() {
  const options = { indexURL: PYODIDE_DIR };
  if (preparedFiles === null) return options;
  const [standardLibrary, lock] = await Promise.all([preparedFiles.standardLibrary, preparedFiles.lock]);
  if (standardLibrary) {
    options.stdLibURL = URL.createObjectURL(new Blob([standardLibrary], { type: "application/zip" }));
  }
  if (lock) {
    options.lockFileContents = lock;
    options.packageBaseUrl = PYODIDE_DIR;
  }
  return options;
}

// Pyodide 314's loader has no option for a compiled module: it calls
// `WebAssembly.instantiateStreaming(fetch(".../pyodide.asm.wasm"), imports)`. With a module
// compiled by `prepare`, that call instantiates it instead of compiling the same bytes again.
async function usePreparedWasm() {
  const module = preparedWasm && (await preparedWasm);
  if (!module) return;
  const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (!response?.url?.endsWith("/pyodide.asm.wasm")) return instantiateStreaming(response, imports);
    response.body?.cancel().catch(() => {});
    mark("wasm-instantiated-from-prepared");
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

// pyodide_runtime.py as the module RUNTIME_MODULE (never in the learner's globals).
function loadRuntimeModule() {
  const scratch = pyodide.globals.get("dict")();
  const namespace = pyodide.runPython(
    `import sys, types\nsys.modules["${RUNTIME_MODULE}"] = types.ModuleType("${RUNTIME_MODULE}")\nsys.modules["${RUNTIME_MODULE}"].__dict__`,
    { globals: scratch },
  );
  scratch.destroy();
  pyodide.runPython(runtimeSource, { globals: namespace, filename: "<werkplaats-runtime>" });
  namespace.destroy();
}

// The module stays referenced: its attributes are borrowed from it.
function runtimeFunctions() {
  const module = pyodide.pyimport(RUNTIME_MODULE);
  return {
    runLearnerCode: module.run_learner_code,
    toJson: module.to_json,
    toolNamespace: module.tool_namespace,
  };
}

// A package of pure Python (a `none-any` wheel): its files are outside the snapshot, but so is
// Pyodide's record of having loaded it, so the lesson's setup simply loads it again after a
// restore. A package with compiled code (numpy) is a WebAssembly module of its own, outside the
// memory a snapshot holds: a restored interpreter would believe it loaded and crash. (Pyodide
// 314.0.7 refuses both for now: loading any package leaves a JavaScript handle that
// makeMemorySnapshot cannot serialize, "Unexpected hiwire entry"; the start then simply makes none.)
function isPurePython(name) {
  return /-none-any\.whl$/.test(pyodide.lockfile?.packages?.[name]?.file_name ?? "");
}

// The memory snapshot of this start, for the page to keep (worker-client.js asks once its setups
// are done, before the page's `ready`, so before any learner code ran). None after a package with
// compiled code was loaded (isPurePython).
function makeSnapshot() {
  if (!snapshotAllowed) return { snapshot: null, reason: "not allowed on this start" };
  snapshotAllowed = false;
  try {
    const compiled = Object.keys(pyodide.loadedPackages).filter((name) => !isPurePython(name));
    if (compiled.length > 0) return { snapshot: null, reason: `packages with compiled code loaded: ${compiled.join(", ")}` };
    // Kept without its zero pages (snapshot-pages.js): half the bytes to read back on every page load.
    return { snapshot: packPages(pyodide.makeMemorySnapshot()) };
  } catch (error) {
    return { snapshot: null, reason: String(error.message ?? error) };
  } finally {
    plainJsModule();
  }
}

// With `_makeSnapshot`, Python's `js` module is a proxy of the global scope that records paths;
// reading a browser property through it (`js.performance`, `js.navigator`) fails with "Illegal
// invocation". Once the snapshot is made, learner code gets the plain global scope, as after a
// start from a snapshot.
function plainJsModule() {
  pyodide.registerJsModule("js", self);
  const scratch = pyodide.globals.get("dict")();
  pyodide.runPython("import sys\nsys.modules.pop('js', None)", { globals: scratch });
  scratch.destroy();
}

// Pyodide reports a failed download only through its callbacks, as "...error occurred while
// loading NAME:" followed by the reason; we pair them up so the page can name the package in Dutch.
async function loadWithFailures(load) {
  const failures = [];
  let failingPackage = null;
  await load({
    messageCallback: () => {},
    errorCallback: (text) => {
      const announced = /error occurred while loading (.+):$/.exec(text);
      if (announced) {
        failingPackage = announced[1];
      } else if (failingPackage !== null) {
        failures.push({ name: failingPackage, reason: text });
        failingPackage = null;
      }
    },
  });
  if (failingPackage !== null) failures.push({ name: failingPackage, reason: "" });
  return failures;
}

// Loads what the code imports (numpy from the CDN, micropip from our own site).
async function loadImportedPackages(code, requestId) {
  const failures = await loadWithFailures((options) => pyodide.loadPackagesFromImports(code, options));
  post({ id: requestId, type: "status", phase: "running" });
  return failures;
}

// Called synchronously by the learner's input() (pyodide_runtime.py): shows what the program wrote
// (its prompt), asks the page for a line and blocks this worker until it is there. Returns the line,
// or undefined (None) when the page stopped the program instead.
function readLine() {
  flushOutput();
  const { control, data } = inputChannel;
  Atomics.store(control, 0, INPUT_WAITING);
  post({ id: output.requestId, type: "input-request" });
  Atomics.wait(control, 0, INPUT_WAITING);
  if (Atomics.load(control, 0) !== INPUT_ANSWERED) {
    // The page stopped the program: input() raises KeyboardInterrupt itself, once.
    if (interruptBuffer) interruptBuffer[0] = 0;
    return undefined; // None in Python (null would be JsNull)
  }
  // slice(): TextDecoder reads no shared memory.
  return new TextDecoder().decode(data.slice(0, Atomics.load(control, 1)));
}

const handlers = {
  async init(message) {
    return startPyodide(message);
  },

  async "make-snapshot"() {
    return makeSnapshot();
  },

  // The learner's program, as main.py in a fresh __main__.
  async run(message) {
    let failures;
    try {
      post({ id: message.id, type: "status", phase: "packages" });
      failures = await loadImportedPackages(message.code, message.id);
    } catch (error) {
      // A syntax error stops import detection; running reports it properly with line numbers.
      failures = [];
      post({ id: message.id, type: "status", phase: "running" });
    }
    if (failures.length > 0) return { status: "package-error", packages: failures };
    const status = await runtime.runLearnerCode(message.code, inputChannel ? readLine : undefined);
    return { status };
  },

  // Only load what the code imports (before checkpoint tests import the learner's main.py).
  async "load-imports"(message) {
    let failures = [];
    try {
      failures = await loadImportedPackages(message.code, message.id);
    } catch (error) {
      // A syntax error: the checkpoint runner reports it with its line number.
    }
    return { packages: failures };
  },

  // Load packages by name (the lesson's `browser_packages`), without running anything.
  async "load-packages"(message) {
    return { packages: await loadWithFailures((options) => pyodide.loadPackage(message.packages, options)) };
  },

  // A trusted snippet from a page module, with the page's JSON `args` as the global `args`;
  // its last expression comes back as JSON data.
  async evaluate(message) {
    post({ id: message.id, type: "status", phase: "running" });
    // `undefined` (not null, which Pyodide turns into JsNull) arrives in Python as None.
    const namespace = runtime.toolNamespace(message.args === undefined ? undefined : JSON.stringify(message.args));
    try {
      const value = await pyodide.runPythonAsync(message.code, { globals: namespace, filename: "<werkplaats>" });
      const json = runtime.toJson(value);
      if (value && typeof value.destroy === "function") value.destroy();
      return { value: JSON.parse(json) };
    } finally {
      namespace.destroy();
    }
  },

  // Fetch an archive (e.g. the checkpoint tests) and unpack it into Pyodide's file system.
  async unpack(message) {
    const url = new URL(message.url, self.location.href).href;
    const pending = prefetched.get(url);
    prefetched.delete(url);
    const buffer = pending ? await pending.catch(() => fetchBuffer(url)) : await fetchBuffer(url);
    pyodide.unpackArchive(buffer, message.format, { extractDir: message.extractDir });
    return {};
  },
};

// The snapshot's bytes from the page: a Blob of the stored entry, read here (off the page's
// thread), or an ArrayBuffer; null when the page could not read them.
function receiveSnapshotBytes(bytes) {
  const read = bytes instanceof Blob ? bytes.arrayBuffer().catch(() => null) : Promise.resolve(bytes);
  read.then((buffer) => {
    if (buffer instanceof ArrayBuffer) mark("snapshot-received");
    resolveSnapshotBytes(buffer instanceof ArrayBuffer ? buffer : null);
  });
}

function describeError(error) {
  const text = String((error && error.message) || error);
  if (error && error.type === "KeyboardInterrupt") return { kind: "interrupted", message: text };
  return { kind: error && error.type ? "python" : "worker", message: text };
}

async function handle(message) {
  const handler = handlers[message.type];
  if (!handler) {
    post({ id: message.id, type: "error", error: { kind: "worker", message: `unknown message type '${message.type}'` } });
    return;
  }
  if (message.type !== "init" && pyodide === null) {
    post({ id: message.id, type: "error", error: { kind: "worker", message: "Python is not started" } });
    return;
  }
  if (interruptBuffer) interruptBuffer[0] = 0;
  output.requestId = message.id;
  output.forwardedChars = 0;
  output.windowStart = performance.now();
  output.postsInWindow = 0;
  try {
    const value = await handler(message);
    flushOutput();
    // A snapshot (tens of MB) moves to the page instead of being copied.
    const transfer = value?.snapshot instanceof ArrayBuffer ? [value.snapshot] : [];
    self.postMessage({ id: message.id, type: "result", value }, transfer);
  } catch (error) {
    flushOutput();
    post({ id: message.id, type: "error", error: describeError(error) });
  } finally {
    output.requestId = null;
  }
}

// Requests run one at a time, in arrival order, even across awaits.
self.onmessage = (event) => {
  const message = event.data;
  if (message?.type === "snapshot-bytes") {
    receiveSnapshotBytes(message.bytes);
    return;
  }
  if (message?.type === "prepare") {
    prepare();
    return;
  }
  queue = queue.then(() => handle(message));
};
