// Helpers for the islands, contact-form and no-JavaScript specs.
//
// - `test`: the page-checks fixture plus `allowConsole`, for the few console lines a test
//   provokes on purpose (Chromium logs "Failed to load resource … 422" for every failed
//   fetch, whatever the page does). Anything not allowed still fails the test.
// - `waitForIsland`: the island's `data-hydrated`, which the runtime sets once hydration has
//   committed and every effect of the island has run (saved plan applied, plan changes
//   followed): a signal with no sleep in it.
// - the form service: intercepting https://formspree.io/f/**, reading its multipart body,
//   and replies that can be held until the test has looked at the pending state.
// - `holdAsset`: a script of the site held back until the test releases it, so a tap or a
//   submit surely lands before the code that handles it has arrived.
import type { Page, Request, Route } from "@playwright/test";
import { expect, test as checked } from "./page-checks";

export { expect, expectNoAxeViolations } from "./page-checks";

export const test = checked.extend<{ allowConsole: (pattern: RegExp) => void }>({
  // Depends on `problems`, so its teardown runs first and removes the allowed lines
  // before `problems` checks what is left.
  allowConsole: async ({ problems }, use) => {
    const allowed: RegExp[] = [];
    await use((pattern) => {
      allowed.push(pattern);
    });
    for (let i = problems.length - 1; i >= 0; i--) {
      if (allowed.some((pattern) => pattern.test(problems[i] ?? ""))) problems.splice(i, 1);
    }
  },
});

/** The console line Chromium writes for a fetch answered with this status. */
export function failedStatus(status: number): RegExp {
  return new RegExp(`^console\\.error: Failed to load resource: the server responded with a status of ${status}\\b`);
}

export type IslandName = "pricing" | "contact";

interface ProbeWindow {
  __planEvents: Array<{ planType: string; amount: number; frequency: string }>;
  __planStacks: string[];
  __promotionChanges: Array<{ value: string; bubbles: boolean }>;
}

/**
 * Waits until the island has hydrated and its effects (saved plan, subscription) have run. The
 * islands' code waits for the visitor's first scroll, tap, key or focus: a key (Shift, which
 * changes nothing) stands for it, where the test has not engaged the page yet.
 */
export async function waitForIsland(page: Page, island: IslandName): Promise<void> {
  await page.keyboard.press("Shift");
  // Set by the runtime once hydration has committed, after every effect of the island.
  await expect(page.locator(`[data-island="${island}"][data-hydrated]`).first(), `the ${island} island hydrates`).toBeAttached();
}

/** Records every `plan-change` on window and every `change` of #promotion from now on. */
export async function recordPlanEvents(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as ProbeWindow;
    w.__planEvents = [];
    w.__promotionChanges = [];
    w.__planStacks = [];
    window.addEventListener("plan-change", (event) => {
      const { planType, amount, frequency } = (event as CustomEvent<ProbeWindow["__planEvents"][number]>).detail;
      w.__planEvents.push({ planType, amount, frequency });
      // Who announced it, for the failure message of a test that counts announcements.
      w.__planStacks.push(
        (new Error().stack ?? "")
          .split("\n")
          .slice(2, 14)
          .map((line) => line.trim().replace(/https?:\/\/[^/]+\/assets\//, ""))
          .join(" < "),
      );
    });
    // On document, so only a bubbling change is heard, as the contact island hears it.
    document.addEventListener("change", (event) => {
      const target = event.target;
      if (target instanceof HTMLSelectElement && target.id === "promotion") {
        w.__promotionChanges.push({ value: target.value, bubbles: event.bubbles });
      }
    });
  });
}

export function planEvents(page: Page): Promise<ProbeWindow["__planEvents"]> {
  return page.evaluate(() => (window as unknown as ProbeWindow).__planEvents);
}

/** Where each recorded plan-change was dispatched from (call stacks, newest frame first). */
export function planEventSources(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as ProbeWindow).__planStacks);
}

export function promotionChanges(page: Page): Promise<ProbeWindow["__promotionChanges"]> {
  return page.evaluate(() => (window as unknown as ProbeWindow).__promotionChanges);
}

export const ANNUAL = { planType: "annual", amount: 250, frequency: "yearly" } as const;
export const MONTHLY = { planType: "monthly", amount: 25, frequency: "monthly" } as const;

/** Scrolls at once (the site asks for smooth scrolling) and resolves after the page handled the scroll event. */
export async function scrollInstantly(page: Page, top: number): Promise<void> {
  await page.evaluate(
    (y) =>
      new Promise<void>((resolve) => {
        const target = Math.min(y, document.documentElement.scrollHeight - window.innerHeight);
        if (Math.abs(window.scrollY - target) < 1) return resolve();
        // Listeners run in the order they were added: the page's own ran before this one.
        window.addEventListener("scroll", () => resolve(), { once: true });
        window.scrollTo({ top: y, behavior: "instant" });
      }),
    top,
  );
}

/** Two animation frames: style, layout and intersection observers have caught up. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * The expanded state of the element matching `selector` as the browser's accessibility tree
 * tells it to a screen reader (what a popover's button says lives there, not in an attribute);
 * null when the element has none.
 */
