import { afterEach, describe, expect, it, vi } from "vitest";
import { choosePlan, onPlanChange, readPlanType, savePlanType } from "../src/shared/plan";
import type { Plans } from "../src/shared/island-types";
import { recordPlanChanges } from "./helpers";

// Amounts unlike the real ones: the store must take them from its caller, never from constants.
const plans: Plans = {
  monthly: { planType: "monthly", amount: 31, frequency: "monthly" },
  annual: { planType: "annual", amount: 310, frequency: "yearly" },
};

describe("plan store", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reads a saved annual plan and treats everything else as monthly", () => {
    expect(readPlanType()).toBe("monthly");
    localStorage.setItem("plan", "annual");
    expect(readPlanType()).toBe("annual");
    localStorage.setItem("plan", "monthly");
    expect(readPlanType()).toBe("monthly");
    localStorage.setItem("plan", "ANNUAL");
    expect(readPlanType()).toBe("monthly");
    localStorage.setItem("plan", '"annual"');
    expect(readPlanType()).toBe("monthly");
  });

  it("answers monthly and throws nothing when storage fails", () => {
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("denied", "SecurityError");
    });
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("full", "QuotaExceededError");
    });
    expect(readPlanType()).toBe("monthly");
    expect(() => savePlanType("annual")).not.toThrow();
  });

  it("answers monthly when localStorage itself is unavailable", () => {
    vi.spyOn(window, "localStorage", "get").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    expect(readPlanType()).toBe("monthly");
    expect(() => choosePlan("annual", plans)).not.toThrow();
  });

  it("keeps a choice storage refuses for the rest of the page view", () => {
    vi.spyOn(window, "localStorage", "get").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    choosePlan("annual", plans);
    expect(readPlanType()).toBe("annual");
    choosePlan("monthly", plans);
    expect(readPlanType()).toBe("monthly");
  });

  it("saves the choice and announces it with amount and frequency from the plans given", () => {
    const events = recordPlanChanges();
    choosePlan("annual", plans);
    choosePlan("monthly", plans);
    events.stop();
    expect(events.details).toEqual([
      { planType: "annual", amount: 310, frequency: "yearly" },
      { planType: "monthly", amount: 31, frequency: "monthly" },
    ]);
    expect(localStorage.getItem("plan")).toBe("monthly");
  });

  it("still announces when storage cannot save", () => {
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("full", "QuotaExceededError");
    });
    const events = recordPlanChanges();
    choosePlan("annual", plans);
    events.stop();
    expect(events.details).toHaveLength(1);
  });

  it("passes well-formed plan types to listeners, ignores others, and unsubscribes", () => {
    const seen: string[] = [];
    const stop = onPlanChange((type) => seen.push(type));
    window.dispatchEvent(new CustomEvent("plan-change", { detail: { planType: "annual", amount: 1, frequency: "yearly" } }));
    window.dispatchEvent(new CustomEvent("plan-change", { detail: { planType: "weekly" } }));
    window.dispatchEvent(new CustomEvent("plan-change"));
    stop();
    choosePlan("monthly", plans);
    expect(seen).toEqual(["annual"]);
  });
});
