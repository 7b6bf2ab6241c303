import { describe, expect, it } from "vitest";
import { settingRows, settingValueText } from "./settings-change";

describe("settingRows", () => {
  it("lists only the allow-list params added or removed, not the whole list", () => {
    const rows = settingRows([
      { setting: "overrideAllowList", old: ["temperature", "maxTokens"], new: ["temperature", "topP"] },
    ]);
    expect(rows).toEqual([
      { key: "overrideAllowList.maxTokens", label: "Callers may override “maxTokens”", old: "yes", new: "no" },
      { key: "overrideAllowList.topP", label: "Callers may override “topP”", old: "no", new: "yes" },
    ]);
    expect(JSON.stringify(rows)).not.toContain("temperature");
  });

  it("names each speech-to-text field that changed, unset as off or (not set)", () => {
    const rows = settingRows([
      { setting: "speechToText.enabled", old: null, new: true },
      { setting: "speechToText.model", old: "whisper-1", new: "whisper-large" },
      { setting: "speechToText.credentialId", old: null, new: { credential: "Team OpenAI" } },
      { setting: "speechToText.baseUrl", old: "http://stt.local/v1", new: null },
    ]);
    expect(rows.map((r) => `${r.label}: ${r.old} → ${r.new}`)).toEqual([
      "Speech-to-text: off → on",
      "Speech-to-text model: whisper-1 → whisper-large",
      "Speech-to-text credential: (not set) → credential “Team OpenAI”",
      "Speech-to-text server: http://stt.local/v1 → (not set)",
    ]);
  });

  it("keeps a setting it does not know, by its key", () => {
    expect(settingRows([{ setting: "somethingNew", old: 1, new: { a: 2 } }])).toEqual([
      { key: "somethingNew", label: "somethingNew", old: "1", new: '{"a":2}' },
    ]);
    expect(settingValueText("")).toBe("(not set)");
  });
});
