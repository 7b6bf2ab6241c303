import { idParams, route } from "@/lib/http/route";
import { manageWebhooksPolicy } from "@/common/access/permissions";
import { updateWebhookSchema, webhookSettingsSchema } from "@/common/schemas/triggers";
import { refuseOtherMethods } from "@/lib/http/methods";
import { getWebhookSettings, updateWebhookSettings } from "@/lib/services/webhooks";

export const GET = route(
  {
    auth: manageWebhooksPolicy,
    params: idParams,
    docs: {
      tag: "Webhooks and schedules",
      summary: "Read a flow's webhook settings",
      description:
        "Whether its webhook is on, how the body becomes the input, whether calls must be signed (the secret is never answered again), and its path.",
      callersNote: "builders and their keys: their own flows",
      responses: { 200: { description: "The settings", schema: webhookSettingsSchema } },
    },
  },
  async ({ params, caller }) => getWebhookSettings(params.id, caller),
);

export const PUT = route(
  {
    auth: manageWebhooksPolicy,
    params: idParams,
    body: { json: updateWebhookSchema },
    docs: {
      tag: "Webhooks and schedules",
      summary: "Change a flow's webhook settings",
      description:
        "`enabled` turns the webhook on or off; `inputMode` is `question` (the body's `question` field) or `body` (the whole body as text); `rotateSecret: true` makes a new signing secret, answered in `secret` this once (the old one stops working); `removeSecret: true` drops it (calls need no signature).",
      callersNote: "builders and their keys: their own flows",
      responses: {
        200: { description: "The settings (with `secret` when one was made)", schema: webhookSettingsSchema },
      },
    },
  },
  async ({ params, body, caller }) => updateWebhookSettings(params.id, body, caller),
);

export const { POST, PATCH, DELETE } = refuseOtherMethods("GET", "PUT");
