/**
 * When a publish setting reaches visitors, said where the setting is made: at once (access and
 * chatbot settings, not versioned) or when a version holding it is published (run settings:
 * override allow-list, speech-to-text, the canvas). See lib/services/chatflows.ts savesVersion.
 */
export function AppliesTag({ when }: { when: "now" | "publish" }) {
  const look =
    when === "now" ? "bg-emerald-50 text-emerald-800 ring-emerald-200" : "bg-amber-50 text-amber-900 ring-amber-200";
  return (
    <span
      className={`ml-2 inline-block whitespace-nowrap rounded-full px-1.5 py-px align-middle text-[11px] font-normal ring-1 ${look}`}
      data-testid={`applies-${when}`}
    >
      {when === "now" ? "Applies at once" : "Applies when you publish"}
    </span>
  );
}
