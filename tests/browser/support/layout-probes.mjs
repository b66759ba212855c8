// @ts-check
// Functions that run inside the page (Playwright's and Puppeteer's evaluate,
// Selenium's executeScript): each is self-contained, takes plain arguments and
// returns plain data, so the Chromium specs and the Firefox and WebKit journeys
// ask every engine the same questions.

/**
 * @typedef {{ what: string, text: string, rect: { x: number, y: number, width: number, height: number } }} Covered
 * @typedef {{ shown: boolean, scrollY: number, atBottom: boolean, button: DOMRectReadOnly | null,
 *   checked: number, visibleUnder: Covered[], anyUnder: Covered[] }} BackToTopReport
 */

/**
 * What lies under the back-to-top button right now.
 * `visibleUnder`: text and controls the button covers while they can be seen (no
 * opaque box, such as the strip the button sits in, is painted between them and
 * the button). `anyUnder`: every text and control under the button or its strip,
 * seen or not (at the very bottom of the page this must be empty: nothing can be
 * scrolled out from under it any more). `checked`: how many texts and controls were looked at.
 * @returns {BackToTopReport}
 */
export function backToTopReport() {
  const button = /** @type {HTMLElement | null} */ (document.querySelector("[data-back-to-top]"));
  const root = document.documentElement;
  const scrollY = window.scrollY;
  const atBottom = Math.ceil(scrollY + window.innerHeight) >= root.scrollHeight - 1;
  if (!button || button.hidden || button.getBoundingClientRect().width === 0) {
    return { shown: false, scrollY, atBottom, button: null, checked: 0, visibleUnder: [], anyUnder: [] };
  }
  const buttonRect = button.getBoundingClientRect();
  const bar = button.parentElement;
  // The strip the button sits in, when it is drawn as one (a fixed box of its own).
  const strip = bar && bar !== document.body && getComputedStyle(bar).position === "fixed";
  const barRect = bar && strip ? bar.getBoundingClientRect() : null;

  /** @param {DOMRectReadOnly} a @param {DOMRectReadOnly} b */
  const overlap = (a, b) => {
    const x = Math.max(a.left, b.left);
    const y = Math.max(a.top, b.top);
    const right = Math.min(a.right, b.right);
    const bottom = Math.min(a.bottom, b.bottom);
    return right > x && bottom > y ? new DOMRect(x, y, right - x, bottom - y) : null;
  };
  /** @param {string} color */
  const opaque = (color) => {
    const match = /rgba?\(([^)]+)\)/.exec(color);
    if (!match || !match[1]) return false;
    const parts = match[1].split(/[\s,/]+/).filter(Boolean);
    return parts.length < 4 || Number(parts[3]) >= 1;
  };
  /** Is some opaque box painted above `element` at (x, y), other than the button itself? */
  const hiddenAt = (/** @type {Element} */ element, /** @type {number} */ x, /** @type {number} */ y) => {
    for (const above of document.elementsFromPoint(x, y)) {
      if (above === element || above.contains(element)) return false;
      if (above === button || button.contains(above)) continue;
      if (opaque(getComputedStyle(above).backgroundColor)) return true;
    }
    return false;
  };

  /** @type {Array<{ element: Element, what: string, text: string, rects: DOMRectReadOnly[] }>} */
  const things = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent?.trim() || button.contains(parent)) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === "hidden" || Number(style.opacity) === 0) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const text = node.textContent.trim().slice(0, 40);
    things.push({ element: parent, what: "text", text, rects: [...range.getClientRects()] });
  }
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=switch], [tabindex]";
  for (const control of document.querySelectorAll(controls)) {
    if (control === button || control === document.querySelector("main")) continue;
    const style = getComputedStyle(control);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const label = (control.textContent?.trim() || control.getAttribute("name") || control.id).slice(0, 40);
    things.push({ element: control, what: control.tagName.toLowerCase(), text: label, rects: [...control.getClientRects()] });
  }

  /** @type {Covered[]} */
  const visibleUnder = [];
  /** @type {Covered[]} */
  const anyUnder = [];
  for (const { element, what, text, rects } of things) {
    for (const rect of rects) {
      if (rect.width === 0 || rect.height === 0) continue;
      const plain = { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
      const underButton = overlap(rect, buttonRect);
      if (underButton || (barRect && overlap(rect, barRect))) anyUnder.push({ what, text, rect: plain });
      if (underButton && !hiddenAt(element, underButton.x + underButton.width / 2, underButton.y + underButton.height / 2)) {
        visibleUnder.push({ what, text, rect: plain });
      }
    }
  }
  return { shown: true, scrollY, atBottom, button: buttonRect, checked: things.length, visibleUnder, anyUnder };
}

/**
 * The header on one line: the name's text box is one line high, nothing sticks out
 * of the page sideways, and the header is as tall as a one-line header.
 */
export function headerFacts() {
  const header = /** @type {HTMLElement} */ (document.querySelector(".site-header"));
  const name = /** @type {HTMLElement} */ (document.querySelector(".logo span"));
  const range = document.createRange();
  range.selectNodeContents(name);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  const toggle = document.querySelector(".site-menu__toggle");
  return {
    layoutWidth: document.documentElement.clientWidth,
    headerHeight: header.getBoundingClientRect().height,
    nameLines: lines,
    overflowsSideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    toggleRight: toggle ? toggle.getBoundingClientRect().right : null,
    // The menu button's three bars, drawn even when its word is clipped.
    iconWidth: document.querySelector(".site-menu__icon")?.getBoundingClientRect().width ?? 0,
  };
}

/** Computed styles of the parts that engines drew differently. */
export function styleFacts() {
  /** @param {string} selector */
  const style = (selector) => {
    const element = document.querySelector(selector);
    if (!element) throw new Error(`${selector} is not in the page`);
    return getComputedStyle(element);
  };
  // The current plan is one attribute on .pricing; the option naming it is the active one.
  const current = document.querySelector(".pricing")?.getAttribute("data-current-plan");
  const active = style(`.pricing [data-plan-option="${current}"]`);
  const inactive = style(`.pricing .pricing__option:not([data-plan-option="${current}"])`);
  const select = /** @type {HTMLElement} */ (document.querySelector("#promotion"));
  const zip = /** @type {HTMLElement} */ (document.querySelector("#zip"));
  const selectStyle = getComputedStyle(select);
  return {
    activeOption: {
      line: active.textDecorationLine,
      color: active.textDecorationColor,
      textColor: active.color,
      thickness: active.textDecorationThickness,
      userSelect: active.userSelect || active.getPropertyValue("-webkit-user-select"),
    },
    inactiveOption: { line: inactive.textDecorationLine, color: inactive.textDecorationColor },
    select: {
      height: select.getBoundingClientRect().height,
      appearance: selectStyle.appearance || selectStyle.getPropertyValue("-webkit-appearance"),
      backgroundImage: selectStyle.backgroundImage,
    },
    zipHeight: zip.getBoundingClientRect().height,
    headerBackground: style(".site-header").backgroundColor,
  };
}

/** The focused element's class and computed corner radius (all four corners). */
export function focusedRadius() {
  const element = document.activeElement;
  if (!element || element === document.body) return { className: "", radius: "" };
  const style = getComputedStyle(element);
  return {
    className: typeof element.className === "string" ? element.className : "",
    radius: [style.borderTopLeftRadius, style.borderTopRightRadius, style.borderBottomRightRadius, style.borderBottomLeftRadius].join(" "),
    focusVisible: element.matches(":focus-visible"),
  };
}
