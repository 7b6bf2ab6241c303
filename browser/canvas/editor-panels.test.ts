import { describe, expect, it } from "vitest";
import { NO_PANELS, PANELS_STORAGE_KEY, parsePanels, readPanels, setPanel, writePanels } from "./editor-panels";

function memoryStorage(initial?: string) {
  const map = new Map<string, string>(initial === undefined ? [] : [[PANELS_STORAGE_KEY, initial]]);
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe("editor panels", () => {
  it("a first visit opens no panel, the test chat included", () => {
    expect(readPanels(memoryStorage())).toEqual(NO_PANELS);
  });

  it("remembers what was open across a write and a read", () => {
    const storage = memoryStorage();
    writePanels(storage, setPanel(NO_PANELS, "chat", true));
    expect(readPanels(storage)).toEqual({ chat: true, tests: false, versions: false });
    writePanels(storage, setPanel(readPanels(storage), "versions", true));
    expect(readPanels(storage)).toEqual({ chat: true, tests: false, versions: true });
    writePanels(storage, setPanel(readPanels(storage), "chat", false));
    expect(readPanels(storage)).toEqual({ chat: false, tests: false, versions: true });
  });

  it("ignores a stored value it cannot read", () => {
    for (const raw of ["{not json", "null", "42", '"chat"', "[true]", '{"chat":"yes","versions":1}']) {
      expect(parsePanels(raw), raw).toEqual(NO_PANELS);
    }
    expect(parsePanels('{"versions":true,"other":true}')).toEqual({ chat: false, tests: false, versions: true });
  });

  it("the test chat and the Tests tab are never open together", () => {
    expect(setPanel({ chat: true, tests: false, versions: true }, "tests", true)).toEqual({
      chat: false,
      tests: true,
      versions: true,
    });
    expect(setPanel({ chat: false, tests: true, versions: false }, "chat", true)).toMatchObject({
      chat: true,
      tests: false,
    });
    expect(parsePanels('{"chat":true,"tests":true}')).toMatchObject({ chat: true, tests: false });
  });

  it("a storage that throws loses the memory, not the editor", () => {
    const broken = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(readPanels(broken)).toEqual(NO_PANELS);
    expect(() => writePanels(broken, { chat: true, tests: false, versions: false })).not.toThrow();
  });
});
