import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import type { currentDateTimeDefinition } from "./definition";

export interface DateTimeReading {
  date: string;
  time: string;
  day: string;
  timezone: string;
  timezoneOffset: string;
  iso8601: string;
  unix_timestamp: number;
}

/** The fields Flowise's CurrentDateTime tool returns, for `now` in `timeZone`. */
export function readDateTime(now: Date, timeZone: string): DateTimeReading {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "long",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  // "GMT+05:30", "GMT-08:00", or plain "GMT" for UTC.
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : String(parts.timeZoneName).replace("GMT", "");
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
    day: parts.weekday,
    timezone: timeZone,
    timezoneOffset: offset,
    iso8601: now.toISOString(),
    unix_timestamp: Math.floor(now.getTime() / 1000),
  };
}

/** A tool with no input that answers the current date and time as JSON. */
export const buildCurrentDateTime: RuntimeOf<typeof currentDateTimeDefinition> = async ({ params, label, nodeId }) => {
  const timeZone = params.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    throw new AppError(
      "invalid_graph",
      `${requesterOf({ label, nodeId })}: "${timeZone}" is not a time zone (use an IANA name such as Europe/Berlin).`,
    );
  }
  return tool(async () => JSON.stringify(readDateTime(new Date(), timeZone)), {
    name: params.name,
    description: params.description,
    schema: z.object({}),
  });
};
