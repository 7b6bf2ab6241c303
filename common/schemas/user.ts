import { z } from "zod";

export const emailSchema = z
  .email("must be an e-mail address")
  .max(320)
  .transform((s) => s.toLowerCase());
/** The one password rule: setup, new users, ADMIN_PASSWORD and password changes all use it. */
export const PASSWORD_RULE = "Password must be at least 10 characters and not only spaces.";
export const PASSWORD_MIN_LENGTH = 10;

/** True when a password satisfies PASSWORD_RULE (eight spaces, or "password1", do not). */
export function isAcceptablePassword(password: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && password.trim() !== "";
}

export const passwordSchema = z
  .string()
  .max(200)
  .refine(isAcceptablePassword, PASSWORD_RULE)
  .meta({ override: { minLength: PASSWORD_MIN_LENGTH, pattern: "\\S" } });

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
