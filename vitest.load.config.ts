import { defineConfig } from "vitest/config";

// Tests that load the machine on purpose (CPU burners): run alone, after the other files, so
// that their burners stretch no other file's test past vitest's RPC timeout.
export default defineConfig({
  test: {
    include: ["tests/load/**/*.test.ts"],
    setupFiles: ["tests/setup-yield.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
