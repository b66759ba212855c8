// Start Monthly and Start Annual, from the first paint on. They are links to the form, so they
// jump there without JavaScript; this handler, inlined with the loader, is their only click
// handler, so they do their whole job before the pricing island has hydrated, while its chunks
// are still downloading, and if React never arrives: in the press, the plan is saved and announced
// once and the promotion select is set (one bubbling change); just after the frame that shows
// them, the page scrolls to the form and focus moves there (its heading after a touch, its first
// field after a mouse or a key).
//
// Until React listens in a pricing island (its `data-react`), it also answers that island's switch
// and the words beside it: a press shows the plan at once, on a slow phone too, instead of waiting
// for React to arrive and replaying it. (The runtime's hold leaves those presses to it.)
//
// It also keeps the page's own markup of the plan (every toggle, the form's hidden fields and
// promotion) in step with the plan before and without hydration: the saved one, else the one the
// page chooses; a plan named in the address (`?plan=annual`, from a door hanger's QR code) is
// chosen at once, as the toggle would. It brings back a Start choice made earlier in this visit
// when the form is reached again on a later page.
//
// It names no island: it finds what it needs by the props' shape and the links' own attributes,
// wherever and however often the islands are placed.
import { allProps, isRecord } from "../shared/page-props";
import { choosePlan, choosePromotion, followPlanPromotion, isPlanType, onPlanChange, readPlanType, setPagePlan, showPlan } from "../shared/plan";
import { scrollBehavior } from "../shared/motion";
import type { PlanType, Plans } from "../shared/island-types";

/** id of the contact form's first field, fixed by the form's field names. */
const FIRST_FIELD_ID = "firstName";
/** sessionStorage key: a Start button was used in this visit, so the form shows that plan's promotion. */
export const START_CHOSEN_KEY = "plan-start";
/** The address's query parameter that chooses a plan. */
export const PLAN_PARAMETER = "plan";

/** What the page's props say about plans, whichever islands carry it. */
interface PagePlans {
  plans: Plans;
  /** The plan a placement chooses (its `plan` prop). */
  chosen: PlanType | null;
  /** The promotion select and the value that stands for each plan. */
  promotion: { selectId: string; values: Record<PlanType, string>; none: string } | null;
}

function isPlans(value: unknown): value is Plans {
  return isRecord(value) && isRecord(value.monthly) && isRecord(value.annual) && typeof value.monthly.amount === "number" && typeof value.annual.amount === "number";
}

/** Reads every placement's props, by shape: `plans`, `plan`, and the form's `promotion` and select id. */
function pagePlans(): PagePlans | null {
  let found: PagePlans | null = null;
  for (const props of allProps()) {
    if (!isRecord(props) || !isPlans(props.plans)) continue;
    found ??= { plans: props.plans, chosen: null, promotion: null };
    if (found.chosen === null && isPlanType(props.plan)) found.chosen = props.plan;
    const promotion = props.promotion;
    const selectId = props.promotionSelectId;
    if (found.promotion === null && isRecord(promotion) && typeof selectId === "string") {
      const { monthly, annual, options } = promotion;
      const first: unknown = Array.isArray(options) ? (options[0] as unknown) : undefined;
      const none = isRecord(first) && typeof first.value === "string" ? first.value : "";
      if (typeof monthly === "string" && typeof annual === "string") found.promotion = { selectId, values: { monthly, annual }, none };
    }
  }
  return found;
}

/** The plan named in the address, if it is one. */
function planInAddress(): PlanType | null {
  const named = new URLSearchParams(window.location.search).get(PLAN_PARAMETER);
  return isPlanType(named) ? named : null;
}

/** Starts the handler and the plan's markup; returns what stops both (for tests). */
export function initPlanStarts(): () => void {
  const page = pagePlans();
  const stops: Array<() => void> = [];
  if (page) {
    if (page.chosen) setPagePlan(page.chosen);
    // The server rendered the page's plan; a saved one shows before the islands hydrate.
    showPlan(readPlanType(), page.plans);
    stops.push(onPlanChange((planType) => showPlan(planType, page.plans)));
    if (page.promotion) restorePromotion(page.promotion);
    const named = planInAddress();
    if (named) {
      // As the toggle chooses, and as a Start button sets the form.
      choosePlan(named, page.plans);
      const select = page.promotion && document.getElementById(page.promotion.selectId);
      if (page.promotion && select instanceof HTMLSelectElement && select.value !== page.promotion.values[named]) {
        choosePromotion(select, page.promotion.values[named]);
      }
    }
    const listener = (event: MouseEvent): void => onClick(event, page);
    // Capturing, on the document: it runs before the runtime keeps a hydrating island's presses
    // from React (src/runtime/shield.ts), and before React's own listeners on an island.
    document.addEventListener("click", listener, true);
    stops.push(() => document.removeEventListener("click", listener, true));
  }
  return () => {
    for (const stop of stops) stop();
  };
}

