// The tap sweep: every control of every island, pressed at every moment a visitor can press it,
// from the first paint to after hydration, on a desktop with a mouse and on a slow phone by touch.
// Used by specs/tap-sweep.spec.ts (each press ends in the hydrated page's state, exactly once) and
// by the benchmark (tests/bench/tap-sweep.mjs: kept or lost, and milliseconds to the result).
//
// "Kept" means the page reached the state a fully hydrated page reaches for that press, and
// stayed there once every island the press touches has hydrated: the positive signal after which
// no late replay can arrive. Nothing here waits a fixed time for "nothing happened".
import type { CDPSession, ElementHandle, Locator, Page } from "@playwright/test";
import { recordNoErrorStacks } from "./error-stacks";
import { PROMOTION, START_FOCUS } from "./islands";

export type Device = "desktop" | "phone";

/** A phone on a slow connection: what a resident on the edge of town has. */
export const SLOW_PHONE = { latencyMs: 150, downloadBitsPerSecond: 1_600_000, uploadBitsPerSecond: 750_000, cpuSlowdown: 4 };

/**
 * Throttles the page's network and CPU through the DevTools protocol, as Chromium's own presets do,
 * on `session` when the page already has one open.
 */
export async function throttleLikeSlowPhone(page: Page, session?: CDPSession): Promise<CDPSession> {
  const cdp = session ?? (await page.context().newCDPSession(page));
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: SLOW_PHONE.latencyMs,
    downloadThroughput: SLOW_PHONE.downloadBitsPerSecond / 8,
    uploadThroughput: SLOW_PHONE.uploadBitsPerSecond / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOW_PHONE.cpuSlowdown });
  return cdp;
}

/** What a press may change, read from the page. */
export interface PageState {
  promotion: string;
  planFields: string;
  switchChecked: string | null;
  currentPlan: string | null;
  /** Every toggle's switch and shown plan, in page order, joined by "/": on a page with two, both. */
  switches: string;
  currentPlans: string;
  savedPlan: string | null;
  focused: string;
  zip: string;
  zipStatus: string;
  thanked: boolean;
  /** The form shows it has taken the submit: its button is disabled, saying it is being sent, or the thanks are shown. */
  sending: boolean;
  /** plan-change events on window, change events of the promotion select, requests to the form service. */
  planChanges: number;
  promotionChanges: number;
  posts: number;
}

type IslandName = "pricing" | "contact";

export interface Control {
  name: string;
  devices: readonly Device[];
  /** The section a visitor scrolls to before pressing it (its id); the header stays on screen at any of them. */
  section: string;
  /** The island whose code handles the press; its chunk is held for the "downloading" moment. */
  island: IslandName;
  /** Which of the page's placements of that island is pressed (its data-placement); the first when not given. */
  placement?: string;
  /** Islands whose hydration could replay the press (the one that holds it): the sweep waits for them before counting. */
  settles: readonly IslandName[];
  /** The plan saved before the page loads, so that every plan press changes the plan once. */
  savedPlan: "monthly" | "annual";
  /** Done before the press without hydrating anything (values set directly, no events). */
  prepare?: (page: Page) => Promise<void>;
  /** What the visitor presses (scrolled into view first). */
  target: (page: Page) => Locator;
  /**
   * Typed after the press. The press timed is then the last key's: each key is an interaction of
   * its own, and the last one is what the result (the ZIP's note) answers.
   */
  types?: string;
  /** The parts of PageState this press decides, as a fully hydrated page ends. */
  expected: Partial<PageState>;
  /** Where a tap decides otherwise than a mouse's click (see `expectedOn`). */
  tapped?: Partial<PageState>;
  /**
   * What the page shows first in answer to the press, when that comes before `expected` (a submit
   * shows it is being sent before the form service replies): the press is timed to this.
   */
  answer?: Partial<PageState>;
}

const PERSON: Record<string, string> = {
  firstName: "Dana",
  lastName: "Reyes",
  address: "1418 6th St",
  zip: "57006",
  email: "dana@example.com",
  phone: "(605) 555-0199",
};

