import { describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { currentDateTime } from ".";
import { readDateTime } from "./runtime";

const build = (inputs: Record<string, unknown>) =>
  currentDateTime.runtime({
    nodeId: "t",
    label: "Clock",
    params: paramsSchemaFor(getDefinition("currentDateTime")!).parse(inputs),
    inputs: {},
    ctx: testContext(),
  }) as Promise<{ name: string; invoke(input: unknown): Promise<string> }>;

describe("current date and time tool", () => {
  it("reads a moment in the given time zone, with its offset", () => {
    const moment = new Date("2026-03-01T23:30:15.000Z");
    expect(readDateTime(moment, "UTC")).toEqual({
      date: "2026-03-01",
      time: "23:30:15",
      day: "Sunday",
      timezone: "UTC",
      timezoneOffset: "+00:00",
      iso8601: "2026-03-01T23:30:15.000Z",
      unix_timestamp: 1772407815,
    });
    expect(readDateTime(moment, "Asia/Kolkata")).toMatchObject({
      date: "2026-03-02",
      time: "05:00:15",
      day: "Monday",
      timezoneOffset: "+05:30",
    });
    expect(readDateTime(moment, "America/Los_Angeles")).toMatchObject({ date: "2026-03-01", timezoneOffset: "-08:00" });
  });

  it("builds a tool without input that answers the current moment as JSON", async () => {
    const clock = await build({ timezone: "Europe/Berlin" });
    expect(clock.name).toBe("current_date_time");
    const before = Math.floor(Date.now() / 1000);
    const reading = JSON.parse(await clock.invoke({}));
    const after = Math.ceil(Date.now() / 1000);
    expect(reading.timezone).toBe("Europe/Berlin");
    expect(reading.unix_timestamp).toBeGreaterThanOrEqual(before);
    expect(reading.unix_timestamp).toBeLessThanOrEqual(after);
    expect(reading).toEqual(readDateTime(new Date(reading.iso8601), "Europe/Berlin"));
  });

  it("refuses an unknown time zone, naming the node", async () => {
    await expect(build({ timezone: "Mars/Olympus" })).rejects.toMatchObject({
      code: "invalid_graph",
      message: expect.stringContaining('Clock (node t): "Mars/Olympus" is not a time zone'),
    });
  });
});
