// The loader's plan script on the islands' real server HTML, with no React in the page: the Start
// buttons do their whole job before hydration (or without it), and the page shows the saved plan.
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { START_CHOSEN_KEY } from "../src/loader/plan-start";
import { render as renderIsland } from "../src/entries/server";
import { contactProps, pricingProps } from "./fixtures/props";
import { pageWithPlanScript, pressStart, recordPlanChanges, stubReducedMotion } from "./helpers";

/** The home page's two plan islands as the build writes them: server HTML, not hydrated. */
async function serverPage(): Promise<void> {
  document.body.innerHTML = `
    <div data-island="pricing">${(await renderIsland("pricing", pricingProps)).html}</div>
    <section id="contact" aria-labelledby="contact-heading"><div data-island="contact">${(await renderIsland("contact", contactProps)).html}</div></section>`;
}

const select = () => document.getElementById("promotion") as HTMLSelectElement;
const planFields = () =>
  ["plan_type", "plan_amount", "billing_frequency"].map((name) => (document.querySelector(`input[name="${name}"]`) as HTMLInputElement).value);
const shownPlan = () => ({
  current: document.querySelector<HTMLElement>("[data-current-plan]")?.dataset.currentPlan,
  checked: document.querySelector("[role=switch]")?.getAttribute("aria-checked"),
});
const link = (name: string) => Array.from(document.querySelectorAll("a")).find((a) => a.textContent === name) as HTMLAnchorElement;

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
  stubReducedMotion(false);
});

afterEach(() => {
  document.body.innerHTML = "";
  sessionStorage.clear();
});

