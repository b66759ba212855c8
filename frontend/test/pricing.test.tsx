import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import Contact from "../src/islands/contact";
import Pricing from "../src/islands/pricing";
import { choosePlan } from "../src/shared/plan";
import { contactProps, pricingProps } from "./fixtures/props";
import { pageWithPlanScript, pressStart, recordPlanChanges, stubReducedMotion } from "./helpers";

/** The parts of the page the Start buttons reach: the contact section, its select and first field. */
function PageAround() {
  return (
    <section id="contact">
      <input id="firstName" />
      <select id="promotion" defaultValue="None">
        <option value="None">Just Curious</option>
        <option value="Monthly plan">Monthly plan</option>
        <option value="Yearly plan (2 months free)">Yearly plan (2 months free)</option>
      </select>
    </section>
  );
}

function setup() {
  const user = userEvent.setup();
  // The Start links are handled by the loader's plan script, as in the built page.
  pageWithPlanScript({ pricing: pricingProps });
  render(
    <>
      <Pricing {...pricingProps} />
      <PageAround />
    </>,
  );
  const toggle = screen.getByRole("switch");
  const select = document.getElementById("promotion") as HTMLSelectElement;
  return { user, toggle, select };
}

/** The card of the plan the island shows as current (the stylesheet highlights it from this attribute). */
function selectedCard(): HTMLElement {
  const current = document.querySelector<HTMLElement>(".pricing")?.dataset.currentPlan;
  const cards = document.querySelectorAll<HTMLElement>(`.plan-card[data-plan="${current}"]`);
  expect(cards).toHaveLength(1);
  return cards[0] as HTMLElement;
}

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});

describe("pricing island", () => {
  it("shows both plans from props, monthly selected, with a labelled switch", () => {
    setup();
    const cards = screen.getAllByRole("article");
    expect(cards).toHaveLength(2);
    expect(within(cards[0] as HTMLElement).getByRole("heading", { name: "Monthly" })).toBeInTheDocument();
    expect(cards[0]).toHaveTextContent("$25");
    expect(cards[0]).toHaveTextContent("per month");
    expect(cards[1]).toHaveTextContent("$250");
    expect(cards[1]).toHaveTextContent("Save $50");
    expect(cards[1]).toHaveTextContent("Pay for 10 months, get 2 free");
    expect(cards[1]).toHaveTextContent("Renews annually.");
    expect(selectedCard()).toHaveAttribute("data-plan", "monthly");
    const toggle = screen.getByRole("switch", { name: "Billing Annual" });
    expect(toggle).toHaveAttribute("aria-checked", "false");
  });

  it("restores a saved annual plan after mounting", () => {
    localStorage.setItem("plan", "annual");
    const { toggle } = setup();
    expect(toggle).toHaveAttribute("aria-checked", "true");
    expect(selectedCard()).toHaveAttribute("data-plan", "annual");
    // Both cards stay in place; only the highlight moved.
    expect(screen.getAllByRole("article")).toHaveLength(2);
  });

  it("toggles by the switch, saves each change and announces it", async () => {
    const { user, toggle } = setup();
    const events = recordPlanChanges();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-checked", "true");
    expect(localStorage.getItem("plan")).toBe("annual");
    expect(selectedCard()).toHaveAttribute("data-plan", "annual");
    await user.click(toggle);
    expect(localStorage.getItem("plan")).toBe("monthly");
    events.stop();
    expect(events.details).toEqual([
      { planType: "annual", amount: 250, frequency: "yearly" },
      { planType: "monthly", amount: 25, frequency: "monthly" },
    ]);
  });

  it("is operable from the keyboard", async () => {
    const { user, toggle } = setup();
    // The switch is the first stop in the island; the words beside it are not extra tab stops.
    await user.tab();
    expect(toggle).toHaveFocus();
    await user.keyboard(" ");
    expect(toggle).toHaveAttribute("aria-checked", "true");
    await user.keyboard("{Enter}");
    expect(toggle).toHaveAttribute("aria-checked", "false");
  });

  it("chooses a plan by clicking its label, and a click on the current one changes nothing", async () => {
    const { user, toggle } = setup();
    const events = recordPlanChanges();
    await user.click(screen.getByText("Monthly", { selector: ".pricing__option" }));
    expect(events.details).toEqual([]);
    await user.click(screen.getByText("Annual", { selector: ".pricing__option" }));
    expect(toggle).toHaveAttribute("aria-checked", "true");
    await user.click(screen.getByText("Monthly", { selector: ".pricing__option" }));
    expect(toggle).toHaveAttribute("aria-checked", "false");
    events.stop();
    expect(events.details.map((d) => d.planType)).toEqual(["annual", "monthly"]);
  });

  it("acts on the stored plan when its own state lags behind: one press, one change, the other plan", async () => {
    const { user, toggle } = setup();
    // Chosen between the island's first render and its subscription: saved, heard by no one here.
    localStorage.setItem("plan", "annual");
    const events = recordPlanChanges();
    await user.click(screen.getByText("Annual", { selector: ".pricing__option" }));
    expect(events.details).toEqual([]);
    await user.click(toggle);
    events.stop();
    expect(events.details.map((d) => d.planType)).toEqual(["monthly"]);
    expect(toggle).toHaveAttribute("aria-checked", "false");
  });

  it("follows a plan chosen elsewhere on the page", () => {
    const { toggle } = setup();
    act(() => choosePlan("annual", contactProps.plans));
    expect(toggle).toHaveAttribute("aria-checked", "true");
  });

  it("renders the Start buttons as links to the contact section", () => {
    setup();
    expect(screen.getByRole("link", { name: "Start Monthly" })).toHaveAttribute("href", "#contact");
    expect(screen.getByRole("link", { name: "Start Annual" })).toHaveAttribute("href", "#contact");
  });

  it("Start Annual picks the promotion, fires a bubbling change, picks the plan, scrolls smoothly and focuses the first field", async () => {
    const { user, toggle, select } = setup();
    const changes: string[] = [];
    document.addEventListener("change", (event) => {
      if (event.target === select) changes.push(select.value);
    });
    const events = recordPlanChanges();
    await pressStart(() => user.click(screen.getByRole("link", { name: "Start Annual" })));
    events.stop();
    expect(select.value).toBe("Yearly plan (2 months free)");
    expect(changes).toEqual(["Yearly plan (2 months free)"]);
    expect(toggle).toHaveAttribute("aria-checked", "true");
    expect(events.details).toEqual([{ planType: "annual", amount: 250, frequency: "yearly" }]);
    expect(localStorage.getItem("plan")).toBe("annual");
    const contact = document.getElementById("contact") as HTMLElement;
    expect(contact.scrollIntoView).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
    expect(document.activeElement).toBe(document.getElementById("firstName"));
    expect(window.location.hash).toBe("");
  });

  it("Start Monthly picks the monthly promotion even when the plan is already monthly", async () => {
    const { user, select } = setup();
    const changes: string[] = [];
    select.addEventListener("change", () => changes.push(select.value));
    await pressStart(() => user.click(screen.getByRole("link", { name: "Start Monthly" })));
    expect(select.value).toBe("Monthly plan");
    expect(changes).toEqual(["Monthly plan"]);
  });

  it("scrolls without animation when the visitor prefers reduced motion", async () => {
    stubReducedMotion(true);
    const { user } = setup();
    await pressStart(() => user.click(screen.getByRole("link", { name: "Start Monthly" })));
    expect(Element.prototype.scrollIntoView).toHaveBeenCalledWith({ behavior: "auto", block: "start" });
  });

  it("leaves modified clicks (open in new tab) to the browser", () => {
    const { select } = setup();
    const link = screen.getByRole("link", { name: "Start Annual" });
    const notPrevented = fireEvent.click(link, { ctrlKey: true });
    expect(notPrevented).toBe(true);
    expect(select.value).toBe("None");
  });

  describe("agreement with the promotion select", () => {
    it("keeps Just Curious when the toggle changes", async () => {
      const { user, toggle, select } = setup();
      const changes = vi.fn();
      select.addEventListener("change", changes);
      await user.click(toggle);
      expect(select.value).toBe("None");
      expect(changes).not.toHaveBeenCalled();
    });

    it("moves a chosen plan promotion along with the toggle", async () => {
      const { user, toggle, select } = setup();
      select.value = "Monthly plan";
      const changes: string[] = [];
      select.addEventListener("change", () => changes.push(select.value));
      await user.click(toggle);
      expect(select.value).toBe("Yearly plan (2 months free)");
      await user.click(toggle);
      expect(select.value).toBe("Monthly plan");
      expect(changes).toEqual(["Yearly plan (2 months free)", "Monthly plan"]);
    });
  });
});

