import { AppError } from "@/common/errors";
import type { AgentflowStep, StepContext } from "../../agentflow/types";
import type { RuntimeOf } from "../define";
import { listItems, stateUpdates } from "../shared/agentflow";
import type { startAgentflowDefinition } from "./definition";

/** A field of the Start node's form, as the run checks it. */
export interface FormField {
  name: string;
  label: string;
  type: string;
  options: string[];
}

/** The Start node's form fields (its `formInputTypes`): also the input schema of the flow as an MCP tool. */
export function formFields(value: unknown): FormField[] {
  return listItems(value)
    .filter((f) => typeof f.name === "string" && f.name !== "")
    .map((f) => ({
      name: f.name as string,
      label: typeof f.label === "string" && f.label ? f.label : (f.name as string),
      type: typeof f.type === "string" ? f.type : "string",
      options: listItems(f.addOptions).map((o) => String(o.option ?? "")),
    }));
}

/** A form's field checked against its type; 400 naming the field otherwise. */
function checkField(field: FormField, value: unknown): unknown {
  const wrong = (what: string) =>
    new AppError("validation_failed", `form.${field.name}: "${field.label}" must be ${what}.`, {
      details: [{ field: `body.form.${field.name}`, message: `must be ${what}` }],
    });
  if (value === undefined || value === null || value === "") throw wrong("given");
  if (field.type === "number") {
    const n = typeof value === "number" ? value : Number(value);
    if (typeof value === "boolean" || Number.isNaN(n)) throw wrong("a number");
    return n;
  }
  if (field.type === "boolean") {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    throw wrong("true or false");
  }
  if (typeof value !== "string") throw wrong("text");
  if (field.type === "options" && field.options.length && !field.options.includes(value))
    throw wrong(`one of ${field.options.join(", ")}`);
  return value;
}

function readForm(fields: FormField[], ctx: StepContext): Record<string, unknown> {
  if (!ctx.form) throw new AppError("validation_failed", "form: this agentflow starts from a form; send `form`.");
  return Object.fromEntries(fields.map((f) => [f.name, checkField(f, ctx.form?.[f.name])]));
}

/** Start: the question (or the checked form) as its output, the initial flow state set. */
export const buildStartStep: RuntimeOf<typeof startAgentflowDefinition> = async ({ params }) => {
  const fields = formFields(params.formInputTypes);
  const step: AgentflowStep = {
    agentflowStep: true,
    pure: true,
    async run(ctx) {
      const form = params.startInputType === "formInput" ? readForm(fields, ctx) : undefined;
      const state = stateUpdates(params.startState, ctx);
      const content = form ? JSON.stringify(form) : ctx.question;
      return {
        input: form ? { form } : { question: ctx.question },
        output: { content, ...(form ? { form } : { question: ctx.question }) },
        ...(state ? { state } : {}),
      };
    },
  };
  return step;
};
