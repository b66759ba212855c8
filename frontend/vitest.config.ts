import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "jsdom",
    include: ["test/**/*.test.{ts,tsx}"],
    setupFiles: ["./test/setup.ts"],
    // Each test starts from clean globals, mocks and storage so no test can pass on another's leftovers.
    unstubGlobals: true,
    restoreMocks: true,
    // The machine has two cores; the island-server test also spawns Node and esbuild.
    maxWorkers: 2,
  },
});