/**
 * Taps on a phone, clicks with the mouse on a desktop, at the middle of `target`, once it stands
 * still and is what that point would hit: a press aimed at a page still settling from its anchor
 * jump or a swipe's momentum would land elsewhere, and prove nothing. The press is the bare input
 * a finger or a mouse makes. (Playwright's own press checks the same with a listener it puts in the
 * page, which looks up the element under the point at the press's first event: a forced style and
 * layout inside the very press being timed, 10 to 30 ms on the slow phone, that no visitor's
 * browser spends.)
 */
export async function pressAt(target: Locator, device: Device): Promise<void> {
  const point = await target.evaluate(
    (element) =>
      new Promise<{ x: number; y: number } | string>((resolve) => {
        let last = "";
        let still = 0;
        // Where to bring a covered control, in turn, as Playwright's own press does.
        const aims: ScrollLogicalPosition[] = ["center", "end", "start"];
        const until = performance.now() + 5_000;
        const frame = (): void => {
          const box = element.getBoundingClientRect();
          const where = `${box.x},${box.y} ${box.width}×${box.height}`;
          still = where === last ? still + 1 : 0;
          last = where;
          const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
          const hit = document.elementFromPoint(x, y);
          if (still >= 2 && hit !== null && element.contains(hit)) return resolve({ x, y });
          // Standing still under something else (the sticky header, after an anchor jump): brought
          // to another place on the screen, each at most once.
          const aim = still >= 2 ? aims.shift() : undefined;
          if (aim) element.scrollIntoView({ block: aim, behavior: "instant" });
          if (performance.now() > until || (still >= 2 && !aim)) return resolve(`at ${where}, under ${hit?.outerHTML.slice(0, 80) ?? "nothing"}`);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
  if (typeof point === "string") throw new Error(`${target.toString()} never stood still where a press would reach it: ${point}`);
  const page = target.page();
  if (device === "phone") await page.touchscreen.tap(point.x, point.y);
  else await page.mouse.click(point.x, point.y);
}

/** What choosing `plan` shows everywhere, from the other plan saved: one plan-change. */
function planChosen(plan: "monthly" | "annual"): Partial<PageState> {
  return {
    planFields: plan === "annual" ? "annual/250/yearly" : "monthly/25/monthly",
    switchChecked: String(plan === "annual"),
    currentPlan: plan,
    savedPlan: plan,
    planChanges: 1,
  };
}

/** A control of the pricing island that chooses `plan`, pressed with the other plan saved. */
function pricingControl(name: string, plan: "monthly" | "annual", target: Control["target"], expected: Partial<PageState>): Control {
  return {
    name,
    devices: ["desktop", "phone"],
    section: "pricing",
    island: "pricing",
    settles: ["pricing"],
    savedPlan: plan === "annual" ? "monthly" : "annual",
    target,
    expected: { ...planChosen(plan), ...expected },
  };
}

// A Start button also sets the promotion (one change) and focuses the form: its first field after a
// click, its heading after a tap (no on-screen keyboard over the form). The toggle leaves "None" alone.
const STARTED = { focused: START_FOCUS.clicked, promotionChanges: 1 };
const STARTED_BY_TAP = { focused: START_FOCUS.tapped };
const TOGGLED = { promotion: "None", promotionChanges: 0 };

export const CONTROLS: readonly Control[] = [
  {
    ...pricingControl("Start Annual", "annual", (page) => page.getByRole("link", { name: "Start Annual" }), {
      ...STARTED,
      promotion: PROMOTION.annual,
    }),
    tapped: STARTED_BY_TAP,
  },
  {
    ...pricingControl("Start Monthly", "monthly", (page) => page.getByRole("link", { name: "Start Monthly" }), {
      ...STARTED,
      promotion: PROMOTION.monthly,
    }),
    tapped: STARTED_BY_TAP,
  },
  pricingControl("billing switch", "annual", (page) => page.getByRole("switch"), TOGGLED),
  pricingControl("label Annual", "annual", (page) => page.locator(".pricing__option", { hasText: "Annual" }), TOGGLED),
  pricingControl("label Monthly", "monthly", (page) => page.locator(".pricing__option", { hasText: "Monthly" }), TOGGLED),
  {
    name: "typing the ZIP",
    devices: ["desktop", "phone"],
    section: "contact",
    island: "contact",
    settles: ["contact"],
    savedPlan: "monthly",
    target: (page) => page.locator("#zip"),
    types: "57006",
    expected: { zip: "57006", zipStatus: "Great, Brookings area ZIP codes are in our service area.", focused: "zip", posts: 0 },
  },
  {
    name: "submit button",
    devices: ["desktop", "phone"],
    section: "contact",
    island: "contact",
    settles: ["contact"],
    savedPlan: "monthly",
    // Filled without events, so nothing but the press itself can wake the form.
    prepare: (page) =>
      page.evaluate((person) => {
        for (const [name, value] of Object.entries(person)) {
          const field = document.querySelector<HTMLInputElement>(`#contact form [name="${name}"]`);
          if (field) field.value = value;
        }
      }, PERSON),
    target: (page) => page.locator("#contact form [type=submit]"),
    expected: { thanked: true, posts: 1 },
    answer: { sending: true },
  },
];

/**
 * A page with two pricing toggles (the second placed by a layout's `island("pricing", …)`) and the
 * form: whichever toggle is pressed, both toggles and the form end on the plan chosen.
 */
export const TWO_TOGGLES: readonly Control[] = [
  {
    ...pricingControl("first toggle's label Annual", "annual", (page) => page.locator("[data-placement=pricing] .pricing__option", { hasText: "Annual" }), TOGGLED),
    placement: "pricing",
  },
  {
    ...pricingControl("second toggle's switch", "annual", (page) => page.locator("[data-placement=pricing_2] [role=switch]"), TOGGLED),
    placement: "pricing_2",
  },
  {
    ...pricingControl("second toggle's Start Monthly", "monthly", (page) => page.locator("[data-placement=pricing_2]").getByRole("link", { name: "Start Monthly" }), {
      ...STARTED,
      promotion: PROMOTION.monthly,
    }),
    tapped: STARTED_BY_TAP,
    placement: "pricing_2",
  },
].map((control) => {
  const plan = control.savedPlan === "monthly" ? "annual" : "monthly";
  return { ...control, expected: { ...control.expected, switches: [plan, plan].map((p) => String(p === "annual")).join("/"), currentPlans: `${plan}/${plan}` } };
});

export const MOMENTS = [
  "at DOMContentLoaded",
  "while its chunks download",
  "0 ms after a scroll",
  "100 ms after a scroll",
  "300 ms after a scroll",
  "1000 ms after a scroll",
  "after hydration",
] as const;
export type Moment = (typeof MOMENTS)[number];

/** What the page itself can read of a press's state: everything but the requests sent. */
type PageSide = Omit<PageState, "posts">;
interface SweepProbe {
  planChanges: number;
  promotionChanges: number;
  tapAt: number;
  /** What the armed press's first pointer or key event landed on. */
  pressedOn: EventTarget | null;
  /** The browser's Event Timing entries of interactions (16 ms or longer): what INP is made of. */
  events: Array<{ name: string; start: number; duration: number; interaction: number }>;
  read: () => PageSide;
}

/** The page's counters and state reader, installed before any of its scripts run. */
async function installCounters(page: Page, savedPlan: string): Promise<void> {
  await page.addInitScript((plan) => {
    const value = (selector: string): string => document.querySelector<HTMLInputElement>(selector)?.value ?? "";
    const probe: SweepProbe = {
      planChanges: 0,
      promotionChanges: 0,
      tapAt: -1,
      pressedOn: null,
      events: [],
      read: () => {
        let saved: string | null = null;
        try {
          saved = localStorage.getItem("plan");
        } catch {
          saved = null;
        }
        return {
          promotion: value("#contact form [name=promotion]"),
          planFields: ["plan_type", "plan_amount", "billing_frequency"].map((n) => value(`#contact form [name=${n}]`)).join("/"),
          switchChecked: document.querySelector("[role=switch]")?.getAttribute("aria-checked") ?? null,
          currentPlan: document.querySelector<HTMLElement>("[data-current-plan]")?.dataset.currentPlan ?? null,
          switches: [...document.querySelectorAll("[role=switch]")].map((s) => s.getAttribute("aria-checked")).join("/"),
          currentPlans: [...document.querySelectorAll<HTMLElement>("[data-current-plan]")].map((p) => p.dataset.currentPlan).join("/"),
          savedPlan: saved,
          focused: document.activeElement?.id ?? "",
          zip: value("#zip"),
          zipStatus: document.querySelector(".contact-form__zip-status")?.textContent?.trim() ?? "",
          thanked: document.querySelector(".contact--thanks") !== null,
          sending:
            document.querySelector(".contact--thanks") !== null ||
            document.querySelector<HTMLButtonElement>("#contact form [type=submit]")?.disabled === true,
          planChanges: probe.planChanges,
          promotionChanges: probe.promotionChanges,
        };
      },
    };
    (window as unknown as { __sweep: SweepProbe }).__sweep = probe;
    // Input to the next paint, as the browser itself times each interaction.
    if ((PerformanceObserver.supportedEntryTypes ?? []).includes("event")) {
      new PerformanceObserver((list) => {
        // interactionId: in Chromium's Event Timing, not yet in this TypeScript's DOM types.
        for (const entry of list.getEntries() as Array<PerformanceEventTiming & { interactionId: number }>) {
          if (entry.interactionId > 0) probe.events.push({ name: entry.name, start: entry.startTime, duration: entry.duration, interaction: entry.interactionId });
        }
      }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    }
    // Only before the first load: a reload in the same test keeps what the page saved.
    if (sessionStorage.getItem("sweep-seeded") === null) {
      localStorage.setItem("plan", plan);
      sessionStorage.setItem("sweep-seeded", "1");
    }
    window.addEventListener("plan-change", () => probe.planChanges++);
    document.addEventListener("change", (event) => {
      if (event.target instanceof HTMLSelectElement && event.target.name === "promotion") probe.promotionChanges++;
    });
    // The moment of the press, in the page's clock: the first pointer or key after the sweep armed it.
    for (const type of ["pointerdown", "keydown"]) {
      window.addEventListener(type, (event) => {
        if (probe.tapAt !== 0) return;
        probe.tapAt = event.timeStamp;
        probe.pressedOn = event.target;
      }, { capture: true });
    }
  }, savedPlan);
}

/** Reads the state a press may change. `posts` is counted outside the page. */
export async function readState(page: Page, posts: number): Promise<PageState> {
  const side = await page.evaluate(() => (window as unknown as { __sweep: SweepProbe }).__sweep.read());
  return { ...side, posts };
}

/**
 * The page's clock when it first shows `expected` (the requests sent aside, which the settled
 * state checks), or null after `timeoutMs`. Checked in the page at every frame: no round trip
 * per frame, whose work a slowed CPU would multiply.
 */
async function reachedAt(page: Page, expected: Partial<PageState>, timeoutMs: number): Promise<number | null> {
  const { posts: _posts, ...pageSide } = expected;
  try {
    const handle = await page.waitForFunction(
      (wanted) => {
        const state = (window as unknown as { __sweep: SweepProbe }).__sweep.read();
        const all = Object.entries(wanted).every(([key, value]) => state[key as keyof PageSide] === value);
        return all ? performance.now() : false;
      },
      pageSide,
      { polling: "raf", timeout: timeoutMs },
    );
    return (await handle.jsonValue()) as number;
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") return null;
    throw error;
  }
}

/** What `control` decides when pressed on `device`: the phone taps, the desktop clicks. */
export function expectedOn(control: Control, device: Device): Partial<PageState> {
  return device === "phone" ? { ...control.expected, ...control.tapped } : control.expected;
}

function matches(state: PageState, expected: Partial<PageState>): boolean {
  return Object.entries(expected).every(([key, value]) => state[key as keyof PageState] === value);
}

/**
 * Scrolls as a reader does: a touch swipe on a phone, the mouse wheel on a desktop, until `target`
 * is in the middle half of the screen, or as near as the page lets it come. On a phone the finger
 * rests before it lifts (no fling) unless `fling` is set: a flung page glides on for seconds on a
 * slowed CPU, which only the hydration probe wants to see.
 */
export async function scrollTo(page: Page, device: Device, target: Locator, cdp: CDPSession | null, fling = false): Promise<void> {
  // A control in a sticky or fixed bar (the header's menu button) stays where it is on the
  // screen: no scroll brings it nearer.
  const pinned = await target.evaluate((element) => {
    for (let node: Element | null = element; node; node = node.parentElement) {
      const { position } = getComputedStyle(node);
      if (position === "sticky" || position === "fixed") return true;
    }
    return false;
  });
  if (pinned) return;
  let previous: number | null = null;
  for (let attempt = 0; attempt < 12; attempt++) {
    const box = await target.boundingBox();
    const viewport = page.viewportSize();
    if (!box || !viewport) throw new Error(`cannot scroll to ${target.toString()}`);
    // Aim the target at the middle of the screen.
    const distance = Math.round(box.y + box.height / 2 - viewport.height / 2);
    // Near enough, or the last scroll did not move it (the page's end is reached).
    if (Math.abs(distance) < viewport.height / 4 || box.y === previous) return;
    previous = box.y;
    if (device === "phone" && cdp) {
      // A finger dragging up the screen: real touch events, which Chromium scrolls by (its
      // synthesized touch gestures do not scroll a headless page). Sent together, not one round
      // trip each (on the slowed CPU each takes 35 ms or more). A flick is over in a few frames;
      // a drag carries the times a finger would have had, 16 ms apart, ending now with a rest of
      // 150 ms before the lift, so the page moves with the finger and stops with it. (Times in
      // the future instead make Chromium drop most of the moves: the page moves a quarter as far.)
      const reach = fling ? 0.6 : 0.7;
      const swipe = Math.max(-viewport.height * reach, Math.min(distance, viewport.height * reach));
      const x = Math.round(viewport.width / 2);
      const from = Math.round(swipe > 0 ? viewport.height * (fling ? 0.8 : 0.85) : viewport.height * (fling ? 0.2 : 0.15));
      const steps = 12;
      const lift = 16 * steps + 151;
      const start = Date.now() / 1000 - lift / 1000;
      const at = (ms: number): { timestamp?: number } => (fling ? {} : { timestamp: start + ms / 1000 });
      const y = (i: number): number => Math.round(from - (swipe * i) / steps);
      await Promise.all([
        cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y: from }], ...at(0) }),
        ...Array.from({ length: steps }, (_, i) =>
          cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y(i + 1) }], ...at(16 * (i + 1)) }),
        ),
        ...(fling ? [] : [cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y(steps) }], ...at(lift - 1) })]),
        cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [], ...at(lift) }),
      ]);
    } else {
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await page.mouse.wheel(0, Math.max(-1500, Math.min(distance, 1500)));
    }
    await scrollSettled(page);
  }
}

