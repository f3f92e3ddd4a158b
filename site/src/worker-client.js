// The only module that talks to the Pyodide worker: one worker, one ready promise, requests with
// ids. Page modules (editor, checkpoints, widgets) share it through `getPythonWorker()`.
// Protocol: docs/architecture.md, section 5.

const DEFAULT_TIME_LIMIT_SECONDS = 10;
// How long an interrupted request may take to wind down before we give up on the interpreter.
// Generous: on a slow or busy machine (a Chromebook, a CI runner) winding down takes a while.
const INTERRUPT_GRACE_MS = 3000;
const SIGINT = 2;
// input(): the worker blocks on a shared buffer (Atomics.wait) until the page writes the line.
// Layout: Int32 state, Int32 byte length, then the UTF-8 bytes of the line.
export const INPUT_WAITING = 0;
export const INPUT_ANSWERED = 1;
export const INPUT_CANCELLED = 2;
const INPUT_CAPACITY_BYTES = 64 * 1024;
// How long Python must have been idle before a new snapshot is handed over for keeping.
const SNAPSHOT_STORE_IDLE_MS = 1500;
const MARKED_REQUESTS = 16;

// How a start went (`startKind`): from the stored memory snapshot, or a full start (after a stored
// snapshot turned out unusable: "snapshot-failed").
export const START_SNAPSHOT = "snapshot";
export const START_COLD = "cold";
export const START_SNAPSHOT_FAILED = "snapshot-failed";

// A Performance mark "werkplaats: NAME" on the page's timeline (at `startTime`, default now).
function mark(name, startTime = undefined) {
  try {
    performance.mark(`werkplaats: ${name}`, startTime === undefined ? undefined : { startTime: Math.max(0, startTime) });
  } catch {
    // marks are only for measuring
  }
}

export class PythonWorker {
  /**
   * @param {{workerUrl: URL|string, timeLimitSeconds?: number, snapshots?: SnapshotStore|null}} options
   *
   * `snapshots` keeps the memory snapshot of a started interpreter between page loads (offline.js):
   * `load()` resolves with `{bytes, sha256, pyodideVersion}` or null (`bytes` a promise: the body
   * is still being read), `store(bytes, pyodideVersion)` keeps a new one, `drop()` removes one
   * that did not work, `likely()` says (at once) whether one was kept on an earlier visit, `served()` says how the service worker served each file (url -> "cache",
   * "cache-copy" or "network"; null without an answer), for the start's timeline.
   * @typedef {{bytes: Promise<Blob|ArrayBuffer>, sha256: string, pyodideVersion: string}} StoredSnapshot
   * @typedef {{load(): Promise<StoredSnapshot|null>, store(bytes: ArrayBuffer, version: string): void, drop(): void, likely(): boolean, served(): Promise<Object<string, string>|null>}} SnapshotStore
   */
  constructor({ workerUrl, timeLimitSeconds = DEFAULT_TIME_LIMIT_SECONDS, snapshots = null } = {}) {
    this.workerUrl = workerUrl;
    this.timeLimitSeconds = timeLimitSeconds;
    this.snapshots = snapshots;
    // One snapshot per page at most: the first start that could make one.
    this.snapshotOffered = false;
    this.startKind = null;
    // {worker, lookup} made by `prepare()` at page load (lookup: the promise of the stored
    // snapshot or null), taken by the first start.
    this.preparation = null;
    this.preparing = false;
    // "wasm-compiled" (or "wasm-not-compiled") once the prepared worker says so; null otherwise.
    this.prepared = null;
    this.worker = null;
    this.readyPromise = null;
    this.nextId = 1;
    this.pending = new Map();
    // The worker is given one request at a time; the rest wait here, in order. So the page always
    // knows which request Python is on (`inFlight`), and a stopped request that has not started is
    // simply never sent, whatever runs before it.
    this.inFlight = null;
    this.waiting = [];
    this.setups = [];
    this.prefetchUrls = new Set();
    this.listeners = new Set();
    this.state = "idle";
    // The interrupt buffer needs SharedArrayBuffer, which browsers only give isolated pages.
    this.interruptible = typeof SharedArrayBuffer !== "undefined" && globalThis.crossOriginIsolated === true;
    this.interruptBuffer = null;
    this.inputControl = null;
    this.inputData = null;
  }

