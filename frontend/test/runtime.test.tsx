// The plain-TS runtime: back-to-top, reveal-on-scroll, and the islands' hydration
// strategies, hydrating real server HTML from src/entries/server.tsx.
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { answerZipBeforeReact } from "../src/shared/form-early";
import { initPlanStarts } from "../src/loader/plan-start";
import { initBackToTop } from "../src/runtime/back-to-top";
import { initIslands } from "../src/runtime/islands";
import { initReveal } from "../src/runtime/reveal";
import { markEngagement } from "../src/shared/engaged";
import { render as renderIsland } from "../src/entries/server";
import { contactProps, pricingProps } from "./fixtures/props";
import { FakeIntersectionObserver, stubIntersectionObserver, stubMatchMedia, stubReducedMotion } from "./helpers";

declare global {
  // React reads this to decide whether updates must be wrapped in act().
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

function setScrollY(y: number): void {
  Object.defineProperty(window, "scrollY", { value: y, configurable: true });
  window.dispatchEvent(new Event("scroll"));
}

/** Fills the required fields of the contact island's server HTML and focuses into it, as a visitor would. */
function fillServerForm(element: Element): HTMLFormElement {
  for (const [id, value] of Object.entries({ firstName: "A", lastName: "B", address: "C", zip: "57006", email: "a@b.test", phone: "1" })) {
    (element.querySelector(`#${id}`) as HTMLInputElement).value = value;
  }
  const form = element.querySelector("form") as HTMLFormElement;
  form.querySelector("input")?.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
  return form;
}

afterEach(() => {
  document.body.innerHTML = "";
  setScrollY(0);
});

describe("back-to-top", () => {
  beforeEach(() => {
    document.body.innerHTML = `
      <a href="#main">Skip to main content</a>
      <main id="main"><h1>Page</h1></main>
      <button type="button" data-back-to-top hidden>Back to top</button>`;
    vi.stubGlobal("scrollTo", vi.fn());
  });

  const button = () => document.querySelector("[data-back-to-top]") as HTMLButtonElement;

  it("appears only after more than 300 px of scrolling", () => {
    initBackToTop();
    expect(button().hidden).toBe(true);
    setScrollY(300);
    expect(button().hidden).toBe(true);
    setScrollY(301);
    expect(button().hidden).toBe(false);
    setScrollY(120);
    expect(button().hidden).toBe(true);
  });

  it("shows at once when the page loads already scrolled", () => {
    setScrollY(900);
    initBackToTop();
    expect(button().hidden).toBe(false);
  });

  it("scrolls to the top smoothly and moves focus to the skip-link target", () => {
    initBackToTop();
    setScrollY(1000);
    button().focus();
    button().click();
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: "smooth" });
    const main = document.getElementById("main");
    expect(document.activeElement).toBe(main);
    expect(main).toHaveAttribute("tabindex", "-1");
  });

  it("jumps without animation under reduced motion", () => {
    stubReducedMotion(true);
    initBackToTop();
    button().click();
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: "auto" });
  });

  it("falls back to the body when the page has no #main", () => {
    document.getElementById("main")?.remove();
    initBackToTop();
    button().focus();
    button().click();
    expect(document.activeElement).toBe(document.body);
  });
});

describe("reveal on scroll", () => {
  beforeEach(() => {
    stubIntersectionObserver();
    document.body.innerHTML = `
      <section data-reveal id="above"></section>
      <section data-reveal id="in-view"></section>
      <section data-reveal id="below"></section>
      <section id="plain"></section>`;
  });

  const classes = (id: string) => Array.from(document.getElementById(id)?.classList ?? []);
  const element = (id: string) => document.getElementById(id) as Element;

  it("hides only what the observer's first report finds out of view, and reveals it at 15% visibility", () => {
    const measured = vi.spyOn(Element.prototype, "getBoundingClientRect");
    initReveal();
    // Start-up measures nothing itself: a forced layout here would delay the first paint.
    expect(measured).not.toHaveBeenCalled();
    const [observer] = FakeIntersectionObserver.instances;
    expect(observer?.options.threshold).toBe(0.15);
    expect([...(observer?.observed ?? [])].map((el) => el.id)).toEqual(["above", "in-view", "below"]);
    // Nothing changes before the first report.
    for (const id of ["above", "in-view", "below", "plain"]) expect(classes(id)).toEqual([]);

    observer?.report(element("in-view"), true);
    observer?.report(element("above"), false);
    observer?.report(element("below"), false);
    expect(classes("in-view")).toEqual([]);
    expect(observer?.observed.has(element("in-view"))).toBe(false);
    expect(classes("above")).toEqual(["reveal"]);
    expect(classes("below")).toEqual(["reveal"]);

    observer?.report(element("below"), false);
    expect(classes("below")).toEqual(["reveal"]);
    observer?.report(element("below"), true);
    expect(classes("below")).toEqual(["reveal", "revealed"]);
    expect(observer?.observed.has(element("below"))).toBe(false);
    expect(classes("plain")).toEqual([]);
  });

  it("does nothing when the visitor prefers reduced motion", () => {
    stubReducedMotion(true);
    initReveal();
    for (const id of ["above", "in-view", "below"]) expect(classes(id)).toEqual([]);
    expect(FakeIntersectionObserver.instances).toHaveLength(0);
  });

  it("hides nothing when IntersectionObserver is missing", () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    initReveal();
    for (const id of ["above", "in-view", "below"]) expect(classes(id)).toEqual([]);
  });
});