/** Puts `target`'s middle at the bottom of the screen at once, leaving the last stretch to a real scroll. */
async function jumpNear(page: Page, target: Locator): Promise<void> {
  await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = window.scrollY + box.top + box.height / 2 - window.innerHeight;
    if (top > window.scrollY) window.scrollTo({ top, behavior: "instant" });
  });
}

/** Resolves once the page has stopped scrolling: its position the same over three frames. */
export async function scrollSettled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = window.scrollY;
        let still = 0;
        const frame = (): void => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 3) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

export interface Outcome {
  control: string;
  device: Device;
  moment: Moment;
  kept: boolean;
  /** From the press to its first answer (the expected state, or `answer`), in the page's clock; null when never reached. */
  ms: number | null;
  /**
   * The browser's Event Timing duration of the press (input to the next paint; for typing, the last
   * key's), the figure behind INP: the longest event of the interaction. 0 when the browser reported
   * none, which it does only for interactions of 16 ms or longer.
   */
  eventMs: number;
  state: PageState;
}

const CHUNK = (island: IslandName): RegExp => new RegExp(`/assets/${island}-[\\w-]+\\.js$`);
const FORM_SERVICE = "https://formspree.io/f/**";

/**
 * One press of `control` at `moment`, on a page already sized for `device`: the site's home page,
 * or the one at `opts.origin`.
 */
