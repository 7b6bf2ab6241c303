import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { describeModelFailure, modelStatusFailure } from "./model-failure";

const caller = { kind: "Chat model", node: { id: "m1", label: "Support bot" } };
const node = { node: { id: "m1", label: "Support bot" }, kind: "Chat model" };
const errno = (code: string) => Object.assign(new Error(code), { code });

describe("describeModelFailure", () => {
  it("says an unreachable host in words, by errno", () => {
    for (const [code, words, reason] of [
      ["ECONNREFUSED", "connection refused at h:1", "connection_refused"],
      ["EHOSTUNREACH", "no route to h:1", "unreachable"],
      ["ECONNRESET", "the connection was reset by h:1", "unreachable"],
    ] as const) {
      const inner = new AppError("upstream_unavailable", "Model (node m1): Outbound request to h:1 failed", {
        cause: errno(code),
      });
      const err = describeModelFailure(inner, caller, "h:1", 60_000) as AppError;
      expect(err.code).toBe("upstream_unavailable");
      expect(err.message).toBe(`Chat model “Support bot” could not be reached: ${words}.`);
      expect(err.details).toEqual({ ...node, host: "h:1", reason });
    }
  });

  it("a DNS failure, a deadline and the guard's refusal", () => {
    const dns = describeModelFailure(
      new AppError("upstream_error", 'Outbound request failed: could not resolve host "x.invalid"', {
        cause: errno("ENOTFOUND"),
      }),
      caller,
      "x.invalid",
      1000,
    ) as AppError;
    expect([dns.code, dns.message]).toEqual([
      "upstream_unavailable",
      "Chat model “Support bot” could not be reached: the host name “x.invalid” could not be resolved (DNS).",
    ]);
    const late = describeModelFailure(new AppError("upstream_timeout", "x"), caller, "h:1", 1500) as AppError;
    expect([late.code, late.message]).toEqual([
      "upstream_timeout",
      "Chat model “Support bot” did not answer within 1.5 s (h:1).",
    ]);
    const refused = describeModelFailure(
      new AppError("forbidden", 'M (node m1): Outbound request refused: host "h" is not one of the allowed hosts'),
      caller,
      "h:1",
      1000,
    ) as AppError;
    expect(refused.code).toBe("forbidden");
    expect(refused.message).toBe(
      'Chat model “Support bot” may not call h:1: host "h" is not one of the allowed hosts.',
    );
    expect(refused.details).toMatchObject({ reason: "refused_by_guard" });
  });

  it("leaves anything that is not an AppError alone (a client that went away)", () => {
    const abort = new DOMException("aborted", "AbortError");
    expect(describeModelFailure(abort, caller, "h:1", 1000)).toBe(abort);
  });
});

describe("modelStatusFailure", () => {
  it("5xx, 503 and refused keys as sentences with the status; other statuses are not failures here", () => {
    expect(modelStatusFailure(caller, "h:1", 500)?.message).toBe(
      "Chat model “Support bot” failed: the provider at h:1 answered HTTP 500.",
    );
    expect(modelStatusFailure(caller, "h:1", 503)?.code).toBe("upstream_unavailable");
    const key = modelStatusFailure(caller, "h:1", 401, "Choose a credential.");
    expect(key?.message).toMatch(/refused the credentials \(HTTP 401\)\. Choose a credential\.$/);
    expect(key?.details).toEqual({ ...node, host: "h:1", reason: "credentials_refused", status: 401 });
    expect(modelStatusFailure(caller, "h:1", 404)).toBeUndefined();
  });
});
