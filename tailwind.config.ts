// Tailwind 4 reads its theme from CSS (app/globals.css, `@theme`); this file keeps the content
// globs and the brand palette in one typed place, loaded there with `@config`.
import type { Config } from "tailwindcss";

const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: { 50: "#eef6ff", 100: "#d9eaff", 500: "#2563eb", 600: "#1d4ed8", 700: "#1e40af" },
      },
    },
  },
};

export default config;
