/** The studio's theme choice, kept in localStorage; "system" follows prefers-color-scheme. */
export type ThemeChoice = "system" | "light" | "dark";

export const THEME_STORAGE_KEY = "switchyard-theme";

/** Whether a choice means dark, given the system's preference. */
export function isDarkChoice(choice: string | null, systemDark: boolean): boolean {
  return choice === "dark" || (choice !== "light" && systemDark);
}

/**
 * Runs in <head> before the first paint (no light flash): sets the `dark` class on <html> from the
 * saved choice and the system preference, and keeps following the system while the choice is "system".
 * Plain ES5 in a string: it runs before any bundle. isDarkChoice is the same rule, tested.
 */
export const THEME_SCRIPT = `(function(){try{var k=${JSON.stringify(THEME_STORAGE_KEY)},m=window.matchMedia("(prefers-color-scheme: dark)");var a=function(){var c=localStorage.getItem(k);document.documentElement.classList.toggle("dark",c==="dark"||(c!=="light"&&m.matches))};a();m.addEventListener("change",a);window.addEventListener("storage",function(e){if(e.key===k)a()})}catch(e){}})()`;

/** Applies a choice now (the toggle): saves it and sets the class. */
export function applyTheme(choice: ThemeChoice): void {
  if (choice === "system") localStorage.removeItem(THEME_STORAGE_KEY);
  else localStorage.setItem(THEME_STORAGE_KEY, choice);
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.classList.toggle("dark", isDarkChoice(choice, systemDark));
}

/** The saved choice ("system" when none). */
export function savedTheme(): ThemeChoice {
  const v = localStorage.getItem(THEME_STORAGE_KEY);
  return v === "light" || v === "dark" ? v : "system";
}
