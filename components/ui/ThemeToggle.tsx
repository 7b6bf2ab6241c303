"use client";

import { useEffect, useState } from "react";
import { applyTheme, savedTheme, type ThemeChoice } from "@/browser/client/theme";

/** System / Light / Dark, saved in localStorage (the head script in app/layout.tsx applies it before paint). */
export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>("system");
  useEffect(() => setChoice(savedTheme()), []);
  return (
    <select
      aria-label="Theme"
      className="rounded-md border border-slate-300 bg-white px-1.5 py-1 text-sm text-slate-700"
      value={choice}
      onChange={(e) => {
        const next = e.target.value as ThemeChoice;
        setChoice(next);
        applyTheme(next);
      }}
    >
      <option value="system">System</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select>
  );
}
