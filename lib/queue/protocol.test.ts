import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { parseMessage, rebuildError, serializeError } from "./protocol";

describe("errors between worker and API", () => {
  it("an AppError keeps its code, message and details (so a 4xx on the worker is the same 4xx)", () => {
    const original = new AppError("validation_failed", "stopNodeId: nope", { details: [{ nodeId: "a" }] });
    const wire = JSON.parse(JSON.stringify(serializeError(original)));
    const rebuilt = rebuildError(wire);
    expect(rebuilt).toBeInstanceOf(AppError);
    expect({ code: rebuilt.code, status: rebuilt.status, message: rebuilt.message, details: rebuilt.details }).toEqual({
      code: "validation_failed",
      status: 400,
      message: "stopNodeId: nope",
      details: [{ nodeId: "a" }],
    });
  });

  it("anything else is internal, without its message (no leak), and an unknown code becomes internal", () => {
    expect(serializeError(new Error("secret path /etc/x"))).toEqual({
      code: "internal",
      message: "The job failed on its worker.",
    });
    expect(rebuildError({ code: "nope" as never, message: "m" }).code).toBe("internal");
  });

  it("parseMessage drops what is not a typed JSON object", () => {
    expect(parseMessage("not json")).toBeUndefined();
    expect(parseMessage('{"no":"type"}')).toBeUndefined();
    expect(parseMessage('{"type":"attempt","attempt":2}')).toEqual({ type: "attempt", attempt: 2 });
  });
});
