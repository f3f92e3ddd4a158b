// Python's plain values (runner/core/plain.py) on the JavaScript side, exactly typed.
// JSON.parse would turn Python's 6.0 into the int-looking 6 and refuse NaN; widgets must see
// what the learner's function really returned. Pure: no DOM, no worker (Node tests use it too).
//
//   Python         JavaScript
//   None           null
//   bool           true / false
//   int            number (a BigInt beyond 2**53)
//   float          PyFloat {value, text}: text is Python's repr, e.g. "0.0", "1e+16", "nan"
//   str            string (lone surrogates included)
//   list           Array
//   dict           Map (str keys, Python's order)
//   anything else  Opaque {typeName, reason}: a tuple, generator, subclass, ... by its type name

export class PyFloat {
  constructor(value, text = null) {
    this.value = value;
    this.text = text ?? floatRepr(value);
  }

  valueOf() {
    return this.value;
  }

  toString() {
    return this.text;
  }
}

export class Opaque {
  constructor(typeName, reason = "") {
    this.typeName = typeName;
    this.reason = reason;
  }
}

const OPAQUE_KEY = "$opaque";
const REASON_KEY = "$reason";
const ESCAPE_PREFIX = "$";

function floatRepr(value) {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  return String(value);
}

/** The Python type name of a decoded value: "int", "float", "str", "list", "dict", "NoneType", ... */
export function pythonTypeName(value) {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number" || typeof value === "bigint") return "int";
  if (typeof value === "string") return "str";
  if (value instanceof PyFloat) return "float";
  if (Array.isArray(value)) return "list";
  if (value instanceof Map) return "dict";
  if (value instanceof Opaque) return value.typeName;
  return "?";
}

