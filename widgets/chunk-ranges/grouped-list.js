// A long list of elements that a redraw updates in place. An edit of the visualizer's source
// usually changes one word, so elements are reused by position and only the ones whose content
// changed are touched. Items sit in fixed-size groups that the CSS gives
// `content-visibility: auto`: the browser skips style and layout of groups out of view, which
// is what keeps a 20 000-character text fast.

export class GroupedList {
  /**
   * @param {HTMLElement} container
   * @param {{groupSize: number, groupClass: string, groupRole?: string,
   *          createItem: (index: number) => HTMLElement}} options
   */
  constructor(container, { groupSize, groupClass, groupRole = null, createItem }) {
    this.container = container;
    this.groupSize = groupSize;
    this.groupClass = groupClass;
    this.groupRole = groupRole;
    this.createItem = createItem;
    /** @type {HTMLElement[]} */
    this.items = [];
    /** @type {HTMLElement[]} */
    this.groups = [];
    // What each item shows now, so an unchanged item is not written again.
    this.keys = [];
  }

  get length() {
    return this.items.length;
  }

  /** Grow or shrink to `count` items; new items start with key null. */
  resize(count) {
    while (this.items.length > count) {
      this.items.pop().remove();
      this.keys.pop();
    }
    while (this.groups.length > Math.ceil(count / this.groupSize)) this.groups.pop().remove();
    if (this.items.length === count) return;
    const fragments = new Map();
    for (let index = this.items.length; index < count; index += 1) {
      const groupIndex = Math.floor(index / this.groupSize);
      if (groupIndex === this.groups.length) {
        const group = document.createElement("div");
        group.className = this.groupClass;
        if (this.groupRole) group.setAttribute("role", this.groupRole);
        this.groups.push(group);
      }
      if (!fragments.has(groupIndex)) fragments.set(groupIndex, document.createDocumentFragment());
      const item = this.createItem(index);
      fragments.get(groupIndex).append(item);
      this.items.push(item);
      this.keys.push(null);
    }
    for (const [groupIndex, fragment] of fragments) this.groups[groupIndex].append(fragment);
    const newGroups = this.groups.filter((group) => !group.isConnected);
    if (newGroups.length) this.container.append(...newGroups);
  }

  /** Set item `index` with `write(item)` unless it already shows `key`. */
  update(index, key, write) {
    if (this.keys[index] === key) return;
    this.keys[index] = key;
    write(this.items[index]);
  }

  /** Forget what item `index` shows, so the next update writes it again. */
  invalidate(index) {
    this.keys[index] = null;
  }

  clear() {
    this.resize(0);
  }
}
