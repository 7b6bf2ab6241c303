import { route } from "@/lib/http/route";
import { runChatflow } from "@/common/access/permissions";
import { getUploadFileQuery as query } from "@/common/schemas/upload-file";
import { readUploadFile } from "@/lib/services/upload-files";
import { refuseOtherMethods } from "@/lib/http/methods";

/**
 * GET /api/v1/get-upload-file?chatflowId&chatId&fileName (Flowise; flowise-embed shows uploaded
 * images and audio with it). Served with its checked media type, never sniffed; anything but an
 * image is a download; a sandboxing CSP in case a browser renders it anyway.
 */
export const GET = route(
  {
    auth: runChatflow,
    query,
    docs: {
      tag: "Prediction",
      summary: "A chat's uploaded file (Flowise; the widget shows uploads with it)",
      description:
        "Served with its checked media type (`nosniff`, a sandboxing CSP); anything but an image is a download. Unknown chatflow, chat or name: 404.",
      callersNote: "public chatflows only for anonymous callers",
      responses: {
        200: {
          description: "The file's bytes",
          binary: ["image/*", "audio/*"],
          headers: { "Content-Disposition": "`inline` for images, else `attachment`, with the file name" },
        },
      },
      errors: [404],
    },
  },
  async ({ query: q, caller }) => {
    const file = await readUploadFile(q, caller);
    const disposition = file.mime.startsWith("image/") ? "inline" : "attachment";
    const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "content-type": file.mime,
        "content-length": String(file.bytes.length),
        "x-content-type-options": "nosniff",
        "content-disposition": `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, max-age=300",
      },
    });
  },
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