/** A short Python-like text of a decoded value, for messages (not for HTML: insert as text). */
export function pythonRepr(value) {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "string") return JSON.stringify(value).replace(/^"|"$/g, "'");
  if (value instanceof PyFloat) return value.text;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (value instanceof Map) {
    return `{${[...value].map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
  }
  if (value instanceof Opaque) return `<${value.typeName}${value.reason ? `: ${value.reason}` : ""}>`;
  return String(value);
}

// ----- parsing: plain JSON text (wire.dumps) -> decoded values ------------------------------

class Parser {
  constructor(text) {
    this.text = text;
    this.at = 0;
  }

  fail(what) {
    throw new SyntaxError(`plain JSON: ${what} at position ${this.at}`);
  }

  skipSpace() {
    const text = this.text;
    let at = this.at;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (code !== 32 && code !== 10 && code !== 13 && code !== 9) break;
      at += 1;
    }
    this.at = at;
  }

  value() {
    this.skipSpace();
    const char = this.text[this.at];
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"') return this.string();
    if (this.text.startsWith("true", this.at)) return this.word("true", true);
    if (this.text.startsWith("false", this.at)) return this.word("false", false);
    if (this.text.startsWith("null", this.at)) return this.word("null", null);
    if (this.text.startsWith("NaN", this.at)) return this.word("NaN", new PyFloat(NaN, "nan"));
    if (this.text.startsWith("Infinity", this.at)) return this.word("Infinity", new PyFloat(Infinity, "inf"));
    if (this.text.startsWith("-Infinity", this.at)) return this.word("-Infinity", new PyFloat(-Infinity, "-inf"));
    return this.number();
  }

  word(word, value) {
    this.at += word.length;
    return value;
  }

  number() {
    const match = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    match.lastIndex = this.at;
    const found = match.exec(this.text);
    if (!found) this.fail("unexpected character");
    this.at = match.lastIndex;
    const token = found[0];
    if (found[1] === undefined && found[2] === undefined) {
      const value = Number(token);
      return Number.isSafeInteger(value) ? value : BigInt(token);
    }
    // json.dumps writes a float as its repr, so the token is the repr (1e+16, 0.0, 1.5e-07).
    return new PyFloat(Number(token), token);
  }

  string() {
    const text = this.text;
    const start = this.at;
    let at = start + 1;
    for (;;) {
      const next = text.indexOf('"', at);
      if (next < 0) this.fail("unterminated string");
      let backslashes = 0;
      for (let back = next - 1; back > start && text[back] === "\\"; back -= 1) backslashes += 1;
      at = next + 1;
      if (backslashes % 2 === 0) break;
    }
    this.at = at;
    // Only a string with an escape needs JSON.parse (which also joins surrogate pairs).
    const literal = text.slice(start, at);
    return literal.includes("\\") ? JSON.parse(literal) : literal.slice(1, -1);
  }

  array() {
    this.at += 1;
    const items = [];
    this.skipSpace();
    if (this.text[this.at] === "]") {
      this.at += 1;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipSpace();
      const char = this.text[this.at];
      this.at += 1;
      if (char === "]") return items;
      if (char !== ",") this.fail("expected ',' or ']'");
    }
  }

  object() {
    this.at += 1;
    const entries = new Map();
    this.skipSpace();
    if (this.text[this.at] === "}") {
      this.at += 1;
      return entries;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') this.fail("expected a key");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ":") this.fail("expected ':'");
      this.at += 1;
      entries.set(key, this.value());
      this.skipSpace();
      const char = this.text[this.at];
      this.at += 1;
      if (char === "}") return decodeDict(entries);
      if (char !== ",") this.fail("expected ',' or '}'");
    }
  }
}

// An opaque marker becomes Opaque; an escaped learner key ("$$x") its own name again.
function decodeDict(entries) {
  if (entries.has(OPAQUE_KEY)) {
    const reason = entries.get(REASON_KEY);
    return new Opaque(String(entries.get(OPAQUE_KEY)), typeof reason === "string" ? reason : "");
  }
  let escaped = false;
  for (const key of entries.keys()) {
    if (key.startsWith(ESCAPE_PREFIX)) escaped = true;
  }
  if (!escaped) return entries;
  return new Map([...entries].map(([key, item]) => [key.startsWith(ESCAPE_PREFIX) ? key.slice(1) : key, item]));
}

/** Decoded values from the JSON text runner.core.wire.dumps wrote. */
export function parsePlain(text) {
  const parser = new Parser(text);
  const value = parser.value();
  parser.skipSpace();
  if (parser.at !== text.length) parser.fail("trailing text");
  return value;
}

// ----- writing: JavaScript values -> plain JSON text (what runner.core.wire.loads reads) -----

/**
 * JSON text of a value for Python. A JavaScript number is an int when it is an integer, else a
 * float; `new PyFloat(6)` sends 6.0. A plain object or a Map is a dict (its keys as str).
 */
export function stringifyPlain(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return numberText(value, Number.isInteger(value) ? "int" : "float");
  if (value instanceof PyFloat) return numberText(value.value, "float");
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stringifyPlain).join(",")}]`;
  if (value instanceof Opaque) {
    throw new TypeError(`an opaque ${value.typeName} cannot be sent to Python`);
  }
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return `{${entries.map(([key, item]) => {
    const name = String(key);
    return `${JSON.stringify(name.startsWith(ESCAPE_PREFIX) ? ESCAPE_PREFIX + name : name)}:${stringifyPlain(item)}`;
  }).join(",")}}`;
}

function numberText(value, kind) {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (kind === "int") return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
  const text = String(value);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/**
 * The reply of runner.core.web.call (its plain JSON text) as a widget gets it from
 * widget-runner.js: {status, value, error: {type, isValueError, message, line}|null, message, stdout}.
 */
export function callReply(text) {
  const reply = parsePlain(text);
  const error = reply.get("error");
  return {
    status: reply.get("status"),
    value: reply.get("value"),
    error: error instanceof Map ? {
      type: error.get("type"),
      isValueError: error.get("is_value_error"),
      message: error.get("message"),
      line: error.get("line"),
    } : null,
    message: reply.get("message"),
    stdout: reply.get("stdout"),
  };
}
