import { json } from "@/lib/http/responses";

/** Health check: answers without touching the database so load balancers stay cheap. */
export function GET() {
  return json({ status: "ok", service: "switchyard" });
}
