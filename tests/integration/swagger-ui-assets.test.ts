import { describe, expect, it } from "vitest";
import * as assets from "../../app/swagger-ui/[file]/route";
import * as openapi from "../../app/api/v1/openapi.json/route";
import { responseKind } from "../../lib/http/security-headers";
import { swaggerUiVersion } from "../../lib/http/swagger-ui-assets";

const get = (file: string) =>
  assets.GET(new Request(`http://127.0.0.1:3000/swagger-ui/${file}`), { params: Promise.resolve({ file }) });

describe("Swagger UI's files and the document, served from our origin", () => {
  it("serves the bundle and the stylesheet with their types and a year of caching", async () => {
    const js = await get("swagger-ui-bundle.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await js.text()).toContain("SwaggerUIBundle");
    const css = await get("swagger-ui.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await css.text()).length).toBeGreaterThan(1000);
  });

  it("knows the installed version (the page puts it in the files' URLs)", async () => {
    const pkg = await import("swagger-ui-dist/package.json", { with: { type: "json" } });
    expect(swaggerUiVersion()).toBe(pkg.default.version);
    expect(swaggerUiVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers 404 in the error shape for any other name (no other file of the package, no path)", async () => {
    for (const name of ["package.json", "index.html", "../../package.json", "constructor", "__proto__"]) {
      const res = await get(name);
      expect(res.status, name).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
  });

  it("the document is public, JSON, and API-kind (the API's CSP), the files static (no page CSP)", async () => {
    const res = await openapi.GET(new Request("http://127.0.0.1:3000/api/v1/openapi.json"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect((await res.json()).info.title).toBe("Switchyard API");
    expect(responseKind("/api/v1/openapi.json")).toBe("api");
    expect(responseKind("/swagger-ui/swagger-ui-bundle.js")).toBe("static");
    expect(responseKind("/api-docs")).toBe("page");
  });
});
