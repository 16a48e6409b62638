import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules", "dist", ".wrangler", "drizzle", "public"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.worker } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    // A function that needs more than 80 lines is doing two things (CONTRIBUTING.md).
    files: ["src/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 80 }] },
  },
  {
    // The back-office page runs in the browser (app/, docs/app.md), and keeps functions small too.
    files: ["app/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    rules: { "max-lines-per-function": ["error", { max: 80 }] },
  },
  {
    // Tests read arbitrary JSON bodies.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