  // "idle" (not started), "loading", "ready", "busy", "failed".
  onStateChange(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setState(state) {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }

  // Steps replayed on every (re)start before `ready` resolves, e.g. unpacking an archive.
  // A setup gets `{call, evaluate}` that bypass `ready` (waiting for it there would deadlock).
  addSetup(setup) {
    this.setups.push(setup);
    if (this.readyPromise && this.state !== "loading") {
      this.readyPromise = this.readyPromise.then(async (info) => {
        await setup(this.directAccess());
        return info;
      });
    }
  }

  // Files a setup will need (the checkpoint archive): the worker fetches them on every start side
  // by side with Pyodide itself, instead of after it.
  prefetch(url) {
    this.prefetchUrls.add(new URL(url, globalThis.location?.href).href);
  }

  directAccess() {
    return {
      call: (type, payload = {}, options = {}) => this.request(type, payload, options),
      evaluate: async (code, { args, ...options } = {}) => (await this.request("evaluate", { code, args }, options)).value,
    };
  }

  // Starts the worker on first use; later calls return the same promise. After a failed start
  // (e.g. the page lost its connection mid-download) the next use tries again.
  get ready() {
    if (this.readyPromise === null) this.start();
    else if (this.state === "failed") this.restart();
    return this.readyPromise;
  }

  newWorker() {
    const worker = new Worker(this.workerUrl, { type: "module" });
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      // A prepared worker that broke before any start: the start makes a new one.
      if (this.preparation?.worker === worker) {
        this.preparation = null;
        worker.terminate();
        return;
      }
      this.failAll({ kind: "worker", message: event.message || "worker error" });
    };
    return worker;
  }

  // At page load, where this build has a stored snapshot: the worker gets ready what needs no
  // Python (Pyodide's scripts, the wasm compiled, the standard library fetched, the snapshot's bytes
  // read and hashed), so the start the learner's intent triggers only restores. No interpreter is
  // made and no Python runs here; the state stays "idle". Without a snapshot nothing happens (a
  // full start would need the whole runtime downloaded, which a page only read must not cost).
  // Where the store remembers keeping one (`likely()`), the worker starts beside the lookup instead
  // of after it; a lookup that finds none ends that worker again.
  prepare() {
    if (!this.snapshots || this.preparing || this.readyPromise !== null) return;
    this.preparing = true;
    const lookup = this.snapshots.load().catch(() => null);
    let preparation = null;
    const prepareWorker = () => {
      mark("prepare");
      const worker = this.newWorker();
      worker.postMessage({ type: "prepare" });
      preparation = { worker, lookup };
      this.preparation = preparation;
    };
    if (this.snapshots.likely?.() === true) prepareWorker();
    lookup.then((snapshot) => {
      if (preparation === null) {
        // Started meanwhile: that start reads the snapshot itself.
        if (!snapshot || this.readyPromise !== null) return;
        prepareWorker();
      }
      if (snapshot) {
        mark("snapshot-found");
        this.sendSnapshotBytes(preparation.worker, snapshot);
      } else if (this.preparation === preparation) {
        // Remembered, but not there (a new build, storage cleared): nothing is kept ready.
        this.preparation = null;
        preparation.worker.terminate();
      }
    });
  }

  // The snapshot's body (~15 MB) to the worker as soon as the store has it: a Blob (the worker
  // reads it) or an ArrayBuffer (moved, not copied).
  sendSnapshotBytes(worker, snapshot) {
    snapshot.bytes.then(
      (bytes) => {
        mark("snapshot-read");
        worker.postMessage({ type: "snapshot-bytes", bytes }, bytes instanceof ArrayBuffer ? [bytes] : []);
      },
      () => worker.postMessage({ type: "snapshot-bytes", bytes: null }),
    );
  }

