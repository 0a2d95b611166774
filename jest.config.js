/** Three projects: unit (pure), integration (against the emulator over HTTP), e2e (the real Pulumi CLI). */
const common = {
  preset: "ts-jest",
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
};
module.exports = {
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/tests/unit/**/*.test.ts"] },
    { ...common, displayName: "integration", testMatch: ["<rootDir>/tests/integration/**/*.test.ts"] },
    { ...common, displayName: "e2e", testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"] },
  ],
};
