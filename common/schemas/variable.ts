import { z } from "zod";

/**
 * Global variables (Flowise's Variables, `/api/v1/variables`): `{{$vars.name}}` in agentflows and
 * `$vars.name` in custom code. A `static` variable holds its value; a `runtime` one reads the server's
 * environment variable of the same name, only when the operator lists it in VARIABLES_FROM_ENV.
 */

export const variableNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "must be an identifier (letters, digits, _; at most 100)");

export const variableTypeSchema = z.enum(["static", "runtime"]);

export const createVariableSchema = z
  .object({
    name: variableNameSchema,
    value: z.string().max(10_000).default(""),
    type: variableTypeSchema.default("static"),
  })
  .strict()
  .meta({ id: "VariableCreate" });

export const updateVariableSchema = z
  .object({
    name: variableNameSchema.optional(),
    value: z.string().max(10_000).optional(),
    type: variableTypeSchema.optional(),
  })
  .strict()
  .meta({ id: "VariableUpdate" });

export const variableResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The stored value (empty for a runtime variable: its value is the environment's, never sent). */
    value: z.string(),
    type: variableTypeSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Variable" });

export const variableListResponseSchema = z.array(variableResponseSchema).meta({ id: "VariableList" });

export type CreateVariableBody = z.output<typeof createVariableSchema>;
export type UpdateVariableBody = z.output<typeof updateVariableSchema>;
export type VariableRecord = z.output<typeof variableResponseSchema>;
