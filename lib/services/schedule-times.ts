import { CronExpressionParser } from "cron-parser";
import { AppError } from "@/common/errors";

/** 400 naming the time zone unless the runtime knows it (IANA names: Europe/Paris, UTC…). */
function checkTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
  } catch {
    throw new AppError(
      "validation_failed",
      `timezone: "${timezone}" is not an IANA time zone (e.g. Europe/Paris, UTC).`,
      {
        details: [{ field: "body.timezone", message: "unknown time zone" }],
      },
    );
  }
}

/** The next time a cron expression fires in a time zone after `from`; 400 naming the expression when it does not parse. */
export function nextRunOf(cron: string, timezone: string, from = new Date()): Date {
  checkTimezone(timezone);
  try {
    return CronExpressionParser.parse(cron, { tz: timezone, currentDate: from, strict: false }).next().toDate();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new AppError("validation_failed", `cron: "${cron}" is not a cron expression this server reads (${why}).`, {
      details: [{ field: "body.cron", message: "does not parse" }],
    });
  }
}
