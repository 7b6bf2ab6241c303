import { describe, expect, it } from "vitest";
import { diffVersions, type DiffableVersion } from "./chatflow-diff";

const version = (n: number, over: Partial<DiffableVersion>): DiffableVersion => ({
  version: n,
  graph: { nodes: [], edges: [] },
  overrideAllowList: [],
  speechToText: {},
  ...over,
});
const noNames = async () => new Map<string, string>();

describe("diffVersions settings", () => {
  it("lists each changed speech-to-text field alone, not the untouched ones", async () => {
    const diff = await diffVersions(
      version(1, { speechToText: { enabled: false, model: "whisper-1", baseUrl: "http://stt.local/v1" } }),
      version(2, { speechToText: { enabled: true, model: "whisper-1", baseUrl: "http://stt.local/v1" } }),
      noNames,
    );
    expect(diff.settingsChanged).toEqual([{ setting: "speechToText.enabled", old: false, new: true }]);
  });

  it("passes a long override allow-list on whole, so each added or removed param can be named", async () => {
    const long = Array.from({ length: 60 }, (_, i) => `parameterNumber${i}`);
    const diff = await diffVersions(
      version(1, { overrideAllowList: long }),
      version(2, { overrideAllowList: [...long, "temperature"] }),
      noNames,
    );
    expect(JSON.stringify(long).length).toBeGreaterThan(500);
    expect(diff.settingsChanged).toEqual([{ setting: "overrideAllowList", old: long, new: [...long, "temperature"] }]);
  });
});
