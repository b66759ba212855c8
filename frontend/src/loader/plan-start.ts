// Start Monthly and Start Annual, from the first paint on. They are links to the form, so they
// jump there without JavaScript; this handler, inlined with the loader, is their only click
// handler, so they do their whole job before the pricing island has hydrated, while its chunks
// are still downloading, and if React never arrives: the plan is saved and announced once, the
// promotion select is set (one bubbling change), and focus moves to the form.
//
// It also keeps the page's own markup of the plan (the toggle, the form's hidden fields) in step
// with the saved plan before and without hydration, and brings back a Start choice made earlier
// in this visit when the form is reached again on a later page.
import { findProps } from "../page-props";
import { choosePlan, choosePromotion, isPlanType, onPlanChange, readPlanType, showPlan } from "../plan";
import { scrollBehavior } from "../motion";
import type { ContactProps, PlanType, Plans, PricingProps } from "../props";

/** id of the contact form's first field, fixed by the form's field names. */
const FIRST_FIELD_ID = "firstName";
/** sessionStorage key: a Start button was used in this visit, so the form shows that plan's promotion. */
export const START_CHOSEN_KEY = "plan-start";

/** Starts the handler and the plan's markup; returns what stops both (for tests). */
export function initPlanStarts(): () => void {
  const pricing = findProps<PricingProps>("pricing");
  const contact = findProps<ContactProps>("contact");
  const plans: Plans | undefined = pricing?.plans ?? contact?.plans;
  const stops: Array<() => void> = [];
  if (plans) {
    // The server rendered the default plan; a saved one shows before the islands hydrate.
    showPlan(readPlanType(), plans);
    stops.push(onPlanChange((planType) => showPlan(planType, plans)));
  }
  if (contact) restoreStartChoice(contact);
  if (pricing) {
    const listener = (event: MouseEvent): void => onClick(event, pricing);
    document.addEventListener("click", listener);
    stops.push(() => document.removeEventListener("click", listener));
  }
  return () => {
    for (const stop of stops) stop();
  };
}

function onClick(event: MouseEvent, props: PricingProps): void {
  // Modified clicks (new tab, new window) do what links do.
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest<HTMLElement>("a[data-plan-start]") : null;
  const planType = link?.dataset.planStart;
  if (!isPlanType(planType)) return;
  event.preventDefault();
  start(planType, props);
}

function start(planType: PlanType, props: PricingProps): void {
  if (readPlanType() !== planType) choosePlan(planType, props.plans);
  rememberStartChoice();
  const select = document.getElementById(props.promotionSelectId);
  if (select instanceof HTMLSelectElement) choosePromotion(select, props.plans[planType].promotion);
  document.getElementById(props.contactId)?.scrollIntoView({ behavior: scrollBehavior(), block: "start" });
  // preventScroll keeps the smooth scroll going instead of jumping to the field.
  document.getElementById(FIRST_FIELD_ID)?.focus({ preventScroll: true });
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

/** A form still on its default promotion shows the saved plan's, when a Start button was used in this visit. */
function restoreStartChoice(props: ContactProps): void {
  if (!startChosenThisVisit()) return;
  const select = document.getElementById(props.promotionSelectId);
  if (!(select instanceof HTMLSelectElement) || select.value !== props.promotion.options[0]?.value) return;
  select.value = props.promotion[readPlanType()];
}
