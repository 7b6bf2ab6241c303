import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const currentDateTimeDefinition = {
  name: "currentDateTime",
  version: 1,
  label: "Current Date and Time",
  category: "Tools",
  description: "Lets an agent read today's date, the weekday and the time (in a chosen time zone).",
  inputs: [
    {
      kind: "param",
      name: "timezone",
      label: "Time zone",
      type: "string",
      optional: true,
      placeholder: "Europe/Berlin",
      maxLength: 64,
      description: "An IANA time zone name. Empty: the server's time zone.",
    },
    {
      kind: "param",
      name: "name",
      label: "Tool name",
      type: "string",
      default: "current_date_time",
      pattern: "^[a-zA-Z0-9_-]{1,64}$",
      additional: true,
    },
    {
      kind: "param",
      name: "description",
      label: "Description",
      type: "text",
      default: "Useful to get the current day, date and time.",
      additional: true,
      description: "Tells the agent when to use the tool.",
    },
  ],
  outputs: [{ name: "tool", label: "Tool", types: [T.tool] }],
} as const satisfies NodeDefinitionSpec;
