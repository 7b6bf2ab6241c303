import { describe, expect, it } from "vitest";
import { streamErrorMessage } from "./stream-error";

describe("streamErrorMessage", () => {
  it("shows the message the server sent, as an object or a plain string", () => {
    expect(
      streamErrorMessage(
        { code: "upstream_timeout", message: "Chat model (node model) at api.example.com did not answer in 60 s." },
        "x",
      ),
    ).toBe("Chat model (node model) at api.example.com did not answer in 60 s.");
    expect(streamErrorMessage("The model is down.", "x")).toBe("The model is down.");
  });

  it("falls back only when there is no text", () => {
    for (const data of [undefined, null, "", { code: "internal" }, { message: 3 }, 42])
      expect(streamErrorMessage(data, "fallback")).toBe("fallback");
  });
});
