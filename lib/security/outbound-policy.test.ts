import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { getEnv, resetEnvForTests } from "../env";
import { assertCredentialHost, credentialHosts } from "./credential-hosts";
import { createModelFetch, operatorPolicy } from "./outbound-policy";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvForTests();
});

describe("the operator's outbound policy", () => {
  it("reads OUTBOUND_ALLOW_HOSTS as host[:port] entries and adds OPENAI_BASE_URL's host", () => {
    Object.assign(process.env, {
      OUTBOUND_ALLOW_HOSTS: " 127.0.0.1:4010 , [::1]:8080,Ollama.local ",
      OPENAI_BASE_URL: "http://10.0.0.5:11434/v1",
    });
    resetEnvForTests();
    expect(operatorPolicy()).toEqual({
      allowPrivate: false,
      allowPrivateHosts: ["127.0.0.1:4010", "[::1]:8080", "ollama.local", "10.0.0.5:11434"],
    });
  });

  it("stops on an entry that is not host or host:port, naming the setting", () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "http://127.0.0.1:4010";
    resetEnvForTests();
    expect(() => getEnv()).toThrow(/OUTBOUND_ALLOW_HOSTS/);
  });
});

describe("the model fetch's deadline", () => {
  it("a node's timeout shortens MODEL_TIMEOUT_MS and never extends it", async () => {
    // A server that never answers: each call ends at its deadline, which the error names.
    const server = http.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true", MODEL_TIMEOUT_MS: "600" });
    resetEnvForTests();
    try {
      const failure = (timeoutMs?: number) =>
        createModelFetch({ requester: "Model", timeoutMs })(url, { method: "POST", body: "{}" }).then(
          () => new Error("answered"),
          (err: Error) => err,
        );
      expect((await failure(200)).message).toMatch(/within 200 ms/);
      expect((await failure(60_000)).message).toMatch(/within 600 ms/);
      expect((await failure()).message).toMatch(/within 600 ms/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("where a credential may go", () => {
  it("binds provider keys to their base URL's host, or the provider's own host", () => {
    expect(credentialHosts({ name: "a", type: "openai", data: { apiKey: "k" } })).toEqual(["api.openai.com"]);
    expect(credentialHosts({ name: "a", type: "anthropic", data: { apiKey: "k" } })).toEqual(["api.anthropic.com"]);
    expect(
      credentialHosts({ name: "a", type: "openai", data: { apiKey: "k", baseURL: "http://127.0.0.1:11434/v1" } }),
    ).toEqual(["127.0.0.1:11434"]);
  });

  it("refuses another host or port, naming the credential and the host; an old headers credential without hosts goes nowhere", () => {
    const local = { name: "Ollama", type: "openai", data: { apiKey: "k", baseURL: "http://127.0.0.1:11434/v1" } };
    expect(assertCredentialHost(local, "http://127.0.0.1:11434/v1", "Model")).toEqual(["127.0.0.1:11434"]);
    expect(() => assertCredentialHost(local, "http://127.0.0.1:9999/v1", "Model")).toThrow(
      'Model: credential "Ollama" may only be sent to 127.0.0.1:11434, not to 127.0.0.1:9999.',
    );
    const legacy = { name: "Old headers", type: "httpHeaders", data: { "X-Api-Key": "k" } };
    expect(() => assertCredentialHost(legacy, "https://shop.example.com", "Chain")).toThrow(
      /credential "Old headers" lists no hosts/,
    );
  });
});
