/**
 * Limits of the chatbot settings, in a module with no imports: the studio's Publish dialog (a
 * browser bundle) reads them, and common/schemas/chatflow.ts (which reaches server code) checks with them.
 */

/** Most starter prompts the widget shows. */
export const MAX_STARTER_PROMPTS = 10;

/** Most bytes of an avatar given inline as a data:image URL (decoded). */
export const AVATAR_MAX_BYTES = 64 * 1024;
