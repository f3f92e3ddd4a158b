// The "Probeer het zelf" panel: a CodeMirror 6 editor for main.py, Run/Stop/Reset, the code kept
// per lesson in localStorage, and the learner's program run in the shared Pyodide worker.
import { EditorState, Prec } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

import { forgetCode, loadCode, saveCode } from "./code-storage.js";
import { OutputArea } from "./output.js";
import { showInPracticeArea } from "./practice-jump.js";

export const LOADING_PYTHON = "Python wordt geladen… (alleen de eerste keer duurt dit even)";

export function secondsText(seconds) {
  return `${seconds} ${seconds === 1 ? "seconde" : "seconden"}`;
}

// Keyboard shortcuts mean nothing on a touch screen without a keyboard.
export function keyboardHint(text) {
  return window.matchMedia("(hover: none)").matches ? "" : text;
}

export function timeLimitMessage(seconds) {
  return `Je programma liep langer dan ${secondsText(seconds)} en is gestopt.`;
}

export function packageErrorMessage({ name, reason }) {
  const detail = reason ? ` (${reason})` : "";
  return `Het pakket '${name}' kon niet geladen worden: het zit niet in deze site en downloaden lukte niet; ben je offline?${detail}`;
}

function createCodeMirror(parent, doc, { onRun, onChange }) {
  const runKeys = Prec.highest(
    keymap.of([{ key: "Mod-Enter", run: () => (onRun(), true), preventDefault: true }]),
  );
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        runKeys,
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        python(),
        // Tab indents (Python needs it); Escape then Tab still leaves the editor.
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        // tabindex: axe-core only counts an explicit one as keyboard-reachable scrolled content.
        EditorView.contentAttributes.of({ "aria-label": "Python-code van main.py", tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
}

export class EditorPanel {
  constructor(panel, { python, lessonId, timeLimitSeconds }) {
    this.panel = panel;
    this.python = python;
    this.lessonId = lessonId;
    this.timeLimitSeconds = timeLimitSeconds;
    this.running = false;
    this.starterCode = readStarterCode(panel);
    this.runButton = panel.querySelector("[data-testid=run]");
    this.stopButton = panel.querySelector("[data-testid=stop]");
    this.resetButton = panel.querySelector("[data-testid=reset]");
    this.status = panel.querySelector("[data-editor-status]");
    this.output = new OutputArea(panel.querySelector("[data-testid=output]"));
    this.resetQuestion = panel.querySelector("[data-reset-confirm]");
    this.changeListeners = new Set();

    const stored = loadCode(lessonId);
    this.codeBox = panel.querySelector("[data-testid=editor]");
    this.codeBox.replaceChildren();
    this.view = createCodeMirror(this.codeBox, stored.code ?? this.starterCode, {
      onRun: () => this.run(),
      onChange: (code) => {
        saveCode(this.lessonId, code);
        for (const listener of this.changeListeners) listener(code);
      },
    });
    if (stored.problem === "corrupted") {
      this.setStatus("Je opgeslagen code kon niet gelezen worden; de startcode staat klaar.");
    }

    this.runButton.addEventListener("click", () => this.run());
    this.stopButton.addEventListener("click", () => this.stop());
    this.resetButton.addEventListener("click", () => this.askReset());
    this.resetQuestion?.querySelector("[data-testid=reset-confirm]").addEventListener("click", () => this.reset());
    this.resetQuestion?.querySelector("[data-testid=reset-cancel]").addEventListener("click", () => this.closeResetQuestion());
    this.python.onStateChange((state) => {
      this.panel.setAttribute("data-python", state);
      // How Python started (worker-client.js START_*): from the kept snapshot or in full.
      if (this.python.startKind) this.panel.setAttribute("data-python-start", this.python.startKind);
    });
    this.updateButtons();
  }

  getCode() {
    return this.view.state.doc.toString();
  }

  setCode(code) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: code } });
  }

  // `listener(code)` after every change of the code (typing, Laad in editor, reset).
  onChange(listener) {
    this.changeListeners.add(listener);
  }

  focus() {
    this.view.focus();
  }

  // Puts the cursor at the start of the first line containing `text`, scrolls that line to the top
  // of the editor's own scroll box and brings the whole panel (its buttons too) into view
  // (practice-jump.js: by scrolling the page, or only the practice panel when it is beside the text).
  showLineWith(text) {
    const at = this.getCode().indexOf(text);
    if (at === -1) return;
    this.view.dispatch({ selection: { anchor: at } });
    this.view.focus();
    this.codeBox.scrollTop = this.view.lineBlockAt(at).top;
    showInPracticeArea(this.panel);
  }

  // Replacing the learner's own code asks first, in the page (no browser dialog).
  askReset() {
    if (!this.resetQuestion || this.getCode() === this.starterCode) {
      this.reset();
      return;
    }
    this.resetQuestion.hidden = false;
    this.resetQuestion.querySelector("[data-testid=reset-confirm]").focus();
  }

  closeResetQuestion() {
    if (this.resetQuestion) this.resetQuestion.hidden = true;
    this.resetButton.focus();
  }

  reset() {
    if (this.resetQuestion) this.resetQuestion.hidden = true;
    this.setCode(this.starterCode);
    forgetCode(this.lessonId);
    this.output.showPlaceholder();
    this.setStatus(`Startcode teruggezet.${keyboardHint(" Ctrl+Z (of Cmd+Z) in de editor zet je eigen code terug.")}`);
    this.focus();
  }

  // Output of an earlier run would belong to other code (after "Laad in editor").
  clearOutput() {
    if (!this.running) this.output.showPlaceholder();
  }

  stop() {
    if (!this.running) return;
    this.output.cancelLine();
    this.python.interrupt();
  }

  // The program's input(): a line in the output area, where the focus goes; Stop still works.
  async askLine() {
    this.setStatus("Je programma wacht op invoer: typ je antwoord en druk op Enter.");
    const line = await this.output.askLine();
    if (this.running) this.setStatus("Je programma draait…");
    return line;
  }

  setStatus(text) {
    if (this.status) this.status.textContent = text;
  }

  updateButtons() {
    this.runButton.disabled = this.running;
    this.stopButton.disabled = !this.running;
    this.panel.toggleAttribute("data-running", this.running);
  }

  async run() {
    if (this.running) return;
    this.running = true;
    this.updateButtons();
    this.output.clear();
    let loadingNote = null;
    if (this.python.state === "idle" || this.python.state === "loading" || this.python.state === "failed") {
      const text = LOADING_PYTHON;
      loadingNote = this.output.note(text, "loading");
      this.setStatus(text);
    }
    const clearLoading = () => {
      if (loadingNote) loadingNote.remove();
      loadingNote = null;
    };
    try {
      const result = await this.python.run(this.getCode(), {
        timeLimitSeconds: this.timeLimitSeconds,
        onStatus: (phase) => {
          clearLoading();
          this.setStatus(phase === "packages" ? "Pakketten worden geladen…" : "Je programma draait…");
        },
        onStdout: (text) => this.output.write("stdout", text),
        onStderr: (text) => this.output.write("stderr", text),
        onInput: () => this.askLine(),
      });
      clearLoading();
      this.output.flush();
      this.report(result);
    } catch (error) {
      clearLoading();
      this.output.note(`Python kon niet starten: ${error.message ?? error}`, "error");
      this.setStatus("Python kon niet starten.");
    } finally {
      this.output.cancelLine(); // a program that ended (or restarted) waits for nothing
      this.running = false;
      this.updateButtons();
    }
  }

  report(result) {
    const output = this.output;
    switch (result.status) {
      case "ok":
        if (output.isEmpty) output.note("Je programma is klaar en gaf geen uitvoer.", "done");
        this.setStatus("Klaar.");
        break;
      case "exception":
        this.setStatus("Je programma stopte met een foutmelding.");
        break;
      case "stopped":
      case "interrupted":
        output.note("Gestopt.", "stopped");
        this.setStatus("Gestopt.");
        break;
      case "timeout":
        output.note(timeLimitMessage(this.timeLimitSeconds), "timeout");
        this.setStatus("Gestopt na de tijdslimiet.");
        break;
      case "package-error":
        for (const failure of result.packages) output.note(packageErrorMessage(failure), "package-error");
        this.setStatus("Een pakket kon niet geladen worden.");
        break;
      default:
        output.note(`Onverwacht resultaat: ${result.status}`, "error");
    }
  }
}

function readStarterCode(panel) {
  const template = panel.querySelector("template[data-starter-code]");
  return template ? template.content.textContent : "";
}
