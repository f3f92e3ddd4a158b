// The learner's code per lesson in localStorage. Storage may be full, disabled or hold junk
// from an older version: none of that may ever break the page, so every failure is "no code".

const STORAGE_VERSION = 1;

export function codeStorageKey(lessonId) {
  return `werkplaats:${lessonId}:code`;
}

// Returns {code} when a usable entry exists, {code: null, problem} when one exists but is
// unreadable, and {code: null} when there is none.
export function loadCode(lessonId) {
  let raw;
  try {
    raw = window.localStorage.getItem(codeStorageKey(lessonId));
  } catch {
    return { code: null, problem: "unavailable" };
  }
  if (raw === null) return { code: null };
  try {
    const entry = JSON.parse(raw);
    if (entry && entry.version === STORAGE_VERSION && typeof entry.code === "string") {
      return { code: entry.code };
    }
  } catch {
    // fall through: unreadable
  }
  return { code: null, problem: "corrupted" };
}

export function saveCode(lessonId, code) {
  try {
    window.localStorage.setItem(codeStorageKey(lessonId), JSON.stringify({ version: STORAGE_VERSION, code }));
    return true;
  } catch {
    return false;
  }
}

export function forgetCode(lessonId) {
  try {
    window.localStorage.removeItem(codeStorageKey(lessonId));
  } catch {
    // nothing stored, nothing to forget
  }
}
