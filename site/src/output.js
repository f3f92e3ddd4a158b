// The output area: streams stdout/stderr as text (never HTML) while the program runs, capped so a
// flood of output cannot freeze the page. Text is drawn once per animation frame, so a print loop
// costs one DOM update per frame instead of one per message.

export const OUTPUT_LINE_LIMIT = 2000;
export const OUTPUT_CHAR_LIMIT = 200 * 1024;

export class OutputArea {
  constructor(element, { lineLimit = OUTPUT_LINE_LIMIT, charLimit = OUTPUT_CHAR_LIMIT } = {}) {
    this.element = element;
    this.placeholder = element.querySelector("[data-output-placeholder]");
    this.lineLimit = lineLimit;
    this.charLimit = charLimit;
    this.resetCounts();
  }

  clear() {
    this.element.replaceChildren();
    this.resetCounts();
  }

  resetCounts() {
    this.lines = 0;
    this.chars = 0;
    this.truncated = false;
    this.truncationShown = false;
    this.lastChunk = null;
    this.queued = []; // [stream, text] received but not drawn yet
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = null;
  }

  // Show the "your output appears here" text again (after Reset).
  showPlaceholder() {
    this.clear();
    if (this.placeholder) this.element.append(this.placeholder);
  }

  get isEmpty() {
    return this.chars === 0 && this.queued.length === 0;
  }

  write(stream, text) {
    if (this.truncated || text.length === 0) return;
    // Cut here, not when drawn: a background tab gets no animation frames, and the cap must hold
    // for what waits in the queue too.
    const { kept, cut } = this.fitWithinLimits(text);
    if (kept.length > 0) this.queued.push([stream, kept]);
    if (cut) this.truncated = true;
    this.frame ??= requestAnimationFrame(() => this.flush());
  }

  // Draws what was received; called every frame, and before anything that must come after it.
  flush() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = null;
    const queued = this.queued;
    this.queued = [];
    for (const [stream, text] of queued) this.appendText(stream, text);
    if (this.truncated && !this.truncationShown) {
      this.truncationShown = true; // before note(), which flushes again
      this.note(`Uitvoer ingekort: alleen de eerste ${this.lineLimit} regels of ${Math.round(this.charLimit / 1024)} kB worden getoond; de rest is weggelaten.`, "truncated");
    }
  }

  fitWithinLimits(text) {
    if (this.lines >= this.lineLimit || this.chars >= this.charLimit) return { kept: "", cut: true };
    let end = Math.min(text.length, this.charLimit - this.chars);
    for (let index = 0; index < end; index++) {
      if (text.charCodeAt(index) === 10) {
        this.lines += 1;
        if (this.lines >= this.lineLimit) {
          end = index + 1;
          break;
        }
      }
    }
    this.chars += end;
    return { kept: text.slice(0, end), cut: end < text.length };
  }

  appendText(stream, text) {
    // Consecutive text of one stream shares a span: a long run stays a handful of DOM nodes.
    if (this.lastChunk && this.lastChunk.dataset.stream === stream) {
      this.lastChunk.append(document.createTextNode(text));
      this.lastChunk.normalize();
    } else {
      const chunk = document.createElement("span");
      chunk.className = `output-${stream}`;
      chunk.dataset.stream = stream;
      chunk.textContent = text;
      this.element.append(chunk);
      this.lastChunk = chunk;
    }
    this.element.scrollTop = this.element.scrollHeight;
  }

  // input() of the program: a text field right after what the program printed (its prompt).
  // Resolves with the line on Enter (echoed as text, like a terminal), or null when cancelled.
  askLine() {
    this.flush();
    this.cancelLine();
    const field = document.createElement("input");
    field.type = "text";
    field.className = "output-input-field";
    field.dataset.testid = "input-line";
    field.setAttribute("aria-label", "Invoer voor je programma (Enter stuurt het)");
    field.autocomplete = "off";
    field.spellcheck = false;
    this.element.append(field);
    this.lastChunk = null;
    field.focus({ preventScroll: true });
    this.element.scrollTop = this.element.scrollHeight;
    return new Promise((resolve) => {
      const finish = (line) => {
        field.remove();
        this.pendingLine = null;
        // Echoed like a terminal; a cancelled line still ends, so what follows starts on its own.
        this.write("stdin", line === null ? "\n" : `${line}\n`);
        this.flush();
        resolve(line);
      };
      field.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" || event.isComposing) return;
        event.preventDefault();
        finish(field.value);
      });
      this.pendingLine = { finish };
    });
  }

  // Stop: the program no longer waits for a line.
  cancelLine() {
    this.pendingLine?.finish(null);
  }

  // A message of the lab itself (loading, stopped, time limit), set apart from program output.
  note(text, kind = "info") {
    this.flush();
    const line = document.createElement("span");
    line.className = `output-note output-note-${kind}`;
    line.dataset.note = kind;
    const needsBreak = this.lastChunk && !this.lastChunk.textContent.endsWith("\n");
    line.textContent = `${needsBreak ? "\n" : ""}${text}\n`;
    this.element.append(line);
    this.lastChunk = null;
    this.element.scrollTop = this.element.scrollHeight;
    return line;
  }
}