describe("pricing and contact islands together", () => {
  function hiddenPlanFields() {
    const value = (name: string) => (document.querySelector(`input[name="${name}"]`) as HTMLInputElement).value;
    return { plan_type: value("plan_type"), plan_amount: value("plan_amount"), billing_frequency: value("billing_frequency") };
  }

  /** The invariant: a plan promotion always matches the plan fields sent with it. */
  function expectAgreement(select: HTMLSelectElement) {
    const fields = hiddenPlanFields();
    if (select.value === "Monthly plan") expect(fields.plan_type).toBe("monthly");
    if (select.value === "Yearly plan (2 months free)") expect(fields.plan_type).toBe("annual");
    const toggle = screen.getByRole("switch");
    expect(toggle.getAttribute("aria-checked")).toBe(fields.plan_type === "annual" ? "true" : "false");
  }

  it("keeps toggle, promotion and plan fields in agreement whatever the visitor does", async () => {
    const user = userEvent.setup();
    pageWithPlanScript({ pricing: pricingProps, contact: contactProps });
    render(
      <>
        <Pricing {...pricingProps} />
        <section id="contact">
          <Contact {...contactProps} />
        </section>
      </>,
    );
    const select = screen.getByLabelText("Plan") as HTMLSelectElement;
    const toggle = screen.getByRole("switch");

    await user.click(toggle);
    expect(select.value).toBe("None");
    expect(hiddenPlanFields()).toEqual({ plan_type: "annual", plan_amount: "250", billing_frequency: "yearly" });
    expectAgreement(select);

    await user.selectOptions(select, "Monthly plan");
    expect(toggle).toHaveAttribute("aria-checked", "false");
    expect(hiddenPlanFields()).toEqual({ plan_type: "monthly", plan_amount: "25", billing_frequency: "monthly" });
    expectAgreement(select);

    await user.click(toggle);
    expect(select.value).toBe("Yearly plan (2 months free)");
    expectAgreement(select);

    await user.selectOptions(select, "None");
    expect(toggle).toHaveAttribute("aria-checked", "true");
    expectAgreement(select);

    await pressStart(() => user.click(screen.getByRole("link", { name: "Start Monthly" })));
    expect(select.value).toBe("Monthly plan");
    expect(hiddenPlanFields().plan_type).toBe("monthly");
    expect(document.activeElement).toBe(screen.getByLabelText("First name"));
    expectAgreement(select);
  });
});