export async function pressOnce(
  page: Page,
  device: Device,
  control: Control,
  moment: Moment,
  opts: { throttle: boolean; timeoutMs: number; origin?: string },
): Promise<Outcome> {
  const home = `${opts.origin ?? ""}/`;
  const pressed = control.placement ? `[data-placement="${control.placement}"]` : `[data-island="${control.island}"]`;
  const cdp = device === "phone" || opts.throttle ? await page.context().newCDPSession(page) : null;
  if (opts.throttle && cdp) await throttleLikeSlowPhone(page, cdp);
  // Timed as a visitor's browser runs the page: no stacks recorded for a DevTools client.
  await recordNoErrorStacks(page);
  await installCounters(page, control.savedPlan);
  let posts = 0;
  await page.route(FORM_SERVICE, async (route) => {
    posts++;
    await route.fulfill({
      status: 200,
      headers: { "access-control-allow-origin": "*", "content-type": "application/json" },
      body: JSON.stringify({ next: "/thanks", ok: true }),
    });
  });
  const chunk = { requested: Promise.resolve(), release: (): void => undefined };
  if (moment === "while its chunks download") {
    let markRequested!: () => void;
    chunk.requested = new Promise((resolve) => (markRequested = resolve));
    const released = new Promise<void>((resolve) => (chunk.release = resolve));
    await page.route(CHUNK(control.island), async (route) => {
      markRequested();
      await released;
      await route.continue();
    });
  }
  const target = control.target(page);
  // Held for the check after the press: the submit's thanks replace the button it pressed.
  let pressedElement!: ElementHandle<Element>;
  const arm = (): Promise<void> => page.evaluate(() => void ((window as unknown as { __sweep: SweepProbe }).__sweep.tapAt = 0));
  const press = async (): Promise<void> => {
    pressedElement = await target.elementHandle();
    if (!control.types) {
      await arm();
      await pressAt(target, device);
      return;
    }
    await pressAt(target, device);
    await page.keyboard.type(control.types.slice(0, -1));
    await arm();
    await page.keyboard.type(control.types.slice(-1));
  };

  if (moment === "at DOMContentLoaded") {
    // The section is in view from the start, as when a shared link points at it.
    await page.goto(`${home}#${control.section}`, { waitUntil: "domcontentloaded" });
    // A phone may still need the control brought up; at once, not as a reader's slow scroll.
    await target.evaluate((element) => {
      const box = element.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) element.scrollIntoView({ block: "center", behavior: "instant" });
    });
    await control.prepare?.(page);
    // The earliest a visitor can press is once the control is on the screen: after the first
    // frame that shows it (the second animation frame from now). Pressed before, Event Timing
    // counts the page's whole first rendering, which no visitor can tap through.
    await page.evaluate(() => new Promise<void>((shown) => requestAnimationFrame(() => requestAnimationFrame(() => shown()))));
    await press();
  } else {
    await page.goto(home, { waitUntil: "load" });
    // The way down is cut short: the page jumps to half a screen above the control's section,
    // then the reader's own swipe (or wheel) brings it to the middle. The moments count from the
    // last scroll's end, and the jump engages the page as a first swipe would, so the islands'
    // code has had as long to arrive before the press as after a long scroll, or less.
    const section = page.locator(`#${control.section}`);
    await jumpNear(page, section);
    await scrollTo(page, device, section, cdp);
    await scrollTo(page, device, target, cdp);
    await control.prepare?.(page);
    if (moment === "while its chunks download") {
      // The visitor has scrolled, so the island's code is on its way (or starts at the press).
      await press();
      await chunk.requested;
      chunk.release();
    } else {
      if (moment === "after hydration") {
        await page.locator(`${pressed}[data-hydrated]`).waitFor({ state: "attached", timeout: opts.timeoutMs });
      } else {
        const delay = Number.parseInt(moment, 10);
        if (delay > 0) await page.waitForTimeout(delay);
      }
      await press();
    }
  }

  // Reached: the first answer, then the expected state, in the page's clock.
  const answered = control.answer ? await reachedAt(page, control.answer, opts.timeoutMs) : null;
  const expected = expectedOn(control, device);
  const reached = await reachedAt(page, expected, opts.timeoutMs);
  const tapAt = await page.evaluate(() => (window as unknown as { __sweep: SweepProbe }).__sweep.tapAt);
  // Read now, not in the middle of the press: a press that landed beside the control is the
  // sweep's own miss, not a press the page lost.
  const missed = await pressedElement.evaluate((element) => {
    const on = (window as unknown as { __sweep: SweepProbe }).__sweep.pressedOn;
    return on instanceof Node && element.contains(on) ? null : on instanceof Element ? on.outerHTML.slice(0, 80) : String(on);
  });
  if (missed !== null) throw new Error(`the press meant for ${control.name} landed on ${missed}`);

  // Settle: every island that could replay this press has hydrated; only then are counts final.
  // The race is over, so the CPU runs at full speed again: Chromium slows a page by making its
  // main thread spin, which would only take the machine from the other tests.
  if (opts.throttle) await cdp?.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  if (reached !== null) {
    for (const island of control.settles) {
      // Every placement of the island: a page may hold two, and holds at least one.
      const placements = page.locator(`[data-island="${island}"]`);
      await placements.first().waitFor({ state: "attached", timeout: opts.timeoutMs });
      for (const element of await placements.all()) {
        if ((await element.getAttribute("data-hydrated")) === null) await scrollTo(page, device, element, cdp);
        await element.and(page.locator("[data-hydrated]")).waitFor({ state: "attached", timeout: opts.timeoutMs });
      }
    }
  }
  const state = await readState(page, posts);
  // Read once everything has settled: each entry is reported only after the paint that ends it.
  const eventMs = await page.evaluate((at) => {
    const { events } = (window as unknown as { __sweep: SweepProbe }).__sweep;
    const first = events.find((entry) => entry.start >= at - 1);
    if (!first) return 0;
    return Math.max(...events.filter((entry) => entry.interaction === first.interaction).map((entry) => entry.duration));
  }, tapAt);
  const kept = reached !== null && matches(state, expected);
  const first = control.answer ? answered : reached;
  return { control: control.name, device, moment, kept, eventMs, ms: first !== null && reached !== null && tapAt > 0 ? Math.round(first - tapAt) : null, state };
}

