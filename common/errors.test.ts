import { describe, expect, it } from "vitest";
import { AppError, errorBody, STATUS_BY_CODE } from "./errors";

describe("AppError", () => {
  it("maps every code to a 4xx/5xx status and renders the one error shape", () => {
    for (const status of Object.values(STATUS_BY_CODE)) expect(status).toBeGreaterThanOrEqual(400);
    const err = new AppError("not_found", "Chatflow x not found");
    expect(err.status).toBe(404);
    expect(errorBody(err)).toEqual({ error: { code: "not_found", message: "Chatflow x not found" } });
  });
});