export async function expandedState(page: Page, selector: string): Promise<boolean | null> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no element matches ${selector}`);
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", { nodeId, fetchRelatives: false });
    const expanded = nodes[0]?.properties?.find((property) => property.name === "expanded");
    return expanded === undefined ? null : expanded.value.value === true;
  } finally {
    await cdp.detach();
  }
}

// ---------------------------------------------------------------- the form service

export interface HeldAsset {
  /** Resolves once the browser has asked for the asset. */
  requested: Promise<void>;
  /** Lets the held request (and any later one) through. */
  release(): void;
}

/** Holds every request for a URL matching `pattern` until `release()`. */
export async function holdAsset(page: Page, pattern: RegExp): Promise<HeldAsset> {
  let markRequested!: () => void;
  const requested = new Promise<void>((resolve) => (markRequested = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    markRequested();
    await released;
    await route.continue();
  });
  return { requested, release };
}

export const FORM_URL = "https://formspree.io/f/xsample1";
export const FORM_ROUTE = "https://formspree.io/f/**";

/** CORS as the hosted service answers it; Playwright answers the preflight itself. */
export const CORS = { "access-control-allow-origin": "*" };

export interface Reply {
  status: number;
  body: string;
  contentType?: string;
}

export const SUCCESS: Reply = { status: 200, body: JSON.stringify({ next: "/thanks", ok: true }) };

export function jsonReply(status: number, value: unknown): Reply {
  return { status, body: JSON.stringify(value) };
}

export async function fulfill(route: Route, reply: Reply): Promise<void> {
  await route.fulfill({
    status: reply.status,
    headers: { ...CORS, "content-type": reply.contentType ?? "application/json" },
    body: reply.body,
  });
}

/** Fields of a multipart or urlencoded body, in order. */
export async function bodyFields(request: Request): Promise<Array<[string, string]>> {
  const contentType = request.headers()["content-type"] ?? "";
  const buffer = request.postDataBuffer() ?? Buffer.alloc(0);
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    return [...new URLSearchParams(buffer.toString("utf8")).entries()];
  }
  const form = await new Response(new Uint8Array(buffer), { headers: { "content-type": contentType } }).formData();
  return [...form.entries()].map(([name, value]) => [name, typeof value === "string" ? value : `<file ${value.name}>`]);
}

export interface FormService {
  /** Every request the page sent to the form service, in order. */
  requests: Request[];
  /** Resolves with the next request that arrives (or the one already waiting). */
  nextRequest(): Promise<Request>;
  /** Replies to every later request with `reply`, or holds it until `release()` when `hold` is set. */
  answer(reply: Reply | "abort" | "hold"): void;
  /** Answers the held requests. */
  release(reply: Reply): Promise<void>;
}

/** Intercepts the form service; by default every request is held until the test answers. */
export async function interceptFormService(page: Page): Promise<FormService> {
  const requests: Request[] = [];
  const held: Route[] = [];
  const waiting: Array<(request: Request) => void> = [];
  let seen = 0;
  let mode: Reply | "abort" | "hold" = "hold";
  await page.route(FORM_ROUTE, async (route) => {
    const request = route.request();
    requests.push(request);
    waiting.shift()?.(request);
    if (mode === "hold") {
      held.push(route);
    } else if (mode === "abort") {
      await route.abort("internetdisconnected");
    } else {
      await fulfill(route, mode);
    }
  });
  return {
    requests,
    nextRequest() {
      const index = seen++;
      const request = requests[index];
      if (request) return Promise.resolve(request);
      return new Promise((resolve) => waiting.push(resolve));
    },
    answer(reply) {
      mode = reply;
    },
    async release(reply) {
      for (const route of held.splice(0)) await fulfill(route, reply);
    },
  };
}

// ---------------------------------------------------------------- the contact form

/** The visible fields of the form, as a visitor fills them. */
export const PERSON = {
  firstName: "Dana",
  lastName: "O’Néill-Ramírez",
  address: "1418 6th St, Apt 2 & B",
  city: "Brookings",
  state: "SD",
  zip: "57006",
  email: "dana.oneill@example.com",
  phone: "(605) 555-0199",
} as const;

export type Person = Record<keyof typeof PERSON, string>;

export const PROMOTION = {
  none: "None",
  monthly: "Monthly plan",
  annual: "Yearly plan (2 months free)",
} as const;

/** Where a Start button leaves focus (element ids): the form's first field after a click or a key, its heading after a tap. */
export const START_FOCUS = { clicked: "firstName", tapped: "contact-heading" } as const;

/** Opens the home page at the contact section and waits for the form to hydrate. */
export async function openContactForm(page: Page): Promise<void> {
  await page.goto("/#contact");
  await waitForIsland(page, "contact");
}

export async function fillPerson(page: Page, person: Person = PERSON): Promise<void> {
  for (const [name, value] of Object.entries(person)) {
    await page.locator(`#contact form [name="${name}"]`).fill(value);
  }
}

/** Every value the form holds, hidden fields included, by name. */
export function formValues(page: Page): Promise<Record<string, string>> {
  return page.locator("#contact form").evaluate((form) =>
    Object.fromEntries(
      Array.from((form as HTMLFormElement).elements)
        .filter((el): el is HTMLInputElement | HTMLSelectElement => "name" in el && (el as HTMLInputElement).name !== "")
        .map((el) => [el.name, el.value]),
    ),
  );
}

/** The body the form must send for `person` on `plan` with `promotion`. */
export function expectedBody(
  person: Person,
  promotion: string,
  plan: typeof ANNUAL | typeof MONTHLY,
): Record<string, string> {
  return {
    ...person,
    promotion,
    plan_type: plan.planType,
    plan_amount: String(plan.amount),
    billing_frequency: plan.frequency,
    _gotcha: "",
  };
}

/** The fields sent, as an object, failing on a field sent twice. */
export function fieldsObject(fields: Array<[string, string]>): Record<string, string> {
  const names = fields.map(([name]) => name);
  expect(names.filter((name, i) => names.indexOf(name) !== i), "no field is sent twice").toEqual([]);
  return Object.fromEntries(fields);
}
