import { describe, expect, it } from "vitest";
import { MAX_TRACED_REQUESTS, noteRequest, shownUrl, traceRequests } from "./request-trace";

describe("shownUrl", () => {
  it("drops user, password and fragment, and hides secret-named query values", () => {
    expect(shownUrl("https://ada:pw@api.example.com/v1/items?q=laptop&api_key=s3cr3t&X-Amz-Signature=abc#top")).toBe(
      "https://api.example.com/v1/items?q=laptop&api_key=***&X-Amz-Signature=***",
    );
    expect(shownUrl("https://api.example.com/p?access_token=t&countryCode=DE&limit=5")).toBe(
      "https://api.example.com/p?access_token=***&countryCode=DE&limit=5",
    );
    expect(shownUrl("not a url")).toBe("(unreadable URL)");
  });
});

describe("traceRequests", () => {
  it("keeps what its own calls note, in order, at most the cap; nothing outside a trace", async () => {
    noteRequest({ method: "GET", url: "https://outside.example/", status: 200, ms: 1 });
    const outer = await traceRequests(async () => {
      noteRequest({ method: "GET", url: "https://a.example/", status: 200, ms: 1 });
      const inner = await traceRequests(async () => {
        await Promise.resolve();
        noteRequest({ method: "POST", url: "https://b.example/", status: 201, ms: 2 });
        return "inner";
      });
      expect(inner).toEqual({
        value: "inner",
        requests: [{ method: "POST", url: "https://b.example/", status: 201, ms: 2 }],
      });
      for (let i = 0; i < MAX_TRACED_REQUESTS + 5; i++)
        noteRequest({ method: "GET", url: `https://c.example/${i}`, ms: 0 });
      return 42;
    });
    expect(outer.value).toBe(42);
    expect(outer.requests).toHaveLength(MAX_TRACED_REQUESTS);
    expect(outer.requests[0].url).toBe("https://a.example/");
    expect(outer.requests.map((r) => r.url)).not.toContain("https://b.example/");
  });
});