  start() {
    const preparation = this.preparation;
    this.preparation = null;
    this.worker = preparation?.worker ?? this.newWorker();
    const init = { type: "init", prefetch: [...this.prefetchUrls] };
    if (this.interruptible) {
      this.interruptBuffer = new Int32Array(new SharedArrayBuffer(4));
      init.interruptBuffer = this.interruptBuffer.buffer;
      const inputBuffer = new SharedArrayBuffer(8 + INPUT_CAPACITY_BYTES);
      this.inputControl = new Int32Array(inputBuffer, 0, 2);
      this.inputData = new Uint8Array(inputBuffer, 8);
      init.inputBuffer = inputBuffer;
    }
    this.setState("loading");
    mark("python-start");
    const worker = this.worker;
    this.startKind = null;
    this.readyPromise = this.initWorker(init, preparation?.lookup ?? null).then(async (info) => {
      // Setups added meanwhile (the archive's, once meta.json is in) run in this start too.
      let done = 0;
      const runSetups = async () => {
        while (done < this.setups.length) await this.setups[done++](this.directAccess());
      };
      await runSetups();
      mark("setups-done");
      if (info.snapshotAllowed && this.worker === worker) await this.offerSnapshot(info.version);
      await runSetups();
      if (this.worker === worker) {
        mark("python-ready");
        this.setState("ready");
      }
      return info;
    });
    this.readyPromise.catch(() => {
      if (this.worker === worker) this.setState("failed");
    });
    return this.readyPromise;
  }

  // init, with the stored snapshot when there is one. Its bytes (~15 MB) follow in a message of
  // their own as soon as they are read (moved, not copied): meanwhile the worker loads Pyodide.
  async initWorker(init, preparedLookup) {
    const worker = this.worker;
    // A prepared worker gets its bytes from `prepare` (the same lookup).
    let snapshot = preparedLookup ? await preparedLookup : null;
    if (this.snapshots && !preparedLookup) {
      try {
        snapshot = await this.snapshots.load();
      } catch {
        snapshot = null;
      }
      mark(snapshot ? "snapshot-found" : "no-snapshot");
    }
    // Stopped or replaced while the snapshot was read: the new worker has its own init.
    if (this.worker !== worker) throw { kind: "interrupted", message: "stopped" };
    const message = { ...init, makeSnapshot: this.snapshots !== null && !this.snapshotOffered };
    if (snapshot) message.snapshot = { sha256: snapshot.sha256, pyodideVersion: snapshot.pyodideVersion };
    const answer = this.send(message, {}, null);
    if (snapshot && !preparedLookup) this.sendSnapshotBytes(worker, snapshot);
    const info = await answer;
    for (const [name, epochMs] of info.marks ?? []) mark(`worker: ${name}`, epochMs - performance.timeOrigin);
    this.markServedWasm();
    if (this.worker === worker) this.startKind = info.start;
    if (info.start === START_SNAPSHOT_FAILED) this.snapshots?.drop();
    return info;
  }

  // How the service worker served the wasm of this start, as a mark ("werkplaats: wasm served:
  // cache"): "cache" is the stored response itself, the only kind Chromium keeps compiled code for.
  async markServedWasm() {
    try {
      const served = await this.snapshots?.served?.();
      const wasm = Object.entries(served ?? {}).find(([url]) => url.endsWith("pyodide.asm.wasm"));
      if (wasm) mark(`wasm served: ${wasm[1]}`);
    } catch {
      // marks are only for measuring
    }
  }

  // After the setups (runner archive unpacked and imported, lesson packages), before `ready`:
  // the interpreter as every later page load should find it, without any learner code.
  async offerSnapshot(version) {
    this.snapshotOffered = true;
    try {
      const { snapshot, reason } = await this.request("make-snapshot", {}, {});
      if (snapshot) this.storeWhenIdle(snapshot, version);
      else console.info(`no Python snapshot: ${reason}`);
    } catch (error) {
      console.warn("no Python snapshot:", error);
    }
  }

  // Keeping ~15 MB (copied to the service worker, hashed, written) costs CPU: not while the
  // learner's first Run or check is waiting for it, but once Python has been idle for a moment.
  storeWhenIdle(bytes, version) {
    let timer = null;
    const stop = this.onStateChange(() => {
      clearTimeout(timer);
      if (this.state === "ready") timer = setTimeout(store, SNAPSHOT_STORE_IDLE_MS);
    });
    const store = () => {
      if (this.state !== "ready") return; // the next "ready" sets the timer again
      stop();
      this.snapshots.store(bytes, version);
    };
    timer = setTimeout(store, SNAPSHOT_STORE_IDLE_MS);
  }