function onClick(event: MouseEvent, page: PagePlans): void {
  // Modified clicks (new tab, new window) do what links do.
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (!(event.target instanceof Element)) return;
  const link = event.target.closest<HTMLAnchorElement>("a[data-plan-start]");
  const planType = link?.dataset.planStart;
  if (link && isPlanType(planType)) {
    event.preventDefault();
    // A click is a PointerEvent where browsers say how it was made; elsewhere it counts as a mouse's.
    const pointerType = "pointerType" in event ? event.pointerType : "";
    start(link, planType, page.plans, pointerType === "touch" || pointerType === "pen");
    return;
  }
  // Only in an island whose React does not listen yet: once it does, React answers (this handler
  // runs before React's, so a press is never answered twice).
  const control = event.target.closest<HTMLElement>("[data-plan-toggle], [data-plan-option]");
  const island = control?.closest("[data-island]");
  if (control && island && !island.hasAttribute("data-react")) toggle(control, page);
}

/**
 * The switch (the other plan) or a word (its plan), pressed before React listens: as the island
 * would, the plan is chosen, and the promotion follows only when it already names a plan.
 */
function toggle(control: HTMLElement, page: PagePlans): void {
  const shown = readPlanType();
  const option = control.dataset.planOption;
  const next: PlanType = isPlanType(option) ? option : shown === "annual" ? "monthly" : "annual";
  if (next === shown) return;
  choosePlan(next, page.plans);
  const promotion = page.promotion;
  const select = promotion && document.getElementById(promotion.selectId);
  if (promotion && select instanceof HTMLSelectElement) followPlanPromotion(select, promotion.values, next);
}

/**
 * The link names the promotion it chooses and the select that holds it; its address is the form's
 * section. The plan and the promotion are chosen in the press itself, so the next frame shows
 * them. The page scrolls to the form and focus moves there just after that frame: done in the
 * press, that work (the style and layout a scroll needs, two focus changes, the form's island
 * waking at its focus) was painted with the press's answer, and late.
 */
function start(link: HTMLAnchorElement, planType: PlanType, plans: Plans, touch: boolean): void {
  if (readPlanType() !== planType) choosePlan(planType, plans);
  rememberStartChoice();
  const select = document.getElementById(link.dataset.promotionSelect ?? "");
  const promotion = link.dataset.promotion;
  if (select instanceof HTMLSelectElement && promotion !== undefined) choosePromotion(select, promotion);
  const section = document.getElementById(link.hash.slice(1));
  const focused = document.activeElement;
  afterNextPaint(() => {
    section?.scrollIntoView({ behavior: scrollBehavior(), block: "start" });
    // Unless the visitor has already put focus somewhere else.
    if (document.activeElement === focused) focusForm(section, touch);
  });
}

/** A frame's callbacks run before its paint; a task queued from one runs after it. */
function afterNextPaint(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work, 0));
}

/**
 * Focus follows the visitor to the form. After a mouse or a key, into its first field, ready for
 * typing. After a touch, onto the heading that names the section (its `aria-labelledby`), which
 * a screen reader announces: a field focused from a tap opens the on-screen keyboard over the form
 * while the page is still scrolling to it, and sets up its caret and text input inside the tap's
 * own frame. The first field still, when the heading cannot take focus.
 */
function focusForm(section: HTMLElement | null, touch: boolean): void {
  // preventScroll keeps the smooth scroll going instead of jumping to the focused element.
  const options = { preventScroll: true };
  if (touch) {
    const heading = document.getElementById(section?.getAttribute("aria-labelledby") ?? "");
    heading?.focus(options);
    if (heading !== null && document.activeElement === heading) return;
  }
  document.getElementById(FIRST_FIELD_ID)?.focus(options);
}

function rememberStartChoice(): void {
  try {
    window.sessionStorage.setItem(START_CHOSEN_KEY, "1");
  } catch {
    // Blocked storage: the choice holds for this page only.
  }
}

function startChosenThisVisit(): boolean {
  try {
    return window.sessionStorage.getItem(START_CHOSEN_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * The form's promotion agrees with the plan shown: one that names a plan follows the saved plan,
 * and one still on its first option shows the saved plan's when a Start button was used in this
 * visit. Set quietly: nothing was chosen here, only shown.
 */
function restorePromotion(promotion: NonNullable<PagePlans["promotion"]>): void {
  const select = document.getElementById(promotion.selectId);
  if (!(select instanceof HTMLSelectElement)) return;
  const plan = readPlanType();
  const namesAPlan = select.value === promotion.values.monthly || select.value === promotion.values.annual;
  if (namesAPlan || (select.value === promotion.none && startChosenThisVisit())) select.value = promotion.values[plan];
}
