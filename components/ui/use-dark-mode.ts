"use client";

import { useSyncExternalStore } from "react";

/** Whether the studio is dark right now: the `dark` class on <html> (set by the theme script and the toggle). */
export function useDarkMode(): boolean {
  return useSyncExternalStore(subscribe, isDark, () => false);
}

const isDark = () => document.documentElement.classList.contains("dark");

function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}
