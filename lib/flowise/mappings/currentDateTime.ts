import { defineMapping } from "../rules";

/** Flowise "CurrentDateTime" → our Current Date and Time tool (the server's time zone, as in Flowise). No inputs. */
export const currentDateTime = defineMapping({ flowise: "currentDateTime", type: "currentDateTime", inputs: {} });
