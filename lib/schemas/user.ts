import { z } from "zod";

export const emailSchema = z.email("must be an e-mail address").max(320).transform((s) => s.toLowerCase());
export const passwordSchema = z.string().min(8, "must be at least 8 characters").max(200);

export const setupAdminSchema = z
  .object({ email: emailSchema, name: z.string().trim().min(1).max(100), password: passwordSchema })
  .strict();

export const createUserSchema = z
  .object({
    email: emailSchema,
    name: z.string().trim().min(1).max(100),
    password: passwordSchema,
    role: z.enum(["admin", "builder"]).default("builder"),
  })
  .strict();

/** PUT /api/v1/users/{id}: an admin changes another user's role. */
export const updateUserSchema = z.object({ role: z.enum(["admin", "builder"]) }).strict();
