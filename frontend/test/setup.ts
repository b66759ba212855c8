import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
  // jsdom keeps storage across tests in one file; the plan store reads it on mount.
  if (typeof localStorage !== "undefined") localStorage.clear();
});
