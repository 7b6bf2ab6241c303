import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { isDarkChoice, THEME_SCRIPT, THEME_STORAGE_KEY } from "./theme";

/** Runs the head script against a fake browser: a saved choice, a system preference that can change. */
function runScript(saved: string | null, systemDark: boolean) {
  const classes = new Set<string>();
  const store = new Map<string, string>(saved === null ? [] : [[THEME_STORAGE_KEY, saved]]);
  const listeners: (() => void)[] = [];
  const media = { matches: systemDark, addEventListener: (_: string, fn: () => void) => listeners.push(fn) };
  const window = { matchMedia: () => media, addEventListener: () => {} };
  const context = {
    window,
    localStorage: { getItem: (k: string) => store.get(k) ?? null },
    document: {
      documentElement: {
        classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name)) },
      },
    },
  };
  vm.runInNewContext(THEME_SCRIPT, context);
  return {
    dark: () => classes.has("dark"),
    systemChanges(dark: boolean) {
      media.matches = dark;
      for (const fn of listeners) fn();
    },
  };
}

describe("theme", () => {
  it("isDarkChoice: an explicit choice wins, otherwise the system decides", () => {
    expect(isDarkChoice("dark", false)).toBe(true);
    expect(isDarkChoice("light", true)).toBe(false);
    expect(isDarkChoice(null, true)).toBe(true);
    expect(isDarkChoice("system", false)).toBe(false);
  });

  it("the head script applies the same rule before paint", () => {
    for (const saved of [null, "light", "dark", "system"]) {
      for (const system of [false, true]) {
        expect(runScript(saved, system).dark(), `${saved} with system dark=${system}`).toBe(
          isDarkChoice(saved, system),
        );
      }
    }
  });

  it("follows the system while no choice is saved, and not when one is", () => {
    const following = runScript(null, false);
    following.systemChanges(true);
    expect(following.dark()).toBe(true);
    const fixed = runScript("light", false);
    fixed.systemChanges(true);
    expect(fixed.dark()).toBe(false);
  });
});