/**
 * From the start of a reader's scroll towards the plans to the pricing island hydrated, in the
 * page's clock. "Hydrated" is when the runtime marks the island `data-hydrated`: hydration has
 * committed and every effect of the island has run.
 */
export async function scrollToHydrated(page: Page, device: Device, timeoutMs: number): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await recordNoErrorStacks(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __pricingHydratedAt?: number; __scrollStart?: number };
    // Seen when the attribute is set, not when a poll next looks.
    new MutationObserver(() => {
      if (document.querySelector('[data-island="pricing"][data-hydrated]')) w.__pricingHydratedAt ??= performance.now();
    }).observe(document, { subtree: true, attributeFilter: ["data-hydrated"] });
    // The scroll starts when the page sees the finger (or the wheel), not when the test asks for it.
    const mark = (event: Event): void => void (w.__scrollStart ??= event.timeStamp);
    for (const type of ["touchstart", "wheel"]) window.addEventListener(type, mark, { capture: true, passive: true });
  });
  await page.goto("/", { waitUntil: "load" });
  // The reader has the page in front of them: the runtime that came after the first paint is in.
  await page.waitForFunction(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).some(
      (entry) => /\/assets\/islands-[\w-]+\.js$/.test(entry.name) && entry.responseEnd > 0,
    ),
  );
  await scrollTo(page, device, page.getByRole("switch"), cdp, true);
  const handle = await page.waitForFunction(
    () => {
      const w = window as unknown as { __pricingHydratedAt?: number; __scrollStart?: number };
      return w.__pricingHydratedAt !== undefined && w.__scrollStart !== undefined ? w.__pricingHydratedAt - w.__scrollStart : null;
    },
    undefined,
    { timeout: timeoutMs },
  );
  return Math.round((await handle.jsonValue()) ?? Number.NaN);
}