describe("the loader's plan script, before any island hydrates", () => {
  it("Start Annual saves and announces the plan once, sets the promotion with one bubbling change, and moves focus to the form", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    const changes: Array<{ value: string; bubbles: boolean }> = [];
    document.addEventListener("change", (event) => changes.push({ value: select().value, bubbles: event.bubbles }));
    const events = recordPlanChanges();

    await pressStart(() => {
      link("Start Annual").click();
      // The plan and the promotion in the press itself; the scroll and the focus only after the
      // frame that shows them.
      expect(events.details).toHaveLength(1);
      expect(shownPlan()).toEqual({ current: "annual", checked: "true" });
      expect(changes).toHaveLength(1);
      expect(document.getElementById("contact")?.scrollIntoView).not.toHaveBeenCalled();
      expect(document.activeElement).not.toBe(document.getElementById("firstName"));
    });
    events.stop();

    expect(events.details).toEqual([{ planType: "annual", amount: 250, frequency: "yearly" }]);
    expect(changes).toEqual([{ value: "Yearly plan (2 months free)", bubbles: true }]);
    expect(localStorage.getItem("plan")).toBe("annual");
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
    expect(shownPlan()).toEqual({ current: "annual", checked: "true" });
    expect(document.activeElement).toBe(document.getElementById("firstName"));
    expect(document.getElementById("contact")?.scrollIntoView).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
    expect(window.location.hash).toBe("");
  });

  it("after a touch, focus goes to the form's heading instead of a field; without a focusable heading, to the first field", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    const tap = (name: string): boolean =>
      link(name).dispatchEvent(new PointerEvent("click", { pointerType: "touch", button: 0, bubbles: true, cancelable: true }));

    await pressStart(() => expect(tap("Start Annual")).toBe(false));
    expect(select().value).toBe("Yearly plan (2 months free)");
    expect(document.activeElement).toBe(document.getElementById("contact-heading"));

    document.getElementById("contact-heading")?.blur();
    document.getElementById("contact-heading")?.removeAttribute("tabindex");
    await pressStart(() => tap("Start Monthly"));
    expect(select().value).toBe("Monthly plan");
    expect(document.activeElement).toBe(document.getElementById("firstName"));
  });

  it("leaves focus where the visitor put it before the form was reached", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    const email = document.getElementById("email") as HTMLInputElement;
    await pressStart(() => {
      link("Start Annual").click();
      email.focus();
    });
    expect(select().value).toBe("Yearly plan (2 months free)");
    expect(document.activeElement).toBe(email);
  });

  it("Start Monthly on the plan already chosen sets the promotion and announces no plan change", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    const events = recordPlanChanges();
    await pressStart(() => userEvent.click(link("Start Monthly")));
    events.stop();
    expect(select().value).toBe("Monthly plan");
    expect(events.details).toEqual([]);
    expect(planFields()).toEqual(["monthly", "25", "monthly"]);
  });

  it("answers the switch and the words before React listens: one plan change each, the promotion following only a plan", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    const events = recordPlanChanges();
    const control = (selector: string) => document.querySelector(selector) as HTMLElement;
    await userEvent.click(control("[data-plan-toggle]"));
    expect(shownPlan()).toEqual({ current: "annual", checked: "true" });
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
    // "None" stays "None", as with the island's own toggle.
    expect(select().value).toBe("None");
    // The word of the plan already shown changes nothing.
    await userEvent.click(control('[data-plan-option="annual"]'));
    select().value = "Yearly plan (2 months free)";
    await userEvent.click(control('[data-plan-option="monthly"]'));
    events.stop();
    expect(events.details.map((detail) => detail.planType)).toEqual(["annual", "monthly"]);
    expect(shownPlan()).toEqual({ current: "monthly", checked: "false" });
    expect(select().value).toBe("Monthly plan");
    expect(localStorage.getItem("plan")).toBe("monthly");
  });

  it("leaves the switch to React once React listens in its island", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    document.querySelector("[data-island=pricing]")?.setAttribute("data-react", "");
    const events = recordPlanChanges();
    await userEvent.click(document.querySelector("[data-plan-toggle]") as HTMLElement);
    events.stop();
    expect(events.details).toEqual([]);
    expect(shownPlan()).toEqual({ current: "monthly", checked: "false" });
  });

  it("leaves a modified click (open in a new tab) to the browser", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, ctrlKey: true });
    expect(link("Start Annual").dispatchEvent(click)).toBe(true);
    expect(select().value).toBe("None");
    expect(localStorage.getItem("plan")).toBeNull();
  });

  it("shows a saved annual plan in the server HTML at once", async () => {
    await serverPage();
    localStorage.setItem("plan", "annual");
    expect(shownPlan()).toEqual({ current: "monthly", checked: "false" });
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    expect(shownPlan()).toEqual({ current: "annual", checked: "true" });
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
    // No Start button was used in this visit: the promotion stays the visitor's to choose.
    expect(select().value).toBe("None");
  });

  it("brings back a Start choice made earlier in the visit, on the plan saved now", async () => {
    await serverPage();
    sessionStorage.setItem(START_CHOSEN_KEY, "1");
    localStorage.setItem("plan", "annual");
    pageWithPlanScript({ contact: contactProps });
    expect(select().value).toBe("Yearly plan (2 months free)");
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
  });

  it("keeps the page's plan markup in step with every announced plan", async () => {
    await serverPage();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    const { choosePlan } = await import("../src/shared/plan");
    choosePlan("annual", pricingProps.plans);
    expect(shownPlan()).toEqual({ current: "annual", checked: "true" });
    choosePlan("monthly", pricingProps.plans);
    expect(shownPlan()).toEqual({ current: "monthly", checked: "false" });
    expect(planFields()).toEqual(["monthly", "25", "monthly"]);
  });

  it("chooses a plan the address names, as the toggle would, and ignores one it does not know", async () => {
    for (const [search, saved, promotion] of [
      ["?plan=annual", "annual", "Yearly plan (2 months free)"],
      ["?plan=weekly", null, "None"],
    ] as const) {
      window.history.replaceState(null, "", `/start${search}`);
      await serverPage();
      const events = recordPlanChanges();
      pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
      events.stop();
      expect(localStorage.getItem("plan"), search).toBe(saved);
      expect(events.details, search).toEqual(saved === "annual" ? [{ planType: "annual", amount: 250, frequency: "yearly" }] : []);
      expect(select().value, search).toBe(promotion);
      expect(shownPlan().current, search).toBe(saved ?? "monthly");
      localStorage.clear();
    }
    window.history.replaceState(null, "", "/");
  });

  it("shows the plan a placement chooses, and its promotion, until the visitor saves another", async () => {
    document.body.innerHTML = `<div data-island="contact">${(await renderIsland("contact", { ...contactProps, plan: "annual" })).html}</div>`;
    expect(select().value).toBe("Yearly plan (2 months free)");
    localStorage.setItem("plan", "monthly");
    pageWithPlanScript({ contact: { ...contactProps, plan: "annual" } });
    expect(planFields()).toEqual(["monthly", "25", "monthly"]);
    expect(select().value).toBe("Monthly plan");
  });
});
