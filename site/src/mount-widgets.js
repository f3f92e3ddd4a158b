// Mounts every widget on the page: each `[data-widget="<name>"]` element (written by the
// builder around the widget's template, builder/widgets.py) gets its widget's module,
// assets/widgets/<name>/widget.js, imported on demand and its `mount(element, context)` called.
// A widget that fails to load or mount is marked and explains itself; the rest of the page works.
// The checkpoint panel's "Bekijk in de visualisatie" (event werkplaats:show-in-widget) goes to
// the first widget that lists that checkpoint in its `checkpoints:` option.
import * as judge from "./python-judge.js";
import * as pythonText from "./python-text.js";
import * as values from "./python-values.js";
import { WidgetRunner } from "./widget-runner.js";

const WIDGET_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const BROKEN_TEXT = "Dit onderdeel van de les kon niet geladen worden. De rest van de pagina werkt gewoon.";

function widgetModuleUrl(name) {
  // This module is bundled into assets/lesson.js: the widgets sit next to it.
  return new URL(`./widgets/${name}/widget.js`, import.meta.url).href;
}

function readOptions(element) {
  try {
    return JSON.parse(element.dataset.widgetOptions || "{}");
  } catch {
    return {};
  }
}

async function mountOne(element, shared) {
  const name = element.dataset.widget;
  element.dataset.widgetState = "loading";
  try {
    if (!WIDGET_NAME.test(name)) throw new Error(`not a widget name: ${name}`);
    const module = await import(widgetModuleUrl(name));
    if (typeof module.mount !== "function") throw new Error(`widget ${name} has no mount(element, context)`);
    const instance = await module.mount(element, {
      ...shared,
      id: element.id,
      options: readOptions(element),
      checkpoints: (element.dataset.widgetCheckpoints || "").split(" ").filter(Boolean),
    });
    element.dataset.widgetState = "mounted";
    return instance ?? null;
  } catch (error) {
    console.error(`widget ${name}:`, error);
    element.dataset.widgetState = "failed";
    const note = document.createElement("p");
    note.className = "widget__broken";
    note.setAttribute("role", "status");
    note.textContent = BROKEN_TEXT;
    element.prepend(note);
    return null;
  }
}

/**
 * Page module (see lesson.js).
 * @param {{root: ParentNode, python: object, editor: object|null, lessonId: string}} context
 * @returns {Promise<Map<HTMLElement, object|null>>} each widget element with what mount returned
 */
export function initWidgets({ root, python = null, editor = null, lessonId }) {
  const elements = [...root.querySelectorAll("[data-widget]")];
  const mounted = new Map();
  if (elements.length === 0) return Promise.resolve(mounted);
  const metaUrl = new URL(`../checkpoints/${lessonId}/meta.json`, import.meta.url).href;
  const runner = new WidgetRunner({ python, editor, metaUrl });
  // What every widget gets besides its own id, options and checkpoints: see docs/authoring.md.
  const shared = { root, python, editor, runner, values, pythonText, judge, lessonId };
  const done = Promise.all(elements.map(async (element) => {
    mounted.set(element, await mountOne(element, shared));
  })).then(() => mounted);

  document.addEventListener("werkplaats:show-in-widget", async (event) => {
    const checkpoint = event.detail && event.detail.checkpoint;
    const element = elements.find((candidate) =>
      (candidate.dataset.widgetCheckpoints || "").split(" ").includes(checkpoint));
    if (!element) return;
    // Straight to the part that will show the learner's result (`data-widget-result`), and there
    // again once it is drawn: the comparison must not appear out of sight, below the widget's top.
    const result = element.querySelector("[data-widget-result]") ?? element;
    result.scrollIntoView({ block: "start" });
    await done;
    const instance = mounted.get(element);
    if (instance && typeof instance.showCheckpoint === "function") {
      await instance.showCheckpoint(checkpoint);
      result.scrollIntoView({ block: "start" });
    }
  });
  return done;
}