  // Generic request: `{type, ...payload}`; resolves with the result value, rejects with
  // `{kind, message}`. `handlers.onStdout/onStderr(text)` stream output, `handlers.onStatus(phase)`
  // reports "packages"/"running". `timeLimitSeconds` counts from "running" (null: no limit).
  // `background: true`: work the page does on its own (fingerprints), which the Stop button
  // leaves alone.
  async call(type, payload = {}, options = {}) {
    await this.ready;
    return this.request(type, payload, options);
  }

  request(type, payload, { timeLimitSeconds = null, background = false, ...handlers } = {}) {
    return this.send({ type, ...payload }, handlers, timeLimitSeconds, [], background);
  }

  send(message, handlers, timeLimitSeconds, transfer = [], background = false) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, handlers, timeLimitSeconds, background, timer: null, stopReason: null });
      // A start's own requests (setups, the snapshot) keep it "loading" until `ready`.
      if (message.type !== "init" && this.state !== "loading") this.setState("busy");
      this.waiting.push({ id, message: { id, ...message }, transfer });
      this.sendNext();
    });
  }

  // The next waiting request goes to the worker once the one before it has settled.
  sendNext() {
    if (this.inFlight !== null || this.worker === null || this.waiting.length === 0) return;
    const { id, message, transfer } = this.waiting.shift();
    this.inFlight = id;
    // The first requests of a page are marked too (a page's start: setups, the first check).
    if (id <= MARKED_REQUESTS) mark(`sent ${message.type} #${id}`);
    this.worker.postMessage(message, transfer);
  }

  receive(message) {
    if (message.type === "prepared") {
      this.prepared = message.wasmCompiled ? "wasm-compiled" : "wasm-not-compiled";
      mark(`python-prepared: ${this.prepared}`);
      return;
    }
    const request = this.pending.get(message.id);
    if (!request) return;
    const { handlers } = request;
    if (message.type === "stdout") handlers.onStdout?.(message.text);
    else if (message.type === "stderr") handlers.onStderr?.(message.text);
    else if (message.type === "status") {
      if (message.phase === "running" && request.timeLimitSeconds) {
        request.deadline = performance.now() + request.timeLimitSeconds * 1000;
        request.timer = setTimeout(() => this.stopRequest(message.id, "timeout"), request.timeLimitSeconds * 1000);
      }
      handlers.onStatus?.(message.phase);
    } else if (message.type === "input-request") {
      this.answerInput(message.id, request);
    } else if (message.type === "result" || message.type === "error") {
      this.settle(message.id, message);
    }
  }

  // The program called input(): `handlers.onInput()` resolves with the learner's line (null: none).
  // Waiting for the learner is not the program's time, so the time limit pauses meanwhile.
  async answerInput(id, request) {
    let remainingMs = null;
    if (request.timer !== null) {
      clearTimeout(request.timer);
      remainingMs = Math.max(0, request.deadline - performance.now());
      request.timer = null;
    }
    request.awaitingInput = true;
    let line = null;
    try {
      line = (await request.handlers.onInput?.()) ?? null;
    } catch {
      line = null;
    }
    if (!request.awaitingInput || this.pending.get(id) !== request) return; // stopped meanwhile
    request.awaitingInput = false;
    if (remainingMs !== null) {
      request.deadline = performance.now() + remainingMs;
      request.timer = setTimeout(() => this.stopRequest(id, "timeout"), remainingMs);
    }
    if (line === null) {
      this.writeInput(INPUT_CANCELLED, 0);
      return;
    }
    // encodeInto refuses shared memory: encode, then copy (a line beyond the buffer is cut).
    const bytes = new TextEncoder().encode(line).subarray(0, this.inputData.length);
    this.inputData.set(bytes);
    this.writeInput(INPUT_ANSWERED, bytes.length);
  }

  writeInput(state, length) {
    Atomics.store(this.inputControl, 1, length);
    Atomics.store(this.inputControl, 0, state);
    Atomics.notify(this.inputControl, 0);
  }

  settle(id, message) {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    clearTimeout(request.timer);
    clearTimeout(request.graceTimer);
    if (this.inFlight === id) this.inFlight = null;
    if (id <= MARKED_REQUESTS) mark(`settled #${id}`);
    this.sendNext();
    if (this.pending.size === 0 && this.state === "busy") this.setState("ready");
    if (message.type === "result") {
      const value = message.value;
      // A request we stopped reports why: "timeout" or "stopped" instead of "interrupted", in a
      // Run's answer or in an evaluated snippet's (`{value: {status, ...}}`).
      for (const answer of [value, value?.value]) {
        if (request.stopReason && answer?.status === "interrupted") answer.status = request.stopReason;
      }
      request.resolve(value);
    } else {
      const error = { ...message.error };
      if (request.stopReason && error.kind === "interrupted") error.kind = request.stopReason;
      request.reject(error);
    }
  }

  // A learner program: resolves with {status: "ok"|"exception"|"stopped"|"timeout"|
  // "package-error", packages?}.
  async run(code, { timeLimitSeconds = this.timeLimitSeconds, ...handlers } = {}) {
    try {
      return await this.call("run", { code }, { timeLimitSeconds, ...handlers });
    } catch (error) {
      // Stopped while Python was still loading, or by replacing the worker.
      if (error.kind === "stopped" || error.kind === "timeout") return { status: error.kind };
      throw error;
    }
  }

  // A trusted Python snippet; `args` (JSON data) is its global `args`. Resolves with the
  // snippet's last expression as JSON data; rejects with {kind: "python", message: traceback}.
  async evaluate(code, { args, timeLimitSeconds = null, ...handlers } = {}) {
    const result = await this.call("evaluate", { code, args }, { timeLimitSeconds, ...handlers });
    return result.value;
  }

  // Stop button: stops the learner's work, the request Python is on and those waiting for it;
  // background work (fingerprints) goes on, and so does the interpreter whenever it can.
  interrupt() {
    // A snapshot: replacing the worker adds a new init request that must not be stopped too.
    const ids = [...this.pending.keys()].filter((id) => !this.pending.get(id).background);
    for (const id of ids) this.stopRequest(id, "stopped");
  }

  stopRequest(id, reason) {
    const request = this.pending.get(id);
    if (!request || request.stopReason) return;
    request.stopReason = reason;
    if (this.state === "loading") {
      this.restart(reason);
      return;
    }
    // Not sent yet: it never will be. The request Python is on meanwhile is none of its business
    // (an interrupt or a new worker there would end, say, the fingerprints of a background job).
    const queued = this.waiting.findIndex((entry) => entry.id === id);
    if (queued !== -1) {
      this.waiting.splice(queued, 1);
      this.settle(id, { type: "error", error: { kind: "interrupted", message: reason } });
      return;
    }
    if (!this.interruptBuffer) {
      this.restart(reason);
      return;
    }
    this.interruptBuffer[0] = SIGINT;
    // A program waiting in input() wakes up to the interrupt.
    if (request.awaitingInput) {
      request.awaitingInput = false;
      this.writeInput(INPUT_CANCELLED, 0);
    }
    // Code that swallows KeyboardInterrupt (or sits in a C call) does not stop: replace the worker.
    const interruptedAt = performance.now();
    request.graceTimer = setTimeout(() => {
      if (!this.pending.has(id)) return;
      // Said on the console: on an isolated page this is the costly way out (a new interpreter).
      const waited = Math.round(performance.now() - interruptedAt);
      const seen = this.interruptBuffer[0] === 0 ? "seen" : "not seen";
      console.warn(`Python did not stop within ${waited} ms (interrupt ${seen}): starting a new interpreter`);
      this.restart(reason);
    }, INTERRUPT_GRACE_MS);
  }

  // Throws the interpreter away (everything in flight ends with `reason`) and starts a new one.
  restart(reason = "stopped") {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.readyPromise = null;
    this.inFlight = null;
    this.failAll({ kind: "interrupted", message: reason });
    this.setState("idle");
    return this.start();
  }

  failAll(error) {
    this.waiting = [];
    for (const id of [...this.pending.keys()]) this.settle(id, { type: "error", error });
  }
}

let shared = null;

// The page's one worker. The URL is resolved against this bundle, i.e. assets/pyodide-worker.js.
export function getPythonWorker(options = {}) {
  if (shared === null) {
    shared = new PythonWorker({ workerUrl: new URL("./pyodide-worker.js", import.meta.url), ...options });
  }
  return shared;
}