/** React's import and hydration, after the runtime's idle waits: slow on a loaded machine. */
const HYDRATION_WAIT = { timeout: 5000 };

describe("islands runtime", () => {
  beforeEach(() => {
    stubIntersectionObserver();
    // Like the browser: hydration is not driven by act() here.
    globalThis.IS_REACT_ACT_ENVIRONMENT = false;
  });
  afterEach(() => {
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  });

  /** Puts an island's server HTML and props in the page, as the Rust layout does. */
  async function island(name: string, props: object, hydrate: string, serverProps: object = props): Promise<HTMLElement> {
    const element = document.createElement("div");
    element.dataset.island = name;
    element.dataset.hydrate = hydrate;
    element.innerHTML = (await renderIsland(name, serverProps)).html;
    const script = document.createElement("script");
    script.type = "application/json";
    script.id = `props-${name}`;
    script.textContent = JSON.stringify(props);
    document.body.append(element, script);
    return element;
  }

  /** The visitor's first scroll: before it, no strategy but a press inside an island fetches anything. */
  function engage(): void {
    window.dispatchEvent(new Event("scroll"));
  }

  /** React marks the DOM nodes it has claimed; the only way to see hydration without interacting. */
  function isHydrated(element: Element): boolean {
    const first = element.firstElementChild;
    return first !== null && Object.keys(first).some((key) => key.startsWith("__reactFiber"));
  }

  /** Hydration has started: decided synchronously when its trigger fires, so its absence right after an event is final. */
  function started(element: Element): boolean {
    return element.hasAttribute("data-hydrating") || element.hasAttribute("data-hydrated");
  }

  /** Hydration has committed and every held tap or submit has been replayed: nothing later can come. */
  async function hydrated(element: Element): Promise<void> {
    await vi.waitFor(() => expect(element).toHaveAttribute("data-hydrated"), HYDRATION_WAIT);
  }

  it("hydrates a visible island when it comes within 200px of the viewport, not before", async () => {
    const element = await island("pricing", pricingProps, "visible");
    initIslands();
    engage();
    const [observer] = FakeIntersectionObserver.observing(element);
    expect(observer?.options.rootMargin).toBe("200px");
    observer?.report(element, false);
    expect(started(element)).toBe(false);
    observer?.report(element, true);
    await vi.waitFor(() => expect(isHydrated(element)).toBe(true), HYDRATION_WAIT);
    const button = element.querySelector("[role=switch]") as HTMLButtonElement;
    const before = button.getAttribute("aria-checked");
    button.click();
    await vi.waitFor(() => expect(button.getAttribute("aria-checked")).not.toBe(before));
    expect(observer?.disconnected).toBe(true);
  });

  it("hydrates on first focus inside, keeping what was typed before", async () => {
    const element = await island("contact", contactProps, "visible");
    initIslands();
    const firstName = element.querySelector("#firstName") as HTMLInputElement;
    const zip = element.querySelector("#zip") as HTMLInputElement;
    const city = element.querySelector("#city") as HTMLInputElement;
    // Typed while the chunks load.
    firstName.focus();
    firstName.value = "Ada";
    zip.value = "57006";
    city.value = "Volga";
    await hydrated(element);
    expect(firstName.value).toBe("Ada");
    expect(zip.value).toBe("57006");
    expect(city.value).toBe("Volga");
    // The note follows the ZIP React read at hydration, in the effect after its commit.
    await vi.waitFor(
      () => expect(element.querySelector("[role=status]")).toHaveTextContent(contactProps.zip.inArea),
      HYDRATION_WAIT,
    );
  });

  it("replays a tap made while the island was still loading", async () => {
    const element = await island("pricing", pricingProps, "visible");
    // A button of an island that no page script answers before React (the plan script answers
    // the switch itself): without its mark, the switch is one.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    element.querySelector("[data-plan-toggle]")?.removeAttribute("data-plan-toggle");
    initIslands();
    const button = element.querySelector("[role=switch]") as HTMLButtonElement;
    const before = button.getAttribute("aria-checked");
    const after = String(before !== "true");
    button.dispatchEvent(new Event("pointerdown", { bubbles: true }));
    button.click();
    expect(button).toHaveAttribute("aria-checked", before);
    await vi.waitFor(() => expect(button).toHaveAttribute("aria-checked", after));
    await hydrated(element);
    // Replayed exactly once: a second replay would have switched it back.
    expect(button).toHaveAttribute("aria-checked", after);
  });

  it("holds a submit made while loading and sends it through the client once hydrated", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ next: "/thanks" })));
    vi.stubGlobal("fetch", fetchMock);
    const element = await island("contact", contactProps, "visible");
    initIslands();
    const errors = vi.spyOn(console, "error");
    const form = fillServerForm(element);
    const nativeSubmit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => undefined);
    form.requestSubmit();
    // At once, before React: the button says the form is being sent, as the island's own would.
    const button = form.querySelector("button[type=submit]") as HTMLButtonElement;
    expect(button).toHaveTextContent(contactProps.submitting);
    expect(button).toBeDisabled();
    await vi.waitFor(() => expect(element).toHaveTextContent(contactProps.thanks.heading));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(nativeSubmit).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
  });

  it("gives the button back when a held submit no longer validates once the island has hydrated", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ next: "/thanks" })));
    vi.stubGlobal("fetch", fetchMock);
    const element = await island("contact", contactProps, "visible");
    initIslands();
    const form = fillServerForm(element);
    form.requestSubmit();
    const button = form.querySelector("button[type=submit]") as HTMLButtonElement;
    expect(button).toBeDisabled();
    // Emptied while React was on its way: the replayed submit fails validation and sends nothing.
    (form.querySelector("#email") as HTMLInputElement).value = "";
    await hydrated(element);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(button).toBeEnabled();
    expect(button).toHaveTextContent(contactProps.submit);
  });

  it("shows a ZIP's note as it is typed before React, and hydrates over it without a mismatch", async () => {
    const errors = vi.spyOn(console, "error");
    const element = await island("contact", contactProps, "visible");
    // What the page's inline loader does before the runtime arrives.
    const stop = answerZipBeforeReact();
    const zip = element.querySelector("#zip") as HTMLInputElement;
    const note = element.querySelector("[role=status]");
    zip.value = "5700";
    zip.dispatchEvent(new Event("input", { bubbles: true }));
    expect(note).toHaveTextContent("");
    zip.value = "57006";
    zip.dispatchEvent(new Event("input", { bubbles: true }));
    expect(note).toHaveTextContent(contactProps.zip.inArea);
    initIslands();
    zip.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    await hydrated(element);
    // The same element, adopted by React, still says it; React answers from here on.
    expect(element.querySelector("[role=status]")).toBe(note);
    expect(note).toHaveTextContent(contactProps.zip.inArea);
    expect(errors).not.toHaveBeenCalled();
    stop();
  });

  it.each([
    ["pricing", pricingProps],
    ["contact", contactProps],
  ] as const)("hydrates the %s server HTML without a mismatch", async (name, props) => {
    const errors = vi.spyOn(console, "error");
    const element = await island(name, props, "idle");
    const html = element.innerHTML;
    initIslands();
    engage();
    await hydrated(element);
    expect(errors).not.toHaveBeenCalled();
    // Hydration adopted the server's nodes instead of replacing them.
    expect(element.innerHTML).toBe(html);
  });

  it("hydrates a media island only once its query matches and the visitor engages", async () => {
    const { lists } = stubMatchMedia(() => false);
    const element = await island("pricing", pricingProps, "media:(max-width: 47.99rem)");
    initIslands();
    expect(started(element)).toBe(false);
    // A tap on a wide screen does not load React for an island that needs none there.
    element.querySelector("a")?.dispatchEvent(new Event("pointerdown", { bubbles: true }));
    expect(started(element)).toBe(false);
    lists.get("(max-width: 47.99rem)")?.fire(true);
    expect(started(element)).toBe(false);
    window.dispatchEvent(new Event("scroll"));
    await vi.waitFor(() => expect(isHydrated(element)).toBe(true), HYDRATION_WAIT);
  });

  it("loads nothing for a media island whose query matches until the visitor scrolls or taps", async () => {
    stubMatchMedia((query) => query === "(max-width: 47.99rem)");
    const element = await island("pricing", pricingProps, "media:(max-width: 47.99rem)");
    initIslands();
    expect(started(element)).toBe(false);
    document.body.dispatchEvent(new Event("touchstart", { bubbles: true }));
    await vi.waitFor(() => expect(isHydrated(element)).toBe(true), HYDRATION_WAIT);
  });

  it("fetches nothing until the first scroll, then only the code the islands share", async () => {
    onTestFinished(() => {
      for (const link of document.head.querySelectorAll("link[rel=modulepreload]")) link.remove();
    });
    const preloads = (): string[] =>
      [...document.head.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")].map((link) => link.href.split("/").pop() ?? "");
    const element = await island("pricing", pricingProps, "visible");
    // The files the build has a placement name (the source form imports the island by its name).
    element.dataset.files = "/assets/pricing-test.js /assets/react-test.js";
    initIslands();
    expect(preloads()).toEqual([]);
    window.dispatchEvent(new Event("scroll"));
    expect(preloads()).toEqual(["react-test.js"]);
  });

  it("waits for the visitor's first scroll, tap, key or focus before watching a visible island, or hydrating an idle one", async () => {
    const visible = await island("pricing", pricingProps, "visible");
    const idle = await island("contact", contactProps, "idle");
    // A page only loaded: nothing is watched, and nothing starts once every timer has run.
    vi.useFakeTimers();
    try {
      initIslands();
      vi.runAllTimers();
      expect(FakeIntersectionObserver.observing(visible)).toEqual([]);
      expect(started(visible) || started(idle)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    window.dispatchEvent(new Event("focusin"));
    const [observer] = FakeIntersectionObserver.observing(visible);
    observer?.report(visible, true);
    await hydrated(visible);
    await hydrated(idle);
  });

  it("hydrates at once when the visitor engaged before the runtime started (the loader's mark)", async () => {
    const element = await island("pricing", pricingProps, "idle");
    // What the inline loader does at the end of the body, then a key before the runtime is in.
    markEngagement();
    window.dispatchEvent(new KeyboardEvent("keydown"));
    initIslands();
    await hydrated(element);
  });

  it("hydrates an idle island without waiting for visibility", async () => {
    const element = await island("pricing", pricingProps, "idle");
    initIslands();
    engage();
    await vi.waitFor(() => expect(isHydrated(element)).toBe(true), HYDRATION_WAIT);
  });

  it("hydrates server HTML on which the loader already shows the saved plan, with no mismatch", async () => {
    const errors = vi.spyOn(console, "error");
    const element = await island("pricing", pricingProps, "idle");
    const toggle = () => element.querySelector("[role=switch]");
    expect(toggle()).toHaveAttribute("aria-checked", "false");
    localStorage.setItem("plan", "annual");
    // What the page's inline loader does before the runtime arrives.
    const stop = initPlanStarts();
    expect(toggle()).toHaveAttribute("aria-checked", "true");
    initIslands();
    engage();
    await vi.waitFor(() => expect(isHydrated(element)).toBe(true), HYDRATION_WAIT);
    expect(toggle()).toHaveAttribute("aria-checked", "true");
    expect(element.querySelector("[data-current-plan]")).toHaveAttribute("data-current-plan", "annual");
    expect(errors).not.toHaveBeenCalled();
    stop();
  });

  it("reports hydration mismatches to console.error", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const element = await island("pricing", pricingProps, "idle", { ...pricingProps, monthlyLabel: "Different server text" });
    initIslands();
    engage();
    await vi.waitFor(() =>
      expect(errors.mock.calls.some((call) => String(call[0]).includes("[islands] pricing: hydration error"))).toBe(true),
    );
    // React recovers by rendering on the client: the page shows the props' text.
    await vi.waitFor(() => expect(element).toHaveTextContent(pricingProps.monthlyLabel));
    expect(element).not.toHaveTextContent("Different server text");
  });

  it("lets a held submit post natively when the island cannot load", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const nativeSubmit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => undefined);
    // The contact form's server HTML, under the name of an island that has no file (a chunk that never comes).
    const element = await island("contact", contactProps, "visible");
    element.dataset.island = "retired";
    const script = document.getElementById("props-contact") as HTMLScriptElement;
    script.id = "props-retired";
    initIslands();
    const form = fillServerForm(element);
    form.requestSubmit();
    expect(nativeSubmit).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(nativeSubmit).toHaveBeenCalledTimes(1));
    expect(String(errors.mock.calls[0]?.[0])).toContain("[islands] retired: could not hydrate");
  });

  it("leaves the server HTML alone and logs when props are missing", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const element = await island("pricing", pricingProps, "idle");
    document.getElementById("props-pricing")?.remove();
    const html = element.innerHTML;
    initIslands();
    engage();
    await vi.waitFor(() => expect(errors).toHaveBeenCalled());
    expect(String(errors.mock.calls[0]?.[0])).toContain("[islands] pricing: could not hydrate");
    expect(element.innerHTML).toBe(html);
    expect(isHydrated(element)).toBe(false);
  });
});
