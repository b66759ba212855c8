import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
  // jsdom keeps storage across tests in one file; the plan store reads it on mount.
  if (typeof localStorage !== "undefined") localStorage.clear();
  // The plan store's copy for when storage is refused lives on the page, which outlives a test too.
  if (typeof document !== "undefined") delete document.documentElement.dataset.unsavedPlan;
  // The loader's mark of a visitor's engagement lives on the page too.
  if (typeof document !== "undefined") delete document.documentElement.dataset.engaged;
});
