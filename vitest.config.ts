import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // machine-loading tests run alone (vitest.load.config.ts)
    exclude: ["tests/load/**", "**/node_modules/**"],
    setupFiles: ["tests/setup-yield.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
